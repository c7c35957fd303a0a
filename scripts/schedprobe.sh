#!/usr/bin/env bash
# scripts/schedprobe.sh NAME SECONDS: for the newest process called NAME, each thread's
# CPU time and its time runnable but waiting for a CPU (the run queue) over SECONDS, from
# /proc/PID/task/TID/schedstat (run ns, wait ns, time slices). docs/load.md, "The p99 at
# 200 rooms is the VM's wake-ups, not the disk": run it during a load run, e.g.
#   scripts/load-ab.sh 200 30ms DIR & sleep 5; scripts/schedprobe.sh dominion-server 8
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PROCESS-NAME SECONDS" >&2; exit 2; }
pid=$(pgrep -n -x "$1") || { echo "no process called $1" >&2; exit 1; }
snap() {
  for t in /proc/"$pid"/task/*; do
    echo "$(basename "$t") $(tr ' ' _ < "$t/comm") $(cat "$t/schedstat")"
  done | sort
}
a=$(snap); sleep "$2"; b=$(snap)
# Joined on the thread id: tid name run wait slices name run wait slices.
join <(echo "$a") <(echo "$b") | awk '{
  run = ($7 - $3) / 1e6; wait = ($8 - $4) / 1e6; sl = $9 - $5
  if (run > 1) printf "%-18s cpu %8.1f ms  run-queue wait %8.1f ms  wake-ups %7d  wait per wake-up %.3f ms\n", $2, run, wait, sl, (sl > 0 ? wait / sl : 0)
}'
