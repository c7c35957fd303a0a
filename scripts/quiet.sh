#!/usr/bin/env bash
# scripts/quiet.sh CMD...: runs CMD while every compiler, linker and valgrind process on
# the machine is stopped (SIGSTOP, looked for again every 0.5 s), then resumes them all
# (SIGCONT). For a measurement on a shared development machine whose other work is
# builds (docs/load.md, "On a quiet machine"): builds only wait, nothing is lost. Do not
# use it where stopped processes could time out (tests, servers).
set -u
stopped=/tmp/quiet.$$; : > $stopped
( while :; do for p in $(pgrep -x 'cargo|rustc|clippy-driver|rustdoc|cc|ld|cc1|cc1plus|as|collect2|x86_64-linux-gnu-ld|memcheck-amd64-|callgrind-amd64-|ld.bfd|rust-lld' 2>/dev/null; pgrep -f 'valgrind' 2>/dev/null); do kill -STOP $p 2>/dev/null && echo $p >> $stopped; done; sleep 0.5; done ) &
watcher=$!
"$@"; rc=$?
kill $watcher; wait $watcher 2>/dev/null
sort -u $stopped | xargs -r kill -CONT 2>/dev/null
# once more, in case a process was stopped after the list was read
for p in $(pgrep -x 'cargo|rustc|clippy-driver|rustdoc|cc|ld|cc1|cc1plus|as|collect2|ld.bfd|rust-lld'); do kill -CONT $p 2>/dev/null; done
pgrep -f valgrind | xargs -r kill -CONT 2>/dev/null
rm -f $stopped
exit $rc
