#!/usr/bin/env bash
# What one node sends PostgreSQL per decision (docs/load.md, "PostgreSQL pipelined writes
# (issue 28)"): a PostgreSQL of its own with pg_stat_statements, one server on it, one
# `dominion-load play` run (under `flock /work/measure.lock`), then every statement the
# database ran during the run with its calls and rows, and the transactions committed.
# With PERF=1, `perf record -a -g` samples the whole machine for 5 s of the run
# (OUT/perf.data; `perf report -i OUT/perf.data --sort comm -g none` says who used the
# CPU).
#
#   scripts/pg-statements.sh target/release/dominion-server target/release/dominion-load 50 10s
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root (PostgreSQL runs as the user postgres)" >&2; exit 1; }
SERVER=$1 LOAD=$2 ROOMS=$3 SECS=$4 OUT=${OUT:-target/pg-statements}
mkdir -p $OUT
. "$(dirname "$0")/lib/load.sh"
d=$(mktemp -d); chmod 755 $d
spid=
trap 'kill $spid 2>/dev/null; stop_local_pg $d/pg; rm -rf $d' EXIT
start_local_pg $d/pg 18395 -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all
psql -q -h 127.0.0.1 -p 18395 -U postgres -c "CREATE DATABASE diag"
psql -q -h 127.0.0.1 -p 18395 -U postgres -d diag -c "CREATE EXTENSION pg_stat_statements"
mkdir $d/data
ulimit -n "$(ulimit -Hn)"
$SERVER --addr 127.0.0.1:18396 --data-dir $d/data --log warn --database postgres://postgres@127.0.0.1:18395/diag \
  "${LOAD_LIMITS[@]}" &
spid=$!
for _ in $(seq 100); do curl -sf http://127.0.0.1:18396/healthz >/dev/null && break; sleep 0.1; done
psql -q -h 127.0.0.1 -p 18395 -U postgres -d diag -c "SELECT pg_stat_statements_reset()" >/dev/null
if [ -n "${PERF:-}" ]; then (sleep 3; perf record -a -g -o $OUT/perf.data -- sleep 5 >/dev/null 2>&1) & fi
flock /work/measure.lock $LOAD play --addr 127.0.0.1:18396 --pid $spid --rooms $ROOMS --duration $SECS --json > $OUT/load.json
[ -n "${PERF:-}" ] && wait %1 || true
python3 -c "import json;s=json.load(open('$OUT/load.json'));print('decisions',s['decisions'],'per s',round(s['decisions_per_s']),'server us/dec',round(s['server']['cpu_us_per_decision']))"
psql -h 127.0.0.1 -p 18395 -U postgres -d diag -c "SELECT s.calls, s.rows, round(s.total_exec_time::numeric,0) AS exec_ms, left(regexp_replace(s.query,'\s+',' ','g'),90) AS query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname='diag' ORDER BY s.calls DESC LIMIT 25"
psql -h 127.0.0.1 -p 18395 -U postgres -d diag -c "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname='diag'"
