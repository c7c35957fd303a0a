#!/usr/bin/env bash
# The figures of docs/load.md, "Bots (issue 23)": a release dominion-server with rooms of
# Hard bots (`dominion-load bots`), and what a separate human and /healthz see meanwhile:
# no bots (the baseline), ROOMS rooms whose player stays, ROOMS rooms whose player
# leaves; RUNS times each, every run on a fresh server and data directory.
#
#   cargo build --release -p dominion-server -p dominion-load
#   scripts/bots-load.sh
#   SERVER=/path/to/older/dominion-server RUNS=1 scripts/bots-load.sh   # "before"
#
# Settings (environment): RUNS (3), ROOMS (100), HUMANS ("stays leaves"), BOT (search),
# WARMUP (10s), DURATION (30s), SOURCES (10: bot rooms from 127.0.1.1-10), PORT (18190),
# SERVER, LOAD (the binaries), EXTRA (more server flags, e.g. "--bot-threads 0"),
# OUT (target/load: one JSON summary per run).
# The server gets limits the runs must not hit (messages, rooms and connections, rooms
# per address and per connection); it runs as configured otherwise: --bot-delay 300ms,
# --bot-think-ms 200, --bot-threads its default.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
ROOMS=${ROOMS:-100}
HUMANS=${HUMANS-stays leaves}
BOT=${BOT:-search}
WARMUP=${WARMUP:-10s}
DURATION=${DURATION:-30s}
SOURCES=${SOURCES:-10}
PORT=${PORT:-18190}
EXTRA=${EXTRA:-}
OUT=${OUT:-target/load}
SERVER=${SERVER:-target/release/dominion-server}
LOAD=${LOAD:-target/release/dominion-load}
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

# The per-address limits of issue 23, lifted when the server has them (an older
# "before" server has not): the runs measure CPU, not those limits.
per_address=""
for flag in --connections-per-address --live-rooms-per-address --search-rooms-per-address; do
  if "$SERVER" --help | grep -q -- "$flag"; then
    per_address="$per_address $flag 1000000"
  fi
done

start_server() {
  data_dir=$(mktemp -d)
  # shellcheck disable=SC2086 # EXTRA and per_address are lists of flags
  "$SERVER" \
    --addr "127.0.0.1:$PORT" --data-dir "$data_dir" --log warn \
    --rate-messages 1000000 --rate-window 1s \
    --max-rooms 100000 --max-connections 25000 \
    --rooms-per-connection 1000000 --rooms-per-address 1000000 $per_address $EXTRA &
  server_pid=$!
  for _ in $(seq 100); do
    if "$SERVER" --addr "127.0.0.1:$PORT" healthcheck >/dev/null 2>&1; then
      return
    fi
    sleep 0.1
  done
  echo "the server did not start" >&2
  exit 1
}

run() { # rooms human run
  start_server
  local file="$OUT/bots-$1-$2-$3.json"
  "$LOAD" bots --addr "127.0.0.1:$PORT" --rooms "$1" --human "$2" --bot "$BOT" \
    --sources "$SOURCES" --warmup "$WARMUP" --duration "$DURATION" \
    --pid "$server_pid" --json > "$file" || echo "(run failed: see $file)" >&2
  stop_server
  jq -r '"bots \(.bot_rooms) rooms, player \(.human), run '"$3"': \(.bot_rooms_started) started; human reply p50 \(.measured.reply_to_next_decision.p50_us) µs p99 \(.measured.reply_to_next_decision.p99_us) µs max \(.measured.reply_to_next_decision.max_us) µs (\(.measured.reply_to_next_decision.samples) samples); /healthz p50 \(.healthz.latency.p50_us) µs p99 \(.healthz.latency.p99_us) µs max \(.healthz.latency.max_us) µs (\(.healthz.asked) asked, \(.healthz.failed) failed); server \(.measured.server.cpu_cores*100|floor/100) cores; load \(.measured.load_average_before[0]) → \(.measured.load_average_after[0])"' "$file"
}

for r in $(seq "$RUNS"); do
  run 0 stays "$r"
  for human in $HUMANS; do
    run "$ROOMS" "$human" "$r"
  done
done
