//! Every setting of the server: a command-line flag and an environment variable each,
//! with defaults meant for running on one machine. `dominion-server --help` lists them.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// `--store-writers` unless set: the writer threads on PostgreSQL, chosen by
/// measurement (docs/load.md, "Several writers on PostgreSQL").
pub const DEFAULT_STORE_WRITERS: usize = 2;

/// The authoritative Dominion room server.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "dominion-server",
    version,
    about = "The authoritative Dominion room server: rooms over WebSocket at /ws (protocol: docs/protocol.md).",
    after_help = "Durations accept 500ms, 20s, 10m, 1h or a plain number of seconds. \
                  Every option can also be set with the environment variable shown."
)]
pub struct Config {
    /// Address to listen on (HOST:PORT).
    #[arg(long, env = "DOMINION_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,

    /// Directory where the server keeps its data (created if missing). `backup` reads
    /// the database from here too.
    #[arg(long, env = "DOMINION_DATA_DIR", default_value = "data", global = true)]
    pub data_dir: PathBuf,

    /// When the data directory or database cannot be written, stay up and check again
    /// (every 10 s, then less often, at most every 60 s), logging the reason and
    /// answering HTTP requests with 503 ("starting") meanwhile, and start once it is
    /// fixed; without it the server exits at once with status 78. The Docker image sets it, so a volume with the
    /// wrong owner does not make the container restart over and over.
    #[arg(long, env = "DOMINION_WAIT_FOR_DATA_DIR",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub wait_for_data_dir: bool,

    /// Log filter, in `RUST_LOG` syntax (e.g. `info`, `dominion_server=debug`).
    #[arg(long, env = "DOMINION_LOG", default_value = "info")]
    pub log: String,

    /// How long a server bot waits before each of its moves (0 plays at once).
    #[arg(long, env = "DOMINION_BOT_DELAY", default_value = "300ms", value_parser = parse_duration)]
    pub bot_delay: Duration,

    /// How long the searching bot (level "Hard", `search`) may think per decision, in
    /// milliseconds of wall-clock time on a bot thinker (the other bots answer in
    /// microseconds). Added to `--bot-delay` for that bot's moves.
    #[arg(long, env = "DOMINION_BOT_THINK_MS", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub bot_think_ms: u64,

