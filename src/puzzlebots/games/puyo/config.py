"""Puyo Puyo Tsu solo configuration: every assumption of docs/rules/puyo.md and the bots' options as a key.

:class:`PuyoConfig` declares each key (``core.config``). The web bounds keep one beam move to about a second:
at width 100, depth 10, 5 samples (with 5 colours, ``climb12`` and 5 visible pairs, the slowest case) one move
took 0.6-0.7 s on the 2-core development machine under load, against 0.06 s at the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from puzzlebots.core.config import Schema, setting

from .names import FRAME_SOURCES, MARGIN_SOURCES, REACH_RULES, SEQUENCES


@dataclass(frozen=True)
class PuyoConfig(Schema):
    """One field per key; a web page sets the game's shape and the bots' choices, never a file."""

    pairs: int = setting(
        50, "number of pairs in a solo game (default 50)", range=(1, 100_000), flag="--pairs", web=True, web_max=500
    )
    visible: int = setting(
        2,
        "next pairs visible besides the current one (default 2)",
        range=(0, 20),
        flag="--visible",
        web=True,
        web_max=5,
    )
    seq: str = setting(
        "esports",
        "pair generator: the eSports-style 128-pair cycle, or independent uniform colours",
        choices=SEQUENCES,
        web=True,
    )
    opening_3col_pairs: int = setting(2, "opening pairs drawn from the 3-colour list", range=(0, 64))
    n_colours: int = setting(4, "number of puyo colours", range=(3, 5), web=True)
    reach: str = setting(
        "strict",
        "columns a pair can cross: height <= 11 (strict), or also 12 (climb12)",
        choices=tuple(REACH_RULES),
        flag="--reach",
        web=True,
    )
    early_stop: int = setting(
        0,
        "end a solo game once a chain of at least this many points fires (0: off; ama's tester uses 80000)",
        range=(0, 1_000_000_000),
        flag="--early-stop",
    )
    k3_templates: str = setting(
        "",
        "KRIEG3 template file (default: the shipped one)",
        what="a file path (or empty for the shipped templates)",
        flag="--templates",
        file=True,
        bots=("krieg3",),
    )
    k3_colours: str = setting(
        "fixed",
        "KRIEG3: template colours as in the file, or every colour map tried",
        choices=("fixed", "permute"),
        web=True,
        bots=("krieg3",),
    )
    k3_fit: str = setting(
        "left",
        "KRIEG3: a template sits at a free-space node's left edge, or slides across it",
        choices=("left", "slide"),
        web=True,
        bots=("krieg3",),
    )
    k3_legality: str = setting(
        "delta",
        "KRIEG3: legality counts the chain cells this placement fills, or all filled after it",
        choices=("delta", "total"),
        web=True,
        bots=("krieg3",),
    )
    k3_abandon_after: int = setting(
        8, "KRIEG3: pieces in a row without progress before a chain is dropped", range=(1, 1000), bots=("krieg3",)
    )
    beam_width: int = setting(
        40, "beam: fields kept per depth", range=(1, 10_000), flag="--beam-width", web=True, web_max=100, bots=("beam",)
    )
    beam_depth: int = setting(
        6, "beam: pairs searched ahead", range=(1, 50), flag="--beam-depth", web=True, web_max=10, bots=("beam",)
    )
    beam_samples: int = setting(
        3,
        "beam: random futures searched (the visible pairs, then random ones)",
        range=(1, 100),
        flag="--beam-samples",
        web=True,
        web_max=5,
        bots=("beam",),
    )
    beam_fire_links: int = setting(
        0,
        "beam: fire once a chain of this many links is in reach (0: solo rule, fire before the end)",
        range=(0, 19),
        bots=("beam", "builder"),
    )
    builder_width: int = setting(
        120,
        "builder: fields kept per depth in each future's beam",
        range=(1, 10_000),
        flag="--builder-width",
        web=True,
        web_max=120,
        bots=("builder",),
    )
    builder_depth: int = setting(
        16,
        "builder: pairs searched ahead",
        range=(1, 50),
        flag="--builder-depth",
        web=True,
        web_max=16,
        bots=("builder",),
    )
    builder_futures: int = setting(
        6,
        "builder: sampled futures, searched in parallel (the visible pairs, then random ones)",
        range=(1, 256),
        flag="--builder-futures",
        web=True,
        web_max=6,
        bots=("builder",),
    )
    builder_prune: int = setting(
        5000,
        "builder: a searched line that fires a chain of this many points stops there (it spent its chain)",
        range=(1, 10_000_000),
        bots=("builder", "duelist"),
    )
    builder_discount: int = setting(
        970,
        "builder: per mille a searched chain loses per pair it lies ahead (the unseen pairs' risk)",
        range=(1, 1000),
        bots=("builder", "duelist"),
    )
    duelist_width: int = setting(
        120,
        "duelist: fields kept per depth in each future's beam (the builder's search)",
        range=(1, 10_000),
        flag="--duelist-width",
        web=True,
        web_max=120,
        bots=("duelist",),
    )
    duelist_depth: int = setting(
        16,
        "duelist: pairs searched ahead when it builds",
        range=(1, 50),
        flag="--duelist-depth",
        web=True,
        web_max=16,
        bots=("duelist",),
    )
    duelist_futures: int = setting(
        4,
        "duelist: sampled futures searched in parallel when it builds",
        range=(1, 256),
        flag="--duelist-futures",
        web=True,
        web_max=6,
        bots=("duelist",),
    )
    duelist_fire_links: int = setting(
        14,
        "duelist: fire a chain of this many links or more",
        range=(1, 19),
        flag="--duelist-fire-links",
        bots=("duelist",),
    )
    duelist_defend: int = setting(
        9,
        "duelist: garbage landing before its next placement that it answers by firing (counter or defend)",
        range=(1, 1000),
        flag="--duelist-defend",
        bots=("duelist",),
    )
    duelist_bury_rows: int = setting(
        5,
        "duelist: rows of garbage that make it fire a chain that offsets only part of it",
        range=(1, 12),
        flag="--duelist-bury-rows",
        bots=("duelist",),
    )
    duelist_harass: int = setting(
        0,
        "duelist: garbage a small chain must send, beyond what the opponent can offset, to harass (0: off)",
        range=(0, 1000),
        flag="--duelist-harass",
        bots=("duelist",),
    )
    duelist_harass_links: int = setting(
        4, "duelist: most links of a harassing chain", range=(1, 19), flag="--duelist-harass-links", bots=("duelist",)
    )
    duelist_crush: int = setting(
        39,
        "duelist: net garbage that counts as a kill even if the spawn column has more room",
        range=(1, 1000),
        flag="--duelist-crush",
        bots=("duelist",),
    )
    duelist_read_ahead: int = setting(
        9,
        "duelist: most placements of the opponent's it searches for what he builds while its chain runs (0: off)",
        range=(0, 50),
        flag="--duelist-read-ahead",
        bots=("duelist",),
    )
    duelist_threat_growth: int = setting(
        7,
        "duelist: most times his answer (the chain he holds or his pairs fire) he grows while its kill runs",
        range=(1, 1000),
        flag="--duelist-threat-growth",
        bots=("duelist",),
    )
    versus_clock: str = setting(
        "frames",
        "versus clock: real frames per placement, link and garbage drop (frames), or the old turns",
        choices=("frames", "turns"),
        flag="--clock",
        versus=True,
    )
    versus_frames: str = setting(
        "nova",
        "frame counts where the sources disagree: nova's (puyo-camp measurements) or puyoai's frame.h",
        choices=FRAME_SOURCES,
        versus=True,
    )
    margin_targets: str = setting(
        "reference",
        "margin-time target points: the reference's F17 sequence or nova's table",
        choices=MARGIN_SOURCES,
        versus=True,
    )
    upi_ms: int = setting(
        1000,
        "think time per move (go MS) given to an external UPI engine",
        range=(1, 600_000),
        flag="--upi-ms",
        versus=True,
    )
    upi_grace_ms: int = setting(
        2000,
        "how long past its think time an external UPI engine may take before it loses the game",
        range=(0, 600_000),
        versus=True,
    )


def typed_config(config: Mapping[str, Any]) -> PuyoConfig:
    """The checked ``config`` as :class:`PuyoConfig` attributes, what the engines and bots read (keys left out take
    their defaults). A key that is no setting is left out of the view: ``think_ms``, which a match adds for the
    bots that play by the clock (``upi.EngineBot``), is read by them from the mapping itself."""
    return PuyoConfig.of({k: v for k, v in config.items() if k in KEYS})


#: the config keys :class:`PuyoConfig` declares
KEYS = frozenset(f.name for f in fields(PuyoConfig))
