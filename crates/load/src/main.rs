//! `dominion-load`: loads a dominion-server on this machine and says how it held up.
//!
//! `play` runs rooms of socket players answering at machine speed and prints
//! decisions/s, the reply → next-decision latency and (with `--pid`) the server's CPU
//! time per decision and memory — of one server, or of a cluster's nodes (`--addr` as a
//! list; `--players-via other` puts every room's players behind the cluster's
//! forwarding); `idle` holds many greeted connections and prints the
//! server's memory per connection; `bots` opens many rooms of server bots and measures
//! what a separate human and `/healthz` see meanwhile. Loopback only, and bounded in
//! count and time.
//! docs/load.md says how to run it ("Running it") and holds the figures.

mod automatch;
mod bots;
mod idle;
mod play;
mod policy;
mod procfs;
mod stats;
mod target;
mod wire;

use clap::{Args, Parser, Subcommand};
use play::Via;
use std::process::ExitCode;
use std::time::Duration;

/// Most rooms in one play run.
const MAX_ROOMS: usize = 2_000;
/// Most connections in one idle run (the kernel's ephemeral ports to one address, about
/// 28,000 by default, are the next bound).
const MAX_CONNECTIONS: usize = 30_000;
/// Longest run or hold.
const MAX_TIME: Duration = Duration::from_secs(600);
/// The longest `--think`: longer pauses measure nothing a shorter run would not.
const MAX_THINK: Duration = Duration::from_secs(10);
/// Most games per room.
const MAX_GAMES: u32 = 10_000;
/// Most nodes of a cluster in one play run.
const MAX_NODES: usize = 16;

#[derive(Parser, Debug)]
#[command(
    name = "dominion-load",
    version,
    about = "Load a dominion-server on this machine (loopback only) and measure it.",
    after_help = "Start the server with a message budget the clients cannot reach \
                  (--rate-messages 1000000 --rate-window 1s), room and connection limits \
                  above the run (--max-rooms, --max-connections, --connections-per-address: \
                  every client is 127.0.0.1) and enough open files, \
                  then pass its --pid for CPU and memory figures. See docs/load.md."
)]
struct Cli {
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// Rooms of socket players answering every decision at once; prints decisions/s,
    /// reply → next-decision latency and the server's CPU and memory.
    Play(PlayArgs),
    /// Many greeted, idle connections; prints the server's memory per connection.
    Idle(IdleArgs),
    /// Many rooms of server bots (five `search` bots and a player who stays or leaves);
    /// prints what a separate human's replies and /healthz took meanwhile.
    Bots(BotsArgs),
    /// Many signed-in clients ask for a match at once and accept what they are
    /// proposed; prints matches/s and find_match → match_found latency.
    Automatch(AutomatchArgs),
}

#[derive(Args, Debug)]
struct AutomatchArgs {
    #[command(flatten)]
    common: Common,
    /// The server, HOST:PORT; must be a loopback address. Several, comma-separated (the
    /// nodes of a cluster): client i signs up and plays at the i-th modulo their number.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Clients (accounts) queued at once.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=MAX_MATCH_CLIENTS as u64))]
    clients: u64,
    /// The pool: 2p, 3-4p or practice.
    #[arg(long, default_value = "2p", value_parser = parse_pool)]
    pool: dominion_protocol::MatchPool,
    /// Account names are PREFIX0, PREFIX1, …: made with POST /api/accounts, or signed
    /// in when a previous run made them.
    #[arg(long, default_value = "load")]
    prefix: String,
    /// Registrations (password hashes) in flight at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    register_concurrency: u64,
    /// How long a client waits for match_found (at most 10m).
    #[arg(long, default_value = "120s", value_parser = parse_duration)]
    timeout: Duration,
}

/// Most clients in one automatch run.
const MAX_MATCH_CLIENTS: usize = 20_000;

fn parse_pool(text: &str) -> Result<dominion_protocol::MatchPool, String> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| format!("{text:?}: expected 2p, 3-4p or practice"))
}

