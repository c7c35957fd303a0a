#!/usr/bin/env bash
# Builds against each other on the same machine (docs/load.md, "Server CPU per decision
# (issue 28)"): `dominion-load play` against each build's release `dominion-server` in
# turn (A, B, …, A, B, …), RUNS rounds, so every build sees the same machine load. Each
# DIR holds a `dominion-server` and the `dominion-load` of the same commit. Every run is
# a fresh server and data directory, under `flock $LOCK`, and prints one Markdown row
# with the load average before and after it; the run's JSON summary and the server's
# /metrics at its end are kept in OUT.
#
#   scripts/load-ab.sh 50 0ms /tmp/bin-before /tmp/bin-after          # closed loop
#   RUNS=3 scripts/load-ab.sh 200 30ms /tmp/bin-before /tmp/bin-after # paced
#
# Settings (environment): RUNS (3), DURATION (16s), PORT (18190), LOCK
# (/work/measure.lock, or none when it cannot be created), OUT (target/load-ab), PERF
# (set: `perf record -g` the server for 12 s of each run, into OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/load.sh

[ $# -ge 3 ] || { echo "usage: $0 ROOMS THINK DIR..." >&2; exit 2; }
ROOMS=$1 THINK=$2
shift 2
RUNS=${RUNS:-3}
DURATION=${DURATION:-16s}
PORT=${PORT:-18190}
LOCK=${LOCK:-/work/measure.lock}
OUT=${OUT:-target/load-ab}
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"
# Runs "$@" holding an exclusive lock on $LOCK (when it can be created), as
# `flock $LOCK COMMAND` would, but for a shell function.
locked() {
  local fd
  if ! touch "$LOCK" 2>/dev/null; then
    "$@"
    return
  fi
  exec {fd}>"$LOCK"
  flock "$fd"
  "$@"
  exec {fd}>&-
}

run() { # run DIR NAME
  local bin=$1 name=$2 data pid load
  data=$(mktemp -d)
  "$bin/dominion-server" --addr "127.0.0.1:$PORT" --data-dir "$data" --log warn \
    "${LOAD_LIMITS[@]}" &
  pid=$!
  for _ in $(seq 100); do
    "$bin/dominion-server" --addr "127.0.0.1:$PORT" healthcheck 2>/dev/null && break
    sleep 0.1
  done
  "$bin/dominion-load" play --addr "127.0.0.1:$PORT" --rooms "$ROOMS" --duration "$DURATION" \
    --think "$THINK" --pid "$pid" --json >"$OUT/$name.json" &
  load=$!
  if [ -n "${PERF:-}" ]; then
    sleep 2
    perf record -F 999 -g -p "$pid" -o "$OUT/$name.perf" -- sleep 12 >/dev/null 2>&1 || true
  fi
  wait "$load" || echo "(run failed: see $OUT/$name.json)" >&2
  curl -s "http://127.0.0.1:$PORT/metrics" >"$OUT/$name.metrics" || true
  kill "$pid" && wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}

row() { # row JSON BUILD RUN
  jq -r --arg b "$2" --arg r "$3" '"| \($b) | \($r) | \(.decisions_per_s|floor) | \(.reply_to_next_decision.p50_us/100|floor/10) | \(.reply_to_next_decision.p99_us/100|floor/10) | \(.server.cpu_us_per_decision|floor) | \(.server.cpu_cores*100|floor/100) | \(.load_average_before[0]) → \(.load_average_after[0]) |"' "$1"
}

echo "| build | run | decisions/s | p50 ms | p99 ms | server µs CPU/decision | server cores | load avg before → after |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for ((r = 1; r <= RUNS; r++)); do
  for dir in "$@"; do
    name="$(basename "$dir")-$ROOMS-$THINK-$r"
    locked run "$dir" "$name"
    row "$OUT/$name.json" "$(basename "$dir")" "$r"
  done
done