    /// Threads searching bots think on, shared by every room [default: one fewer than
    /// the cores, at least 1]. When all are busy a searching bot answers as `standard`
    /// at once; 0 makes it always do so.
    #[arg(long, env = "DOMINION_BOT_THREADS",
          value_parser = clap::value_parser!(u16).range(0..=256))]
    pub bot_threads: Option<u16>,

    /// Largest inbound text frame in bytes; larger ones close the connection with 1009.
    #[arg(long, env = "DOMINION_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    pub max_message_bytes: usize,

    /// Frames a connection may send per rate window (a burst of this many, refilled
    /// evenly over the window); beyond it the connection is closed with 1008. The
    /// default lets a program play as fast as paced server bots allow.
    #[arg(long, env = "DOMINION_RATE_MESSAGES", default_value_t = 200)]
    pub rate_messages: u32,

    /// The window of the message budget.
    #[arg(long, env = "DOMINION_RATE_WINDOW", default_value = "10s", value_parser = parse_duration)]
    pub rate_window: Duration,

    /// How often the server pings each connection.
    #[arg(long, env = "DOMINION_HEARTBEAT", default_value = "20s", value_parser = parse_duration)]
    pub heartbeat: Duration,

    /// A connection that sends nothing (not even a pong) for this long is closed (4002).
    #[arg(long, env = "DOMINION_IDLE_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub idle_timeout: Duration,

    /// Time a new connection has to send `hello` (else closed with 4001).
    #[arg(long, env = "DOMINION_HANDSHAKE_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub handshake_timeout: Duration,

    /// Frames queued for one client before it counts as not reading and is dropped (4003).
    #[arg(long, env = "DOMINION_OUTBOUND_QUEUE", default_value_t = 256)]
    pub outbound_queue: usize,

    /// Bytes queued for one client before it counts as not reading and is dropped (4003):
    /// the frame bound alone let a client that asks for big answers and never reads hold
    /// megabytes.
    #[arg(long, env = "DOMINION_OUTBOUND_BYTES", default_value_t = 1 << 20)]
    pub outbound_bytes: usize,

    /// Time a new TCP connection has to send its whole HTTP request head (and a kept-alive
    /// one, its next request's); slower or silent ones are closed. Every accepted
    /// connection counts against `--max-connections` until then.
    #[arg(long, env = "DOMINION_HEADER_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,

    /// Rooms one connection may create per minute (`too_many_rooms` beyond it).
    #[arg(long, env = "DOMINION_ROOMS_PER_CONNECTION", default_value_t = 10)]
    pub rooms_per_connection: u32,

    /// Rooms one client address may create per minute, over all its connections. An IPv6
    /// address counts as its /64. A refused `create_room` counts for nothing.
    #[arg(long, env = "DOMINION_ROOMS_PER_ADDRESS", default_value_t = 30)]
    pub rooms_per_address: u32,

    /// Rooms created by one client address (an IPv6 address: its /64) that may be open at
    /// once, whatever their state: a room counts until it closes. Keeps a few addresses
    /// from holding all of `--max-rooms`.
    #[arg(long, env = "DOMINION_LIVE_ROOMS_PER_ADDRESS", default_value_t = 20,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub live_rooms_per_address: usize,

    /// Rooms with searching bots (level "Hard", `search`, in a seat or standing in for
    /// absent players) created by one client address that may be open at once until
    /// their games end; 0 allows none. Such a bot thinks for `--bot-think-ms` at every
    /// move, thousands of times the others' CPU.
    #[arg(long, env = "DOMINION_SEARCH_ROOMS_PER_ADDRESS", default_value_t = 2)]
    pub search_rooms_per_address: usize,

    /// How long a room may wait for its game to start, counted from its creation (or its
    /// reopening after a restart) and whoever is connected; then it closes and its
    /// clients get `unknown_room` saying so. At least 1 s.
    #[arg(long, env = "DOMINION_LOBBY_TIMEOUT", default_value = "30m", value_parser = parse_positive_duration)]
    pub lobby_timeout: Duration,

    /// Serve `/metrics` on this address (e.g. 127.0.0.1:9100) instead of the main one,
    /// for operators who do not want it public. Empty: on the main address.
    #[arg(long, env = "DOMINION_METRICS_ADDR")]
    pub metrics_addr: Option<String>,

    /// Most rooms at once; `create_room` beyond it is refused.
    #[arg(long, env = "DOMINION_MAX_ROOMS", default_value_t = 500)]
    pub max_rooms: usize,

    /// Most connections at once, counted from the moment a TCP connection is accepted
    /// (HTTP requests and WebSockets alike); more are refused with HTTP 503.
    #[arg(long, env = "DOMINION_MAX_CONNECTIONS", default_value_t = 2000)]
    pub max_connections: usize,

    /// Most connections at once from one client address (an IPv6 address counts by its
    /// /64, what one household or host is usually given), counted as `--max-connections`
    /// counts them: every TCP connection from accept on, idle HTTP keep-alive, half-sent
    /// requests and WebSockets alike; more from that address get HTTP 503. A WebSocket a
    /// node of the cluster forwards counts under its client's address, and a trusted
    /// proxy's connection (`--trusted-proxies`) under each of its requests' clients, from
    /// the moment the request's head is read.
    #[arg(long, env = "DOMINION_CONNECTIONS_PER_ADDRESS", default_value_t = 100,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub connections_per_address: usize,

    /// Proxies whose `X-Forwarded-For` the server believes, comma-separated: addresses
    /// (`127.0.0.1`, `::1`) or CIDR ranges (`10.0.0.0/8`, `fd00::/8`). A request whose TCP
    /// peer is one of them counts under the rightmost address in `X-Forwarded-For` that
    /// is not itself a trusted proxy (the peer's own address when there is none), for
    /// every per-address limit and in the logs; from any other peer the header is
    /// ignored. Empty (the default): trust nobody. See docs/operations.md, "Behind a
    /// proxy".
    #[arg(long, env = "DOMINION_TRUSTED_PROXIES", value_name = "CIDR,…",
          default_value = "", hide_default_value = true,
          value_parser = parse_trusted_proxies)]
    pub trusted_proxies: TrustedProxies,

    /// Most spectators in one room.
    #[arg(long, env = "DOMINION_MAX_SPECTATORS", default_value_t = 50)]
    pub max_spectators: usize,

    /// Chat lines all connections from one client address (IPv6: one /64) may send per
    /// 10 seconds, over every room; beyond, `chat_too_fast`. Each seat and each
    /// spectator also has its own 5 per 10 s, which reconnecting does not renew.
    #[arg(long, env = "DOMINION_CHAT_PER_ADDRESS", default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..))]
    pub chat_per_address: u32,

    /// Origins allowed to open a WebSocket, comma-separated (e.g.
    /// `https://play.example.org`), or `*` for any. Empty: only requests without an
    /// Origin header (non-browser clients) and same-origin pages.
    #[arg(long, env = "DOMINION_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// A resuming client that missed more events than this gets a snapshot instead.
    #[arg(long, env = "DOMINION_RESUME_GAP", default_value_t = 500)]
    pub resume_gap: u64,

    /// Store a snapshot of each game's state at the first turn start at least this many
    /// replies after the last one (0: none), so a room reopens after a restart or a
    /// takeover from its latest snapshot plus the replies after it rather than by
    /// replaying its whole log (docs/storage.md, "Snapshots"). Off by default: with this
    /// engine a full replay is faster than reading a snapshot's event history back
    /// (docs/load.md, "Reopen from snapshots").
    #[arg(long, env = "DOMINION_SNAPSHOT_EVERY", default_value_t = 0)]
    pub snapshot_every: u64,

    /// How long a finished room stays open for its players before it is closed.
    #[arg(long, env = "DOMINION_FINISHED_ROOM_TTL", default_value = "10m", value_parser = parse_duration)]
    pub finished_room_ttl: Duration,

    /// How long a room that has not started stays open with nobody connected.
    #[arg(long, env = "DOMINION_EMPTY_ROOM_TTL", default_value = "5m", value_parser = parse_duration)]
    pub empty_room_ttl: Duration,

    /// Store everything in this PostgreSQL database instead of SQLite in `--data-dir`:
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE`, what several nodes share. The
    /// server creates its tables in an empty database (the role needs to own it, or may
    /// create tables in its schema) and refuses one written by a newer release.
    /// Without it, the server keeps everything in `--data-dir` (SQLite).
    #[arg(long, env = "DOMINION_DATABASE")]
    pub database: Option<String>,

    /// Writer threads on PostgreSQL, each with its own connections. A room's writes all
    /// go to one of them (by a hash of the room's id), so they stay in order; different
    /// rooms' batches commit at the same time, and PostgreSQL flushes the WAL of commits
    /// that arrive together once (docs/load.md, "Several writers on PostgreSQL"). SQLite
    /// always uses one: it has a single write lock.
    #[arg(long, env = "DOMINION_STORE_WRITERS",
          default_value_t = DEFAULT_STORE_WRITERS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub store_writers: usize,

    /// SQLite durability. `full` (default) syncs every reply to disk before anyone hears
    /// of it: nothing acknowledged is lost even to a power cut. `normal` survives a crash
    /// of the server but may lose the last replies on power loss, for faster writes.
    #[arg(long, env = "DOMINION_SQLITE_SYNC", value_enum, default_value_t = SqliteSync::Full)]
    pub sqlite_sync: SqliteSync,

    /// Log format: `text` for people, `json` (one object per line) for log collectors.
    /// Logs never contain seat tokens or message contents.
    #[arg(long, env = "DOMINION_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// On SIGTERM or Ctrl-C, how long to wait for connections to close before exiting
    /// anyway (every reply is already on disk by then).
    #[arg(long, env = "DOMINION_SHUTDOWN_GRACE", default_value = "5s", value_parser = parse_duration)]
    pub shutdown_grace: Duration,

    // ---- durability and room lifetime (issue 10, the `durable` branch) ----
    /// A started game in which no player has been connected for this long ends as
    /// abandoned: it is kept as history, no longer counts against `--max-rooms` and is
    /// not reopened after a restart. Spectators do not count as players; time the server
    /// was down is not counted.
    #[arg(long, env = "DOMINION_ABANDON_AFTER", default_value = "1h", value_parser = parse_duration)]
    pub abandon_after: Duration,

    // ---- automatch (issue 25): docs/protocol.md#automatch ----
    /// How long every player of an automatch proposal has to accept it; silence counts
    /// as declining. Shorter only for tests.
    #[arg(long, env = "DOMINION_MATCH_ACCEPT_TIMEOUT", default_value = "20s", value_parser = parse_positive_duration)]
    pub match_accept_timeout: Duration,

    /// How long the longest waiter of three suitable `3-4p` players waits for a fourth
    /// before the three are proposed a table.
    #[arg(long, env = "DOMINION_MATCH_TABLE_WAIT", default_value = "10s", value_parser = parse_duration)]
    pub match_table_wait: Duration,

    /// How long a bot account waits in the `bots` queue for another bot account before
    /// it is proposed a game against one of our bots (the bot ladder's house bots).
    #[arg(long, env = "DOMINION_LADDER_HOUSE_WAIT", default_value = "5s", value_parser = parse_duration)]
    pub ladder_house_wait: Duration,

    /// Playouts per decision of the searching house bot (`search`) in a rated room, the
    /// bot ladder: a fixed count, with no clock and no downgrade when the thinkers are
    /// busy (it waits for one), so its strength — and so the ladder's ratings — does not
    /// depend on the machine's load.
    #[arg(long, env = "DOMINION_LADDER_SEARCH_PLAYOUTS", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub ladder_search_playouts: u32,

    // ---- game review (issue 27): docs/operations.md#game-review ----
    /// Threads that review ended games (`GET /api/games/{id}/analysis`), each at the
    /// lowest scheduling priority, beside the bot thinkers. 0 turns reviews off (the
    /// endpoint answers 503).
    #[arg(long, env = "DOMINION_ANALYSIS_WORKERS", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(0..=64))]
    pub analysis_workers: u16,

    /// Wall-clock budget of a review per decision, in milliseconds (a game's review
    /// takes about this times its players' decisions worth reviewing, typically 100–300).
    #[arg(long, env = "DOMINION_ANALYSIS_BUDGET_MS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub analysis_budget_ms: u64,

    /// At most this many playouts per reviewed decision (all its candidates together):
    /// with a cap that binds before the clock, a review is the same on any machine.
    #[arg(long, env = "DOMINION_ANALYSIS_PLAYOUTS", default_value_t = 4000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub analysis_playouts: u32,

    /// Games waiting for review at most; a request beyond is answered 503 with
    /// `Retry-After`.
    #[arg(long, env = "DOMINION_ANALYSIS_QUEUE", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub analysis_queue: u32,

    // ---- several nodes (issue 14): docs/operations.md#several-nodes ----
    /// Join a cluster of nodes sharing this Redis (`redis://host:6379/0`): one lobby,
    /// each room run by one node under a lease, clients of any node play in any room,
    /// rooms of a node that dies are taken over. Needs `--database postgres://…` (every
    /// node must read every room's log). Empty: a single node.
    #[arg(long, env = "DOMINION_CLUSTER")]
    pub cluster: Option<String>,

    /// This node's name in the cluster (letters, digits, `-`, `_`, `.`; at most 64).
    /// Empty: a random one at each start.
    #[arg(long, env = "DOMINION_NODE_ID")]
    pub node_id: Option<String>,

    /// The HOST:PORT other nodes reach this node at (its WebSocket, for forwarding).
    /// Empty: the listening address, unless that is a wildcard such as 0.0.0.0.
    #[arg(long, env = "DOMINION_ADVERTISE")]
    pub advertise: Option<String>,

    /// How long a room's lease lasts without renewal: after a node dies, its rooms are
    /// taken over about this long later. Renewed every third of it.
    #[arg(long, env = "DOMINION_LEASE", default_value = "3s", value_parser = parse_duration)]
    pub lease: Duration,

    // ---- accounts (issue 24): docs/operations.md#accounts ----
    /// Passwords hashed at once (Argon2id, each a core for the time `dominion-server
    /// hash-cost` prints); sign-ins and registrations beyond wait for one, and past 32
    /// waiting per thread are answered `busy`. Rooms keep the other cores.
    #[arg(long, env = "DOMINION_HASH_THREADS", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub hash_threads: u16,

    /// Argon2id memory per password hash, in KiB (OWASP's 19456 = 19 MiB). Stored hashes
    /// keep their own parameters, so changing it affects new hashes only.
    #[arg(long, env = "DOMINION_ARGON2_MEMORY_KIB", default_value_t = 19_456,
          value_parser = clap::value_parser!(u32).range(8..=4_194_304))]
    pub argon2_memory_kib: u32,

    /// Argon2id passes per password hash (OWASP: 2 with 19 MiB).
    #[arg(long, env = "DOMINION_ARGON2_ITERATIONS", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub argon2_iterations: u32,

    /// How long a sign-in lasts (the session cookie's lifetime), in days.
    #[arg(long, env = "DOMINION_SESSION_DAYS", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..=3650))]
    pub session_days: u32,

    /// Browsers reach this server over HTTPS (a TLS proxy in front): the session cookie
    /// is marked `Secure`.
    #[arg(long, env = "DOMINION_BEHIND_TLS",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub behind_tls: bool,

    /// Failed sign-ins one client address (IPv6: its /64) may make per 15 minutes; then
    /// `too_many_sign_ins` until the window ends.
    #[arg(long, env = "DOMINION_SIGN_INS_PER_ADDRESS", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub sign_ins_per_address: u32,

    /// Failed sign-ins under one name (registered or not) per 15 minutes, from any
    /// address; then `too_many_sign_ins` until the window ends.
    #[arg(long, env = "DOMINION_SIGN_INS_PER_ACCOUNT", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub sign_ins_per_account: u32,

    /// Accounts one client address (IPv6: its /64) may register per hour.
    #[arg(long, env = "DOMINION_REGISTRATIONS_PER_ADDRESS", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub registrations_per_address: u32,

    #[command(subcommand)]
    pub command: Option<Tool>,
}