#[derive(Args, Debug)]
struct Common {
    /// Print the summary as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads of this tool (1: it takes at most one core from the server).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    common: Common,
    /// The server, HOST:PORT, or the nodes of a cluster as a comma-separated list (at
    /// most 16); each must be a loopback address. Room i is created through node i mod n.
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_nodes)]
    addr: Nodes,
    /// The servers' process ids, one per node in --addr's order: their CPU time and
    /// memory are read from /proc, per node and summed (a pid named twice counts once).
    #[arg(long, value_parser = parse_pids)]
    pid: Option<Pids>,
    /// Where a room's players connect: to the node that runs the room (`owner`), or to
    /// the next node in --addr (`other`), so every command and every frame crosses the
    /// cluster's forwarding between nodes.
    #[arg(long, value_enum, default_value_t = Via::Owner)]
    players_via: Via,
    /// Rooms playing at once.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=MAX_ROOMS as u64))]
    rooms: u64,
    /// Socket players per room.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    seats: u8,
    /// Stop after this long (e.g. 20s); at most 10m. Default 20s unless --games is given.
    #[arg(long, value_parser = parse_duration)]
    duration: Option<Duration>,
    /// Stop each room after this many games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES as i64))]
    games: Option<u32>,
    /// The recommended kingdom the rooms play (GET /api/kingdoms).
    #[arg(long, default_value = "base_2e/first_game")]
    kingdom: String,
    /// A room that hears nothing for this long has failed.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    stall: Duration,
    /// How long a player waits before answering each decision (e.g. 40ms; at most 10s).
    /// 0 answers at once, so the rooms together go as fast as the server lets them and
    /// the latency is mostly queueing; a pause sets the offered rate instead (at most
    /// rooms / pause decisions per second), which is how players load a real server.
    #[arg(long, default_value = "0ms", value_parser = parse_duration)]
    think: Duration,
}

#[derive(Args, Debug)]
struct IdleArgs {
    #[command(flatten)]
    common: Common,
    /// The server, HOST:PORT; must be a loopback address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The server's process id: its CPU time and memory are read from /proc.
    #[arg(long)]
    pid: Option<u32>,
    /// Connections to open, greet and hold.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_CONNECTIONS as u64))]
    connections: u64,
    /// How long to hold them once all are greeted, before reading the server's memory.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    hold: Duration,
}

#[derive(Args, Debug)]
struct BotsArgs {
    #[command(flatten)]
    common: Common,
    /// The server, HOST:PORT; must be a loopback address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The server's process id: its CPU time and memory are read from /proc.
    #[arg(long)]
    pid: Option<u32>,
    /// Rooms of bots (0: measure the baseline, no bots).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=MAX_ROOMS as u64))]
    rooms: u64,
    /// The bot in every bot seat (GET /api/bots).
    #[arg(long, default_value = "search")]
    bot: String,
    /// Bot seats per room, beside the one player.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
    bots_per_room: u8,
    /// What each bot room's player does once its game has started.
    #[arg(long, value_enum, default_value_t = bots::Human::Stays)]
    human: bots::Human,
    /// Source addresses the bot rooms' connections come from, 127.0.1.1 on (room i
    /// from the (i mod N)th), so that per-address limits see N clients.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=250))]
    sources: u8,
    /// The recommended kingdom every room plays (GET /api/kingdoms).
    #[arg(long, default_value = "base_2e/first_game")]
    kingdom: String,
    /// How long the bots play before the measurement starts.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    warmup: Duration,
    /// How long the measurement lasts (at most 10m).
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    duration: Duration,
    /// Measured rooms of two socket players, apart from the bot rooms.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=100))]
    measure_rooms: u64,
    /// The measured players' pause before each answer (a human's pace; at most 10s).
    #[arg(long, default_value = "50ms", value_parser = parse_duration)]
    think: Duration,
    /// How often /healthz is asked during the measurement (at least 10ms).
    #[arg(long, default_value = "50ms", value_parser = parse_duration)]
    healthz_every: Duration,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let common = match &cli.mode {
        Mode::Play(a) => &a.common,
        Mode::Idle(a) => &a.common,
        Mode::Bots(a) => &a.common,
        Mode::Automatch(a) => &a.common,
    };
    let runtime = if common.threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(usize::from(common.threads))
            .enable_all()
            .build()
    };
    let runtime = match runtime {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("dominion-load: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        match cli.mode {
            Mode::Play(args) => play(args).await,
            Mode::Idle(args) => idle(args).await,
            Mode::Bots(args) => bots(args).await,
            Mode::Automatch(args) => automatch(args).await,
        }
    })
}

