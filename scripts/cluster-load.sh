#!/usr/bin/env bash
# The cluster's load figures (docs/load.md, "Several nodes"): decisions/s and the
# reply → next-decision latency of `dominion-load play`, against
#   1. one node on SQLite (the single-node default, for reference),
#   2. one node on PostgreSQL,
#   3. three nodes on PostgreSQL + Redis, players connected to the node running their room,
#   4. the same three nodes, players connected to another node (every reply forwarded),
# RUNS times each, every run on fresh nodes and a fresh database. PostgreSQL and Redis
# are started here on loopback (from the Debian packages postgresql and redis-server,
# in a temporary directory, as the user postgres when run as root) and stopped at the end.
#
#   cargo build --release -p dominion-server -p dominion-load
#   scripts/cluster-load.sh                    # 3 runs of each, 50 rooms, 20 s
#   RUNS=1 ROOMS=20 DURATION=10s scripts/cluster-load.sh
#
# Settings (environment): RUNS (3), ROOMS (50), DURATION (20s), THINK (0ms), PORT (18280:
# the nodes take PORT, PORT+1, PORT+2), PGPORT (18290), REDISPORT (18291), OUT
# (target/cluster-load: one JSON summary per run).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/load.sh

RUNS=${RUNS:-3}
ROOMS=${ROOMS:-50}
DURATION=${DURATION:-20s}
THINK=${THINK:-0ms}
PORT=${PORT:-18280}
PGPORT=${PGPORT:-18290}
REDISPORT=${REDISPORT:-18291}
OUT=${OUT:-target/cluster-load}
SERVER=$PWD/target/release/dominion-server
LOAD=$PWD/target/release/dominion-load
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"
for bin in "$SERVER" "$LOAD"; do
  [ -x "$bin" ] || { echo "$bin missing: cargo build --release -p dominion-server -p dominion-load" >&2; exit 1; }
done
command -v redis-server >/dev/null || { echo "redis-server not found: apt-get install redis-server" >&2; exit 1; }

work=$(mktemp -d)
chmod 755 "$work"
pids=()
stop_nodes() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_nodes
  [ -n "${redis_pid:-}" ] && kill "$redis_pid" 2>/dev/null || true
  stop_local_pg "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT

# PostgreSQL with its defaults (fsync and synchronous_commit on: durable, as deployed).
start_local_pg "$work/pg" "$PGPORT" -c max_connections=200
redis-server --port "$REDISPORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  >"$work/redis.log" 2>&1 &
redis_pid=$!

# fresh_db NAME: a new database (and an empty Redis) for one run.
fresh_db() {
  psql -q -h 127.0.0.1 -p "$PGPORT" -U postgres -c "CREATE DATABASE $1" >/dev/null
  redis-cli -p "$REDISPORT" flushall >/dev/null
  echo "postgres://postgres@127.0.0.1:$PGPORT/$1"
}

# start_nodes N STORE: N nodes; STORE is "sqlite" or a postgres URL (with Redis when N > 1).
start_nodes() {
  local n=$1 store=$2 i
  for ((i = 0; i < n; i++)); do
    local port=$((PORT + i)) args=()
    if [ "$store" != sqlite ]; then
      args+=(--database "$store")
      [ "$n" -gt 1 ] && args+=(--cluster "redis://127.0.0.1:$REDISPORT/0" --node-id "n$i")
    fi
    mkdir -p "$work/data$i"
    "$SERVER" --addr "127.0.0.1:$port" --data-dir "$work/data$i" --log warn \
      "${LOAD_LIMITS[@]}" "${args[@]}" &
    pids+=($!)
  done
  for ((i = 0; i < n; i++)); do
    for _ in $(seq 100); do
      curl -sf "http://127.0.0.1:$((PORT + i))/healthz" >/dev/null && break
      sleep 0.1
    done
  done
  # A cluster node writes the columns an earlier release reads until no such node has
  # been announced for ten leases (docs/storage.md, "One row a reply"): measure the
  # steady state, after every node has stopped (at most 60 s).
  if [ "$n" -gt 1 ]; then
    for ((i = 0; i < n; i++)); do
      for _ in $(seq 600); do
        curl -sf "http://127.0.0.1:$((PORT + i))/metrics" \
          | grep -qx 'dominion_store_legacy_columns 0' && break
        sleep 0.1
      done
    done
  fi
}

run() { # run NAME NODES STORE VIA RUN
  local name=$1 n=$2 store=$3 via=$4 r=$5 addrs pids_csv store_url
  if [ "$store" = postgres ]; then store_url=$(fresh_db "load_${name//-/_}_$r"); else store_url=sqlite; fi
  rm -rf "$work"/data*
  start_nodes "$n" "$store_url"
  addrs=$(for ((i = 0; i < n; i++)); do printf '127.0.0.1:%d,' $((PORT + i)); done)
  pids_csv=$(IFS=,; echo "${pids[*]}")
  echo "== $name, run $r"
  "$LOAD" play --addr "${addrs%,}" --pid "$pids_csv" --players-via "$via" \
    --rooms "$ROOMS" --duration "$DURATION" --think "$THINK" --json >"$OUT/$name-$r.json" \
    || echo "(run failed: see $OUT/$name-$r.json)"
  python3 - "$OUT/$name-$r.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
lat = s["reply_to_next_decision"]
cores = (s.get("server") or {}).get("cpu_cores")
load = s.get("load_average_before") or [None]
print(f"   {s['decisions_per_s']:.0f} decisions/s  p50 {lat['p50_us'] / 1000:.2f} ms  "
      f"p99 {lat['p99_us'] / 1000:.2f} ms  servers {cores if cores is None else round(cores, 2)} cores  "
      f"rooms failed {s['rooms_failed']}  load before {load[0]}")
PY
  stop_nodes
}

# The configurations take turns, run by run, so that whatever else the machine does
# falls on all of them alike.
for ((r = 1; r <= RUNS; r++)); do
  run one-node-sqlite 1 sqlite owner "$r"
  run one-node-postgres 1 postgres owner "$r"
  run three-nodes-owner 3 postgres owner "$r"
  run three-nodes-forwarded 3 postgres other "$r"
done
