#!/usr/bin/env bash
# A short showcase of what puzzlebots does today (run by `make demo`).
set -euo pipefail
PB=.venv/bin/puzzlebots
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "The games and their bots"
$PB list