/// Exit status 2: the run was refused before it began (an address that is not
/// loopback, a bound exceeded, a limit that cannot be raised).
fn refused(message: &str) -> ExitCode {
    eprintln!("dominion-load: {message}");
    ExitCode::from(2)
}

async fn play(args: PlayArgs) -> ExitCode {
    if let Err(e) = check_cluster(&args) {
        return refused(&e);
    }
    let mut nodes = Vec::with_capacity(args.addr.0.len());
    for addr in &args.addr.0 {
        match target::loopback(addr).await {
            Ok(addr) => nodes.push(addr),
            Err(e) => return refused(&e),
        }
    }
    let duration = match (args.duration, args.games) {
        (None, None) => Some(Duration::from_secs(20)),
        (d, _) => d,
    };
    if duration.is_some_and(|d| d > MAX_TIME || d.is_zero()) || args.stall > MAX_TIME {
        return refused("--duration and --stall must be above 0 and at most 10m");
    }
    if args.think > MAX_THINK {
        return refused("--think must be at most 10s");
    }
    let plan = play::Plan {
        nodes,
        players_via: args.players_via,
        rooms: args.rooms as usize,
        seats: args.seats,
        duration,
        games: args.games,
        kingdom: args.kingdom,
        pids: args.pid.map(|p| p.0).unwrap_or_default(),
        stall: args.stall,
        think: args.think,
    };
    finish(play::run(plan).await, args.common.json, print_play, |s| {
        s.rooms_failed > 0 || s.decisions == 0
    })
}

async fn idle(args: IdleArgs) -> ExitCode {
    let addr = match target::loopback(&args.addr).await {
        Ok(addr) => addr,
        Err(e) => return refused(&e),
    };
    if args.hold > MAX_TIME {
        return refused("--hold must be at most 10m");
    }
    let plan = idle::Plan {
        addr,
        connections: args.connections as usize,
        hold: args.hold,
        pid: args.pid,
    };
    finish(idle::run(plan).await, args.common.json, print_idle, |s| {
        s.greeted < s.requested || s.dropped > 0
    })
}

async fn bots(args: BotsArgs) -> ExitCode {
    let addr = match target::loopback(&args.addr).await {
        Ok(addr) => addr,
        Err(e) => return refused(&e),
    };
    if args.duration > MAX_TIME || args.duration.is_zero() || args.warmup > MAX_TIME {
        return refused("--duration must be above 0 and at most 10m, --warmup at most 10m");
    }
    if args.think > MAX_THINK {
        return refused("--think must be at most 10s");
    }
    if args.healthz_every < Duration::from_millis(10) {
        return refused("--healthz-every must be at least 10ms");
    }
    let plan = bots::Plan {
        addr,
        rooms: args.rooms as usize,
        bot: args.bot,
        bots_per_room: args.bots_per_room,
        human: args.human,
        sources: args.sources,
        kingdom: args.kingdom,
        warmup: args.warmup,
        duration: args.duration,
        measure_rooms: args.measure_rooms as usize,
        think: args.think,
        healthz_every: args.healthz_every,
        pid: args.pid,
    };
    finish(bots::run(plan).await, args.common.json, print_bots, |s| {
        s.measured.rooms_failed > 0 || s.measured.decisions == 0 || s.healthz.failed > 0
    })
}

async fn automatch(args: AutomatchArgs) -> ExitCode {
    let mut addrs = Vec::new();
    for one in args.addr.split(',').filter(|a| !a.trim().is_empty()) {
        match target::loopback(one.trim()).await {
            Ok(addr) => addrs.push(addr),
            Err(e) => return refused(&e),
        }
    }
    if addrs.is_empty() {
        return refused("--addr: name at least one server");
    }
    if args.timeout > MAX_TIME || args.timeout.is_zero() {
        return refused("--timeout must be above 0 and at most 10m");
    }
    if args.pool == dominion_protocol::MatchPool::Bots {
        return refused("--pool bots needs bot accounts; use 2p, 3-4p or practice");
    }
    let plan = automatch::Plan {
        addrs,
        clients: args.clients as usize,
        pool: args.pool,
        prefix: args.prefix,
        register_concurrency: args.register_concurrency as usize,
        timeout: args.timeout,
    };
    finish(
        automatch::run(plan).await,
        args.common.json,
        print_automatch,
        |s| s.matched == 0 || !s.failures.is_empty(),
    )
}

