#!/usr/bin/env bash
# The load figures of docs/load.md: a release dominion-server measured by dominion-load,
# `play` with 10, 50 and 200 rooms of 2 socket players and `idle` with 1,000, 10,000 and
# 20,000 connections, RUNS times each, every run on a fresh server and data directory.
#
#   cargo build --release -p dominion-server -p dominion-load
#   scripts/load-matrix.sh                 # everything, 3 runs each
#   RUNS=1 ROOMS="10" IDLE="" scripts/load-matrix.sh
#
# Settings (environment): RUNS (3), ROOMS ("10 50 200"), IDLE ("1000 10000 20000"),
# DURATION (20s per play run), HOLD (5s per idle run), PORT (18180), SYNC (full|normal:
# the server's --sqlite-sync), THINK (0ms: each player's pause before answering, to
# measure latency at an offered rate instead of at saturation), OUT (target/load: one
# JSON summary per run).
# The server gets limits the runs must not hit: a message budget the clients cannot
# exhaust, more rooms (each game is a new room, kept --finished-room-ttl, all created
# from 127.0.0.1) and connections than it allows by default, and as many open files as the hard limit allows
# (the server does not raise its own soft limit; 20,000 connections need over 20,000
# files in the server and in the tool alike); it runs as configured otherwise
# (synchronous=FULL unless SYNC says so).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/load.sh

RUNS=${RUNS:-3}
ROOMS=${ROOMS-10 50 200}
IDLE=${IDLE-1000 10000 20000}
DURATION=${DURATION:-20s}
HOLD=${HOLD:-5s}
PORT=${PORT:-18180}
SYNC=${SYNC:-full}
THINK=${THINK:-0ms}
OUT=${OUT:-target/load}
SERVER=target/release/dominion-server
LOAD=target/release/dominion-load
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"

for bin in "$SERVER" "$LOAD"; do
  [ -x "$bin" ] || { echo "$bin missing: cargo build --release -p dominion-server -p dominion-load" >&2; exit 1; }
done

server_pid=""
data_dir=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
  if [ -n "$data_dir" ]; then
    rm -rf "$data_dir"
    data_dir=""
  fi
}
trap stop_server EXIT

start_server() {
  data_dir=$(mktemp -d)
  "$SERVER" \
    --addr "127.0.0.1:$PORT" --data-dir "$data_dir" --log warn \
    --sqlite-sync "$SYNC" "${LOAD_LIMITS[@]}" &
  server_pid=$!
  for _ in $(seq 100); do
    if "$SERVER" --addr "127.0.0.1:$PORT" healthcheck 2>/dev/null; then
      return
    fi
    sleep 0.1
  done
  echo "the server did not start" >&2
  exit 1
}

for rooms in $ROOMS; do
  for run in $(seq "$RUNS"); do
    start_server
    file="$OUT/play-$rooms-$SYNC-think$THINK-$run.json"
    "$LOAD" play --addr "127.0.0.1:$PORT" --rooms "$rooms" --duration "$DURATION" \
      --think "$THINK" --pid "$server_pid" --json > "$file" || echo "(run failed: see $file)" >&2
    stop_server
    jq -r '"play \(.rooms) rooms think \(.think_ms) ms run '"$run"': \(.decisions_per_s|floor) decisions/s, p50 \(.reply_to_next_decision.p50_us) µs, p99 \(.reply_to_next_decision.p99_us) µs, max \(.reply_to_next_decision.max_us) µs, server CPU \(.server.cpu_us_per_decision*10|floor/10) µs/decision (\(.server.cpu_cores*100|floor/100) cores), RSS \(.server.after.rss_kb) kB, client CPU \(.client.cpu_cores*100|floor/100) cores, games \(.games), failed rooms \(.rooms_failed), load \(.load_average_before[0]) → \(.load_average_after[0])"' "$file"
  done
done

for n in $IDLE; do
  for run in $(seq "$RUNS"); do
    start_server
    file="$OUT/idle-$n-$run.json"
    "$LOAD" idle --addr "127.0.0.1:$PORT" --connections "$n" --hold "$HOLD" \
      --pid "$server_pid" --json > "$file" || echo "(run failed: see $file)" >&2
    stop_server
    jq -r '"idle \(.requested) run '"$run"': \(.greeted) greeted, \(.failed) failed, \(.dropped) dropped in \(.connect_s*10|floor/10) s; server RSS \(.server.before.rss_kb) → \(.server.after.rss_kb) kB = \(.server.kb_per_connection*10|floor/10) kB per connection; load \(.load_average[0])"' "$file"
  done
done
