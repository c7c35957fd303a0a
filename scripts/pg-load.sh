#!/usr/bin/env bash
# One node on PostgreSQL against one node on SQLite, in the same session (docs/load.md,
# "PostgreSQL pipelined writes (issue 28)"): `dominion-load play` at each of ROOMS rooms,
# RUNS times, the stores taking turns run by run; every run on a fresh server with a
# fresh data directory and, for PostgreSQL, a fresh database. PostgreSQL is started here
# on loopback with its defaults (fsync and synchronous_commit on: durable, as deployed;
# from the Debian package postgresql, in a temporary directory, as the user postgres
# when run as root) and stopped at the end. Each load run holds `flock $LOCK` (so runs
# of other measurements on the machine do not overlap it) and prints the machine's load
# average before and after it, and PostgreSQL's CPU time per decision (its processes'
# utime + stime over the run).
#
#   cargo build --release -p dominion-server -p dominion-load
#   scripts/pg-load.sh                        # 3 runs of 10 and 50 rooms, 10 s each
#   RUNS=1 ROOMS="50" DURATION=5s scripts/pg-load.sh
#
# Settings (environment): RUNS (3), ROOMS ("10 50"), DURATION (10s), STORES ("sqlite
# postgres"), PORT (18380), PGPORT (18390), SERVER and LOAD (the release binaries of
# this checkout), LOCK (/work/measure.lock, or none when it cannot be created), OUT
# (target/pg-load: one JSON summary per run), TAG (a label for the rows, e.g. "before").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/load.sh

RUNS=${RUNS:-3}
ROOMS=${ROOMS:-10 50}
DURATION=${DURATION:-10s}
STORES=${STORES:-sqlite postgres}
PORT=${PORT:-18380}
PGPORT=${PGPORT:-18390}
SERVER=${SERVER:-$PWD/target/release/dominion-server}
LOAD=${LOAD:-$PWD/target/release/dominion-load}
LOCK=${LOCK:-/work/measure.lock}
OUT=${OUT:-target/pg-load}
TAG=${TAG:-}
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"
for bin in "$SERVER" "$LOAD"; do
  [ -x "$bin" ] || { echo "$bin missing: cargo build --release -p dominion-server -p dominion-load" >&2; exit 1; }
done
locked() { if touch "$LOCK" 2>/dev/null; then flock "$LOCK" "$@"; else "$@"; fi; }

work=$(mktemp -d)
chmod 755 "$work"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  stop_local_pg "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT

start_local_pg "$work/pg" "$PGPORT"
postmaster=$(head -1 "$work/pg/postmaster.pid")

# CPU seconds of PostgreSQL's processes (the postmaster and its children) so far.
pg_cpu() {
  local tck total=0 p
  tck=$(getconf CLK_TCK)
  for p in $postmaster $(pgrep -P "$postmaster"); do
    [ -r "/proc/$p/stat" ] || continue
    # Fields 14 and 15 (utime, stime), counted after the command's closing parenthesis.
    total=$((total + $(sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 }')))
  done
  awk -v t="$total" -v h="$tck" 'BEGIN { printf "%.3f", t / h }'
}

run() { # run STORE ROOMS RUN
  local store=$1 rooms=$2 r=$3 args=() name="$1-$2-$3"
  if [ "$store" = postgres ]; then
    psql -q -h 127.0.0.1 -p "$PGPORT" -U postgres -c "CREATE DATABASE load_${rooms}_$r" >/dev/null
    args=(--database "postgres://postgres@127.0.0.1:$PGPORT/load_${rooms}_$r")
  fi
  rm -rf "$work/data" && mkdir -p "$work/data"
  "$SERVER" --addr "127.0.0.1:$PORT" --data-dir "$work/data" --log warn \
    "${LOAD_LIMITS[@]}" "${args[@]}" &
  server_pid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break
    sleep 0.1
  done
  local pg_before pg_after
  pg_before=$(pg_cpu)
  locked "$LOAD" play --addr "127.0.0.1:$PORT" --pid "$server_pid" --rooms "$rooms" \
    --duration "$DURATION" --json >"$OUT/$name.json" || echo "(run failed: see $OUT/$name.json)"
  pg_after=$(pg_cpu)
  kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
  server_pid=
  python3 - "$OUT/$name.json" "$store" "$rooms" "$r" "$pg_before" "$pg_after" "$TAG" <<'PY'
import json, sys
path, store, rooms, run, pg0, pg1, tag = sys.argv[1:]
s = json.load(open(path))
lat = s["reply_to_next_decision"]
srv = s.get("server") or {}
decisions = s["decisions"]
pg = float(pg1) - float(pg0)
pg_us = f"{pg / decisions * 1e6:.0f}" if store == "postgres" and decisions else "–"
la = lambda v: "?" if not v else f"{v[0]:.2f}"
print(f"| {tag} | {store} | {rooms} | {run} | {s['decisions_per_s']:.0f} | {lat['p50_us'] / 1000:.2f} | "
      f"{lat['p99_us'] / 1000:.2f} | {lat['max_us'] / 1000:.1f} | {srv.get('cpu_us_per_decision', 0):.0f} | "
      f"{srv.get('cpu_cores', 0):.2f} | {pg_us} | {s['rooms_failed']} | "
      f"{la(s.get('load_average_before'))} → {la(s.get('load_average_after'))} |")
PY
}

echo "| build | store | rooms | run | decisions/s | p50 ms | p99 ms | max ms | server µs CPU/decision | server cores | PostgreSQL µs CPU/decision | rooms failed | load avg before → after |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for ((r = 1; r <= RUNS; r++)); do
  for rooms in $ROOMS; do
    for store in $STORES; do
      run "$store" "$rooms" "$r"
    done
  done
done