/// The end of a run: its summary as JSON or as text, and failure when the run could not
/// be made or `failed` says its figures do not hold.
fn finish<S: serde::Serialize, E: std::fmt::Display>(
    run: Result<S, E>,
    json: bool,
    print: fn(&S),
    failed: fn(&S) -> bool,
) -> ExitCode {
    let summary = match run {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dominion-load: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).expect("plain data")
        );
    } else {
        print(&summary);
    }
    if failed(&summary) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn print_automatch(s: &automatch::Summary) {
    let l = &s.find_to_found;
    println!(
        "automatch: {} clients in pool {} on {}; {} signed in ({:.1} s), {} greeted",
        s.clients, s.pool, s.target, s.signed_in, s.sign_in_s, s.greeted
    );
    println!(
        "  {} matched into {} rooms in {:.2} s: {:.0} matches/s; {} requeues",
        s.matched, s.matches, s.match_s, s.matches_per_s, s.requeued
    );
    println!(
        "  find_match → match_found: p50 {}  p90 {}  p99 {}  max {}",
        stats::ms(l.p50_us),
        stats::ms(l.p90_us),
        stats::ms(l.p99_us),
        stats::ms(l.max_us)
    );
    for (reason, n) in &s.failures {
        println!("    {n} × {reason}");
    }
}

fn print_bots(s: &bots::Summary) {
    println!(
        "bots: {} rooms of 1 player ({}) + {} × {} on {}, from {} source address(es); {} started, {} failed",
        s.bot_rooms,
        match s.human {
            bots::Human::Stays => "stays",
            bots::Human::Leaves => "leaves",
        },
        s.bots_per_room,
        s.bot,
        s.target,
        s.sources,
        s.bot_rooms_started,
        s.bot_rooms_failed
    );
    for (reason, n) in &s.bot_failures {
        println!("    {n} × {reason}");
    }
    println!(
        "  bot rooms: {} decisions answered by their players, {} games over (whole run, {:.0} s warm-up included)",
        s.bot_room_decisions, s.bot_games_over, s.warmup_s
    );
    let h = &s.healthz;
    println!(
        "  /healthz every {} ms: {} asked, {} failed; p50 {}  p90 {}  p99 {}  max {}",
        h.every_ms,
        h.asked,
        h.failed,
        stats::ms(h.latency.p50_us),
        stats::ms(h.latency.p90_us),
        stats::ms(h.latency.p99_us),
        stats::ms(h.latency.max_us)
    );
    println!("  measured humans:");
    print_play(&s.measured);
}

fn load(l: Option<[f64; 3]>) -> String {
    l.map_or("unknown".into(), |[a, b, c]| {
        format!("{a:.2} {b:.2} {c:.2}")
    })
}

