# Sourced by the load scripts (load-matrix.sh, load-ab.sh, pg-load.sh, pg-statements.sh,
# cluster-load.sh): what they all start the same way, written once.

# The limits a load run must not hit, for every dominion-server it starts: a message
# budget the clients cannot exhaust, and more rooms (each game is a new room, all
# created from 127.0.0.1) and connections than a server allows by default. Everything
# else runs as configured (synchronous=FULL unless a script says otherwise).
LOAD_LIMITS=(
  --rate-messages 1000000 --rate-window 1s
  --max-rooms 100000 --max-connections 25000 --connections-per-address 25000
  --rooms-per-connection 1000000 --rooms-per-address 1000000
  --live-rooms-per-address 1000000 --search-rooms-per-address 1000000
)

# The machine's PostgreSQL binaries (the Debian package postgresql).
PGBIN=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)

# Runs a command as the user postgres when run as root (initdb refuses root).
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# start_local_pg DIR PORT [-c SETTING=VALUE ...]: a fresh PostgreSQL cluster in DIR on
# 127.0.0.1:PORT (socket in DIR), trust authentication, its defaults otherwise (fsync
# and synchronous_commit on: durable, as deployed) plus the settings given.
start_local_pg() {
  local dir=$1 port=$2
  shift 2
  [ -x "$PGBIN/initdb" ] || { echo "PostgreSQL not found: apt-get install postgresql" >&2; exit 1; }
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_pg "$PGBIN/initdb" -D "$dir" -U postgres --auth=trust >/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $*" start >/dev/null
}

# stop_local_pg DIR: stops the cluster start_local_pg started there, if it runs.
stop_local_pg() {
  as_pg "$PGBIN/pg_ctl" -D "$1" -m immediate stop >/dev/null 2>&1 || true
}
