"""Cargo-Bot's program searches: the Ruby example's hill climber (``climb``) and the exhaustive
synthesizer (``solve``)."""