fn print_play(s: &play::Summary) {
    let l = &s.reply_to_next_decision;
    println!(
        "play: {} rooms × {} socket players on {} ({}), {:.1} s, {}",
        s.rooms,
        s.seats,
        s.target,
        s.kingdom,
        s.elapsed_s,
        if s.think_ms > 0.0 {
            format!("each answer after a {} ms pause", s.think_ms)
        } else {
            "answering at once".to_string()
        }
    );
    if s.nodes.len() > 1 {
        let n = s.nodes.len();
        let (mode, players) = match s.players_via {
            Via::Owner => ("owner", "its players connect to it".to_string()),
            Via::Other => (
                "other",
                format!("its players connect to node (i+1) mod {n}, which forwards"),
            ),
        };
        println!(
            "  {n} nodes, players via {mode}: room i runs on node i mod {n}, {players}; {} connections",
            s.connections
        );
    }
    println!(
        "  games {}  decisions {}  → {:.0} decisions/s",
        s.games, s.decisions, s.decisions_per_s
    );
    println!(
        "  reply → next decision ({} samples): p50 {}  p90 {}  p99 {}  max {}  mean {}",
        l.samples,
        stats::ms(l.p50_us),
        stats::ms(l.p90_us),
        stats::ms(l.p99_us),
        stats::ms(l.max_us),
        stats::ms(l.mean_us)
    );
    match &s.server {
        Some(u) if s.server_nodes.len() > 1 => {
            println!(
                "  servers, summed over {} nodes: {}",
                s.server_nodes.len(),
                usage(u)
            );
            for n in &s.server_nodes {
                println!(
                    "    node {} (pid {}): {}",
                    n.node,
                    n.usage.pid.unwrap_or_default(),
                    usage(&n.usage)
                );
            }
        }
        Some(u) => println!("  server (pid {}): {}", u.pid.unwrap_or_default(), usage(u)),
        None => println!("  server: pass --pid for its CPU time and memory"),
    }
    println!(
        "  this tool: CPU {:.2} s = {:.2} cores; RSS {} kB",
        s.client.cpu_s, s.client.cpu_cores, s.client.after.rss_kb
    );
    if let Some(b) = &s.server_budget {
        println!(
            "  server's budget per connection: {} frames per {} ms",
            b.rate_messages, b.rate_window_ms
        );
    }
    println!(
        "  load average: {} before, {} after",
        load(s.load_average_before),
        load(s.load_average_after)
    );
    if s.rooms_failed > 0 {
        println!("  FAILED rooms: {}", s.rooms_failed);
        for (reason, n) in &s.failures {
            println!("    {n} × {reason}");
        }
    }
}

/// A server's CPU time and memory over a play run, in words.
fn usage(u: &play::Usage) -> String {
    format!(
        "CPU {:.2} s = {:.2} cores, {} per decision; RSS {} → {} kB (peak {} kB)",
        u.cpu_s,
        u.cpu_cores,
        u.cpu_us_per_decision
            .map_or("-".into(), |us| format!("{us:.1} µs")),
        u.before.rss_kb,
        u.after.rss_kb,
        u.after.peak_rss_kb
    )
}

fn print_idle(s: &idle::Summary) {
    println!(
        "idle: {} of {} connections greeted on {} in {:.1} s, held {:.1} s; {} dropped",
        s.greeted, s.requested, s.target, s.connect_s, s.hold_s, s.dropped
    );
    match &s.server {
        Some(m) => println!(
            "  server (pid {}): RSS {} → {} kB = {} per connection; CPU during the hold {:.2} s",
            m.pid.unwrap_or_default(),
            m.before.rss_kb,
            m.after.rss_kb,
            m.kb_per_connection
                .map_or("-".into(), |kb| format!("{kb:.1} kB")),
            m.hold_cpu_s
        ),
        None => println!("  server: pass --pid for its memory per connection"),
    }
    println!(
        "  this tool: RSS {} → {} kB",
        s.client.before.rss_kb, s.client.after.rss_kb
    );
    println!("  load average: {}", load(s.load_average));
    if s.failed > 0 {
        println!("  FAILED connections: {}", s.failed);
        for (reason, n) in &s.failures {
            println!("    {n} × {reason}");
        }
    }
}

/// The nodes `play` loads, in `--addr`'s order (not yet resolved: that is
/// [`target::loopback`]'s job, after the command line is whole).
#[derive(Clone, Debug, PartialEq)]
struct Nodes(Vec<String>);

/// The nodes' process ids, in `--addr`'s order.
#[derive(Clone, Debug, PartialEq)]
struct Pids(Vec<u32>);

/// Splits a comma-separated list of 1 to [`MAX_NODES`] non-empty items.
fn list(text: &str, what: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = text.split(',').map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(format!("{text:?} has an empty {what} (a stray comma?)"));
    }
    if items.len() > MAX_NODES {
        return Err(format!(
            "{} items given; at most {MAX_NODES} (one per node)",
            items.len()
        ));
    }
    Ok(items)
}