/// See `--trusted-proxies`: the ranges whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(pub Vec<ipnet::IpNet>);

impl TrustedProxies {
    pub fn nets(&self) -> &[ipnet::IpNet] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// See `--sqlite-sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SqliteSync {
    Full,
    Normal,
}

/// See `--log-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Check that a server answers `GET /healthz` at `--addr` (0.0.0.0 means this host)
    /// and exit 0 if it does, 1 if not: the Docker image's healthcheck.
    Healthcheck,
    /// Copy the database in `--data-dir` to FILE, consistently, while the server runs
    /// (SQLite's online backup), check the copy's integrity and say what it holds. To
    /// restore, stop the server and put the copy in place of `dominion.sqlite3`.
    Backup {
        /// Where to write the copy. It is written under a temporary name beside it and
        /// renamed when complete, so FILE is never half-written.
        file: PathBuf,
        /// Replace FILE if it exists (otherwise an existing FILE is refused).
        #[arg(long)]
        force: bool,
    },
    /// Measure what one password hash costs here with `--argon2-memory-kib` and
    /// `--argon2-iterations` (the figure docs/operations.md gives) and print it.
    HashCost {
        /// Hashes to average over.
        #[arg(long, default_value_t = 10)]
        rounds: u32,
    },
    /// Operators' account commands, on the database while the server runs (`--database`
    /// or `--data-dir`).
    #[command(subcommand)]
    Admin(Admin),
}

