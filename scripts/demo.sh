#!/usr/bin/env bash
# A short showcase of what puzzlebots does today (run by `make demo`), with the kernels compiled at install: 14 s
# of wall time and 19 s of CPU time (user+sys) on 2 idle cores of a fresh clone (2026-11-28). Its wall time follows
# the load: 181 s on 2 cores that other work kept busy (load 11-12) on a slower machine, 27 minutes at load 30-37
# (2026-11-27). It prints the seconds each part took and the total. PB=... runs another puzzlebots command (e.g.
# from a checkout).
set -euo pipefail
PB=${PB:-.venv/bin/puzzlebots}
OUT=${DEMO_OUT:-out/demo}
mkdir -p "$OUT"
# each part's header (bold on a terminal only) after the seconds the part before it took
last=$SECONDS
took() { [ "$SECONDS" -gt "$last" ] && printf '(%s s)\n' "$((SECONDS - last))"; last=$SECONDS; }
say() {
  took || true
  if [ -t 1 ]; then printf '\n\033[1m== %s\033[0m\n' "$*"; else printf '\n== %s\n' "$*"; fi
}

say "The games and their bots"
$PB list

if $PB stats hatris --help >/dev/null 2>&1; then
  say "Hatris: the article's searcher plays 40 pairs (NES PRNG), recorded as a replay"
  $PB watch hatris --bot searcher --seed 1 --delay 0 --max-actions 40 --replay "$OUT/hatris.jsonl"
  say "Hatris: the replay re-runs and every state hash matches"
  $PB replay "$OUT/hatris.jsonl" --no-show
  say "Hatris: 8 seeded games of 300 spawns on every core"
  $PB stats hatris --bot searcher --games 8 --max-spawns 300 --json "$OUT/hatris_stats.json" --plot "$OUT/hatris.png"
fi

say "Puyo Puyo: KRIEG3 (chain templates) plays a 30-pair solo game"
$PB watch puyo --bot krieg3 --seed 2 --delay 0 --pairs 30
say "Puyo Puyo: KRIEG, KRIEG3 and our beam search over the same 4 seeded 40-pair games"
for bot in krieg krieg3 beam; do
  $PB stats puyo --bot "$bot" --games 4 --pairs 40 --json "$OUT/puyo_$bot.json" --quiet
done
say "Puyo Puyo: beam against KRIEG, 4 versus games with garbage"
$PB versus puyo --bots beam,krieg --games 4

say "Yoshi's Cookie: the article's greedy bot against our planner, 4 games of the first 5 stages"
for bot in greedy planner; do
  $PB stats yoshis_cookie --bot "$bot" --games 4 --max-stages 5 --json "$OUT/yc_$bot.json" --quiet
done

say "Cargo-Bot: the 40 levels, a hand-written Inverter program, and the synthesizer on Transporter"
$PB cargobot levels
$PB cargobot run --level Inverter --program "call2 call2 call2 call2 R call1 prog_2 claw R claw L"
$PB cargobot solve --level Transporter --jobs 2
say "Cargo-Bot: given Elizarov's helper F2, the search builds an F1 for Genetic Code: 11 registers, best known 12"
$PB cargobot solve --level "Genetic Code" --fix "prog_2 claw L_none claw R" --jobs 1
say "Cargo-Bot: the two functions our solver found on Elizarov's Restoring Order sub-problem (examples/cargobot/subproblems.json, a separate run of 182 s of one core), given to the level: its best known 13"
$PB cargobot solve --level "Restoring Order" --jobs 1 \
    --fix "prog_2 R claw call3_red L call3_blue call2_blue prog_3 claw_blue call2 claw call3_red"

took || true
say "Done in $SECONDS s: results, replays and plots are in $OUT/"