/// Parses `HOST:PORT[,HOST:PORT…]`.
fn parse_nodes(text: &str) -> Result<Nodes, String> {
    list(text, "address").map(Nodes)
}

/// Parses `PID[,PID…]`.
fn parse_pids(text: &str) -> Result<Pids, String> {
    list(text, "pid")?
        .iter()
        .map(|p| {
            p.parse::<u32>()
                .map_err(|_| format!("{p:?} is not a process id"))
        })
        .collect::<Result<_, _>>()
        .map(Pids)
}

/// What clap cannot check alone: the options of a cluster run that must agree.
fn check_cluster(args: &PlayArgs) -> Result<(), String> {
    let nodes = args.addr.0.len();
    if args.players_via == Via::Other && nodes < 2 {
        return Err(
            "--players-via other needs at least two nodes in --addr (the players connect \
             to the node after the room's)"
                .into(),
        );
    }
    if let Some(Pids(pids)) = &args.pid
        && pids.len() != nodes
    {
        return Err(format!(
            "--pid names {} process(es) but --addr {} node(s): give one pid per node, in the same order",
            pids.len(),
            nodes
        ));
    }
    Ok(())
}

/// Parses `250ms`, `20s`, `10m` or a plain number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (try 500ms, 20s, 2m)"))?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" => value * 60.0,
        other => return Err(format!("unknown duration unit {other:?} (use ms, s or m)")),
    };
    if !seconds.is_finite() || !(0.0..=1e6).contains(&seconds) {
        return Err(format!("{text:?} is out of range"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bounds_are_enforced_by_the_parser() {
        assert!(Cli::try_parse_from(["dominion-load", "play", "--rooms", "2001"]).is_err());
        assert!(Cli::try_parse_from(["dominion-load", "play", "--rooms", "0"]).is_err());
        assert!(Cli::try_parse_from(["dominion-load", "play", "--seats", "7"]).is_err());
        let Mode::Play(a) = Cli::try_parse_from(["dominion-load", "play", "--think", "40ms"])
            .unwrap()
            .mode
        else {
            panic!("play")
        };
        assert_eq!(a.think, Duration::from_millis(40));
        assert!(Cli::try_parse_from(["dominion-load", "idle", "--connections", "30001"]).is_err());
        assert!(Cli::try_parse_from(["dominion-load", "idle", "--connections", "30000"]).is_ok());
        assert!(
            Cli::try_parse_from(["dominion-load", "play", "--rooms", "200", "--games", "3"])
                .is_ok()
        );
        let bots = |args: &[&str]| {
            let mut argv = vec!["dominion-load", "bots"];
            argv.extend_from_slice(args);
            Cli::try_parse_from(argv)
        };
        let Mode::Bots(b) = bots(&[]).unwrap().mode else {
            panic!("bots")
        };
        assert_eq!((b.rooms, b.bots_per_room, b.sources), (100, 5, 1));
        assert_eq!((b.bot.as_str(), b.human), ("search", bots::Human::Stays));
        assert!(bots(&["--rooms", "0", "--human", "leaves"]).is_ok());
        assert!(bots(&["--rooms", "2001"]).is_err());
        assert!(bots(&["--bots-per-room", "6"]).is_err());
        assert!(bots(&["--bots-per-room", "0"]).is_err());
        assert!(bots(&["--sources", "0"]).is_err());
        assert!(bots(&["--sources", "251"]).is_err());
        assert!(bots(&["--human", "wanders"]).is_err());
    }

    #[test]
    fn automatch_takes_a_pool_and_bounded_clients() {
        let parse = |args: &[&str]| {
            let mut argv = vec!["dominion-load", "automatch"];
            argv.extend_from_slice(args);
            Cli::try_parse_from(argv).map(|c| match c.mode {
                Mode::Automatch(a) => a,
                _ => panic!("automatch"),
            })
        };
        let a = parse(&[]).unwrap();
        assert_eq!(
            (a.clients, a.pool),
            (200, dominion_protocol::MatchPool::TwoPlayers)
        );
        let a = parse(&["--pool", "3-4p", "--clients", "2000"]).unwrap();
        assert_eq!(a.pool, dominion_protocol::MatchPool::ThreeFourPlayers);
        assert!(parse(&["--pool", "5p"]).is_err());
        assert!(parse(&["--clients", "1"]).is_err());
        assert!(parse(&["--clients", "20001"]).is_err());
    }

    fn play_args(args: &[&str]) -> Result<PlayArgs, clap::Error> {
        let mut argv = vec!["dominion-load", "play"];
        argv.extend_from_slice(args);
        match Cli::try_parse_from(argv)?.mode {
            Mode::Play(a) => Ok(a),
            Mode::Idle(_) | Mode::Bots(_) | Mode::Automatch(_) => panic!("play"),
        }
    }

    #[test]
    fn addr_takes_one_server_or_a_list_of_nodes() {
        let a = play_args(&[]).unwrap();
        assert_eq!(a.addr, Nodes(vec!["127.0.0.1:8080".into()]));
        assert_eq!(a.players_via, Via::Owner);
        assert_eq!(a.pid, None);
        let a = play_args(&[
            "--addr",
            "127.0.0.1:7001, 127.0.0.1:7002,localhost:7003",
            "--pid",
            "11,12,13",
            "--players-via",
            "other",
        ])
        .unwrap();
        assert_eq!(
            a.addr,
            Nodes(vec![
                "127.0.0.1:7001".into(),
                "127.0.0.1:7002".into(),
                "localhost:7003".into()
            ])
        );
        assert_eq!(a.pid, Some(Pids(vec![11, 12, 13])));
        assert_eq!(a.players_via, Via::Other);
        assert_eq!(check_cluster(&a), Ok(()));
        // The same node twice is a list of two (it exercises the path, without forwarding).
        let a = play_args(&[
            "--addr",
            "127.0.0.1:7001,127.0.0.1:7001",
            "--players-via",
            "other",
        ])
        .unwrap();
        assert_eq!(check_cluster(&a), Ok(()));
    }

    #[test]
    fn node_lists_are_bounded_and_well_formed() {
        let nodes = |n: usize| {
            (0..n)
                .map(|i| format!("127.0.0.1:{}", 7000 + i))
                .collect::<Vec<_>>()
                .join(",")
        };
        assert_eq!(play_args(&["--addr", &nodes(16)]).unwrap().addr.0.len(), 16);
        let err = play_args(&["--addr", &nodes(17)]).unwrap_err().to_string();
        assert!(err.contains("17 items given; at most 16"), "{err}");
        for bad in [
            "127.0.0.1:1,",
            ",127.0.0.1:1",
            "127.0.0.1:1,,127.0.0.1:2",
            "",
        ] {
            let err = play_args(&["--addr", bad]).unwrap_err().to_string();
            assert!(err.contains("empty address"), "{bad:?}: {err}");
        }
        let pids = (1..=17)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",");
        assert!(play_args(&["--pid", &pids]).is_err());
        let err = play_args(&["--pid", "12,x"]).unwrap_err().to_string();
        assert!(err.contains("\"x\" is not a process id"), "{err}");
        assert!(play_args(&["--pid", "-1"]).is_err());
        assert!(play_args(&["--players-via", "elsewhere"]).is_err());
        // Idle loads one server: its --addr and --pid stay single.
        assert!(Cli::try_parse_from(["dominion-load", "idle", "--pid", "1,2"]).is_err());
    }

    #[test]
    fn cluster_options_must_agree() {
        let a = play_args(&["--players-via", "other"]).unwrap();
        let err = check_cluster(&a).unwrap_err();
        assert!(
            err.contains("--players-via other needs at least two nodes"),
            "{err}"
        );
        let a = play_args(&["--addr", "127.0.0.1:1,127.0.0.1:2", "--pid", "5"]).unwrap();
        let err = check_cluster(&a).unwrap_err();
        assert!(
            err.contains("--pid names 1 process(es) but --addr 2 node(s)"),
            "{err}"
        );
        let a = play_args(&["--addr", "127.0.0.1:1,127.0.0.1:2", "--pid", "5,6"]).unwrap();
        assert_eq!(check_cluster(&a), Ok(()));
        assert_eq!(check_cluster(&play_args(&["--pid", "5"]).unwrap()), Ok(()));
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("20"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("1h").is_err());
    }
}
