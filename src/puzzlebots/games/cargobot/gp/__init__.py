"""Cargo-Bot as a genetic-programming benchmark: the evaluator a GP library calls (``evaluator``), programs as
integer genomes (``genome``), the GP on DEAP and the baselines it is measured against (``search``), level families
for generalisation (``families``) and the benchmark suite (``suite``)."""