/// `dominion-server admin …`.
#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum Admin {
    /// List accounts (name, created, bot, banned).
    Accounts {
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
    /// Ban an account: it cannot sign in or play; its sessions end at once and its live
    /// connections close within seconds on every node.
    Ban { name: String },
    /// Lift a ban.
    Unban { name: String },
    /// Mark an account as a bot account (plays only through API tokens).
    BotAccount { name: String },
    /// Set a new random password and print it once, to hand to the player; every
    /// session of the account ends.
    ResetPassword { name: String },
    /// List reported chat lines, newest first.
    Reports {
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
}

impl Config {
    /// Where the store lives: PostgreSQL at `--database`, else SQLite in `--data-dir`
    /// with `--sqlite-sync`. A `--database` that is not a PostgreSQL URL is refused here.
    pub fn store_database(&self) -> Result<dominion_store::Database, dominion_store::StoreError> {
        let durability = match self.sqlite_sync {
            SqliteSync::Full => dominion_store::Durability::Full,
            SqliteSync::Normal => dominion_store::Durability::Normal,
        };
        dominion_store::Database::choose(self.database.as_deref(), &self.data_dir, durability)
    }
}

impl Default for Config {
    /// The defaults, as `dominion-server` with no flags (environment variables still apply).
    fn default() -> Self {
        Config::parse_from(["dominion-server"])
    }
}

/// `--trusted-proxies`: entries separated by commas ([`parse_trusted_proxy`]); an empty
/// or blank value trusts nobody, an empty entry among others is refused (a typo).
pub fn parse_trusted_proxies(text: &str) -> Result<TrustedProxies, String> {
    if text.trim().is_empty() {
        return Ok(TrustedProxies::default());
    }
    text.split(',')
        .map(parse_trusted_proxy)
        .collect::<Result<_, _>>()
        .map(TrustedProxies)
}

/// One `--trusted-proxies` entry: an address (a range of one) or a CIDR range, host bits
/// dropped (`10.1.2.3/8` is `10.0.0.0/8`); an IPv4 address written as IPv6
/// (`::ffff:10.0.0.1`, `::ffff:10.0.0.0/104`) is the IPv4 one, as peers are compared.
pub fn parse_trusted_proxy(text: &str) -> Result<ipnet::IpNet, String> {
    use ipnet::{IpNet, Ipv4Net};
    use std::net::IpAddr;
    let text = text.trim();
    let net = match (text.parse::<IpNet>(), text.parse::<IpAddr>()) {
        (Ok(net), _) => net.trunc(),
        (_, Ok(ip)) => IpNet::from(ip),
        _ => {
            return Err(format!(
                "{text:?} is not an IP address or CIDR range \
                 (e.g. 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)"
            ));
        }
    };
    if let IpNet::V6(v6) = net
        && let Some(v4) = v6.addr().to_ipv4_mapped()
        && v6.prefix_len() >= 96
    {
        let v4 = Ipv4Net::new(v4, v6.prefix_len() - 96).map_err(|e| e.to_string())?;
        return Ok(IpNet::V4(v4.trunc()));
    }
    Ok(net)
}

/// As [`parse_duration`], at least a second.
pub fn parse_positive_duration(text: &str) -> Result<Duration, String> {
    let d = parse_duration(text)?;
    if d < Duration::from_secs(1) {
        return Err(format!("{:?} is too short: at least 1s", text.trim()));
    }
    Ok(d)
}

/// Parses `250ms`, `20s`, `10m`, `1h` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (try 500ms, 20s, 10m)"))?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        other => {
            return Err(format!(
                "unknown duration unit {other:?} (use ms, s, m or h)"
            ));
        }
    };
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return Err(format!("{text:?} is out of range"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("20"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5 parsecs").is_err());
    }

    #[test]
    fn bot_threads_take_0_to_256_and_say_what_was_wrong() {
        let c = Config::try_parse_from(["dominion-server", "--bot-threads", "0"]).unwrap();
        assert_eq!(c.bot_threads, Some(0));
        let c = Config::try_parse_from(["dominion-server", "--bot-threads", "256"]).unwrap();
        assert_eq!(c.bot_threads, Some(256));
        for bad in ["257", "-1", "many"] {
            let flag = format!("--bot-threads={bad}");
            let err = Config::try_parse_from(["dominion-server", flag.as_str()])
                .unwrap_err()
                .to_string();
            assert!(err.contains("--bot-threads"), "{bad}: {err}");
        }
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let c = Config::parse_from(["dominion-server"]);
        assert_eq!(c.max_message_bytes, 65536);
        assert_eq!(c.rate_messages, 200);
        assert_eq!(c.rate_window, Duration::from_secs(10));
        assert_eq!(c.sqlite_sync, SqliteSync::Full);
        assert_eq!(c.abandon_after, Duration::from_secs(3600));
        assert_eq!(c.bot_think_ms, 200);
        assert_eq!(c.ladder_house_wait, Duration::from_secs(5));
        assert_eq!(c.ladder_search_playouts, 1000);
        assert_eq!(
            (c.analysis_workers, c.analysis_budget_ms),
            (1, 300),
            "game review"
        );
        assert_eq!((c.analysis_playouts, c.analysis_queue), (4000, 100));
        assert_eq!(c.bot_threads, None);
        assert_eq!(c.outbound_bytes, 1 << 20);
        assert_eq!(c.header_timeout, Duration::from_secs(10));
        assert_eq!((c.rooms_per_connection, c.rooms_per_address), (10, 30));
        assert_eq!(
            (c.live_rooms_per_address, c.search_rooms_per_address),
            (20, 2)
        );
        assert_eq!(c.lobby_timeout, Duration::from_secs(1800));
        assert!(Config::try_parse_from(["dominion-server", "--lobby-timeout", "0"]).is_err());
        assert!(
            Config::try_parse_from(["dominion-server", "--live-rooms-per-address", "0"]).is_err()
        );
        assert_eq!(c.chat_per_address, 15);
        assert_eq!(
            (c.hash_threads, c.argon2_memory_kib, c.argon2_iterations),
            (1, 19_456, 2)
        );
        assert_eq!((c.session_days, c.behind_tls), (30, false));
        assert_eq!(
            (
                c.sign_ins_per_address,
                c.sign_ins_per_account,
                c.registrations_per_address
            ),
            (20, 10, 5)
        );
        assert_eq!(c.metrics_addr, None);
        assert_eq!((c.max_connections, c.connections_per_address), (2000, 100));
        let refused = Config::try_parse_from(["dominion-server", "--connections-per-address", "0"]);
        assert!(refused.is_err(), "a cap of 0 would refuse everyone");
        assert!(c.trusted_proxies.is_empty(), "trusts nobody by default");
        let blank = Config::try_parse_from(["dominion-server", "--trusted-proxies", " "]);
        assert!(blank.unwrap().trusted_proxies.is_empty(), "blank: nobody");
        assert_eq!(c.log_format, LogFormat::Text);
        assert_eq!(c.command, None);
        assert_eq!(c.database, None);
        assert!(!c.store_database().unwrap().is_postgres());
        let c = Config::parse_from(["dominion-server", "--database", "postgres://u:p@db/d"]);
        assert!(c.store_database().unwrap().is_postgres());
        let c = Config::parse_from(["dominion-server", "--database", "sqlite:///x"]);
        assert!(c.store_database().is_err());
        let c = Config::parse_from(["dominion-server", "--addr", "0.0.0.0:9000", "healthcheck"]);
        assert_eq!(c.addr, "0.0.0.0:9000");
        assert_eq!(c.command, Some(Tool::Healthcheck));
        assert!(!c.wait_for_data_dir);
        // `--data-dir` may follow the subcommand, as in `backup FILE --data-dir DIR`.
        let c = Config::parse_from(["dominion-server", "backup", "b.sqlite3", "--data-dir", "d"]);
        assert_eq!(c.data_dir, PathBuf::from("d"));
        assert_eq!(
            c.command,
            Some(Tool::Backup {
                file: "b.sqlite3".into(),
                force: false
            })
        );
    }

    #[test]
    fn trusted_proxies_take_addresses_and_ranges_and_refuse_anything_else() {
        let c = Config::try_parse_from([
            "dominion-server",
            "--trusted-proxies",
            "127.0.0.1, 10.0.0.0/8,::1,fd00::/8,10.1.2.3/16,::ffff:192.0.2.7",
        ])
        .unwrap();
        let shown: Vec<String> = c.trusted_proxies.0.iter().map(|n| n.to_string()).collect();
        assert_eq!(
            shown,
            [
                "127.0.0.1/32",
                "10.0.0.0/8",
                "::1/128",
                "fd00::/8",
                "10.1.0.0/16",
                "192.0.2.7/32"
            ]
        );
        for bad in [
            "localhost",
            "10.0.0.0/33",
            "300.1.1.1",
            "10.0.0.1,",
            "fd00::/129",
            "10.0.0.0/8/8",
            "10.0.0.1,,10.0.0.2",
        ] {
            let flag = format!("--trusted-proxies={bad}");
            let err = Config::try_parse_from(["dominion-server", flag.as_str()])
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("--trusted-proxies") && err.contains("not an IP address"),
                "{bad}: {err}"
            );
        }
    }
}
