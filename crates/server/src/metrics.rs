//! Prometheus metrics, served as text at `GET /metrics`.
//!
//! Handles are cheap clones of atomics, updated where things happen (connections, rooms,
//! the store); room counts by state are read from the hub at scrape time, so they can
//! never drift from the truth. Labels carry no room ids, names or tokens. Only counters,
//! gauges and histograms: never a rate computed at scrape time, which would depend on
//! who scrapes when (Prometheus computes rates from the counters).

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StateLabel {
    pub state: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabel {
    pub reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ResultLabel {
    pub result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BotLabel {
    pub bot: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

pub struct Metrics {
    registry: Registry,
    pub connections_open: Gauge,
    pub rooms: Family<StateLabel, Gauge>,
    pub games_started: Counter,
    pub games_finished: Counter,
    pub replies: Counter,
    pub replies_rejected: Counter,
    /// TCP connections accepted, and refused at `--max-connections`.
    pub connections_accepted: Counter,
    pub connections_refused: Counter,
    /// Frames and bytes written to WebSocket clients.
    pub frames_out: Counter,
    pub bytes_out: Counter,
    /// Rooms created, and `create_room` refused by the per-connection or per-address limit.
    pub rooms_created: Counter,
    pub rooms_refused: Counter,
    pub games_abandoned: Counter,
    /// Rooms this node took over from another (dead, draining) node.
    pub rooms_taken_over: Counter,
    /// Client connections linked to the node that runs their room.
    pub forwarded_links: Counter,
    /// From a reply's arrival at its room to its results queued for every viewer.
    pub reply_broadcast: Histogram,
    /// Connections closed by the server for a limit: `rate_limited`, `oversized`,
    /// `too_slow`, `idle`.
    pub closes: Family<ReasonLabel, Counter>,
    pub sqlite_write: Histogram,
    /// Time a server bot took to choose one reply, by level (`easy`, `standard`,
    /// `search`); the reference bots and `random` share the label `other`.
    pub bot_think: HistogramFamily<BotLabel>,
    /// Threads searching bots think on (`--bot-threads`), and how many are busy.
    pub bot_thinkers: Gauge,
    pub bot_thinkers_busy: Gauge,
    /// Decisions of searching bots answered by `standard` because no thinker was free.
    pub bot_decisions_downgraded: Counter,
    /// Game reviews (`analysis`): games waiting in the queue, and being reviewed now.
    pub analysis_queued: Gauge,
    pub analysis_running: Gauge,
    /// Reviewed decisions evaluated here, and the time each took.
    pub analysis_decision: Histogram,
    /// Game reviews ended here, by result: `done`, `failed` (the record does not replay),
    /// `stopped` (an error, a panic, or another node took it over).
    pub analysis_games: Family<ResultLabel, Counter>,
    /// 1 while each reply also updates the columns a node of an earlier release reads
    /// (`dominion_store::LegacyColumns`; a cluster turns it off once no such node is
    /// announced), else 0.
    pub store_legacy_columns: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("dominion");
        let connections_open = Gauge::default();
        registry.register(
            "connections_open",
            "Open WebSocket connections",
            connections_open.clone(),
        );
        let rooms = Family::<StateLabel, Gauge>::default();
        registry.register("rooms", "Rooms by state", rooms.clone());
        let games_started = Counter::default();
        registry.register("games_started", "Games started", games_started.clone());
        let games_finished = Counter::default();
        registry.register("games_finished", "Games finished", games_finished.clone());
        let replies = Counter::default();
        registry.register("replies", "Replies accepted by the engine", replies.clone());
        let replies_rejected = Counter::default();
        registry.register(
            "replies_rejected",
            "Replies refused (invalid, stale, out of turn)",
            replies_rejected.clone(),
        );
        // Counters only: a rate computed at scrape time would differ between scrapers
        // (each scrape reset it); Prometheus computes rates with rate().
        let counter = |registry: &mut Registry, name: &str, help: &str| {
            let c = Counter::default();
            registry.register(name, help, c.clone());
            c
        };
        let connections_accepted = counter(
            &mut registry,
            "connections_accepted",
            "TCP connections accepted",
        );
        let connections_refused = counter(
            &mut registry,
            "connections_refused",
            "TCP connections refused at --max-connections",
        );
        let frames_out = counter(
            &mut registry,
            "frames_out",
            "WebSocket text frames queued for clients",
        );
        let bytes_out = counter(
            &mut registry,
            "bytes_out",
            "Bytes of WebSocket text frames queued for clients",
        );
        let rooms_created = counter(&mut registry, "rooms_created", "Rooms created");
        let rooms_refused = counter(
            &mut registry,
            "rooms_refused",
            "create_room refused by a room limit (per connection, per address, --max-rooms)",
        );
        let games_abandoned = counter(
            &mut registry,
            "games_abandoned",
            "Games ended as abandoned (no player connected for --abandon-after)",
        );
        let rooms_taken_over = counter(
            &mut registry,
            "rooms_taken_over",
            "Rooms this node took over from another node (cluster)",
        );
        let forwarded_links = counter(
            &mut registry,
            "forwarded_links",
            "Client connections forwarded to the node that runs their room (cluster)",
        );
        // 50 µs .. ~0.8 s
        let reply_broadcast = Histogram::new(exponential_buckets(0.000_05, 2.0, 15));
        registry.register(
            "reply_broadcast_seconds",
            "Time from a reply reaching its room to its results queued for every viewer",
            reply_broadcast.clone(),
        );
        let closes = Family::<ReasonLabel, Counter>::default();
        registry.register(
            "closes",
            "Connections closed by the server for a limit",
            closes.clone(),
        );
        let sqlite_write = Histogram::new(exponential_buckets(0.000_05, 2.0, 15));
        registry.register(
            "sqlite_write_seconds",
            "Duration of one SQLite write transaction",
            sqlite_write.clone(),
        );
        // 20 µs .. ~1.3 s: the searching bot's default budget is 200 ms.
        let bot_think: HistogramFamily<BotLabel> =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.000_02, 2.0, 17)));
        registry.register(
            "bot_think_seconds",
            "Time a server bot took to choose one reply, by bot level",
            bot_think.clone(),
        );
        let bot_thinkers = Gauge::default();
        registry.register(
            "bot_thinkers",
            "Threads searching bots think on (--bot-threads)",
            bot_thinkers.clone(),
        );
        let bot_thinkers_busy = Gauge::default();
        registry.register(
            "bot_thinkers_busy",
            "Bot thinkers busy with a decision now",
            bot_thinkers_busy.clone(),
        );
        let bot_decisions_downgraded = counter(
            &mut registry,
            "bot_decisions_downgraded",
            "Decisions of searching bots answered by the standard bot: every thinker was busy",
        );
        let analysis_queued = Gauge::default();
        registry.register(
            "analysis_queued",
            "Game reviews waiting for an analysis worker",
            analysis_queued.clone(),
        );
        let analysis_running = Gauge::default();
        registry.register(
            "analysis_running",
            "Game reviews being made now",
            analysis_running.clone(),
        );
        // 1 ms .. ~65 s: a decision's default budget is 4000 playouts or 2 s.
        let analysis_decision = Histogram::new(exponential_buckets(0.001, 2.0, 17));
        registry.register(
            "analysis_decision_seconds",
            "Time one reviewed decision took to evaluate",
            analysis_decision.clone(),
        );
        let analysis_games = Family::<ResultLabel, Counter>::default();
        registry.register(
            "analysis_games",
            "Game reviews ended, by result (done, failed, stopped)",
            analysis_games.clone(),
        );
        let store_legacy_columns = Gauge::default();
        registry.register(
            "store_legacy_columns",
            "1 while replies also write the copies an earlier release reads (a rolling upgrade)",
            store_legacy_columns.clone(),
        );
        Metrics {
            registry,
            connections_open,
            rooms,
            games_started,
            games_finished,
            replies,
            replies_rejected,
            connections_accepted,
            connections_refused,
            frames_out,
            bytes_out,
            rooms_created,
            rooms_refused,
            games_abandoned,
            rooms_taken_over,
            forwarded_links,
            reply_broadcast,
            closes,
            sqlite_write,
            bot_think,
            bot_thinkers,
            bot_thinkers_busy,
            bot_decisions_downgraded,
            analysis_queued,
            analysis_running,
            analysis_decision,
            analysis_games,
            store_legacy_columns,
        }
    }

    /// Counts one game review ended with `result` (`done`, `failed`, `stopped`).
    pub fn analysis_ended(&self, result: &'static str) {
        self.analysis_games
            .get_or_create(&ResultLabel { result })
            .inc();
    }

    /// Records one bot decision that took `seconds`.
    pub fn bot_thought(&self, bot: &str, seconds: f64) {
        let bot = dominion_engine::bots::LEVELS
            .iter()
            .find(|l| **l == bot)
            .copied()
            .unwrap_or("other");
        self.bot_think
            .get_or_create(&BotLabel { bot })
            .observe(seconds);
    }

    pub fn close(&self, reason: &'static str) {
        self.closes.get_or_create(&ReasonLabel { reason }).inc();
    }

    /// The text exposition, with room counts as given. Rendering changes nothing else, so
    /// any number of scrapers read the same values.
    pub fn render(&self, rooms_by_state: &[(&'static str, i64)]) -> String {
        for (state, n) in rooms_by_state {
            self.rooms.get_or_create(&StateLabel { state }).set(*n);
        }
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_metric_in_text_format() {
        let m = Metrics::new();
        m.replies.inc();
        m.close("rate_limited");
        m.sqlite_write.observe(0.001);
        m.bot_thought("search", 0.15);
        m.bot_thought("big_money", 0.000_01);
        m.analysis_ended("done");
        m.analysis_decision.observe(0.2);
        let text = m.render(&[("lobby", 2), ("playing", 1)]);
        for name in [
            "dominion_connections_open",
            "dominion_rooms{state=\"lobby\"} 2",
            "dominion_games_started_total",
            "dominion_games_finished_total",
            "dominion_replies_total 1",
            "dominion_replies_rejected_total",
            "dominion_connections_accepted_total",
            "dominion_connections_refused_total",
            "dominion_frames_out_total",
            "dominion_bytes_out_total",
            "dominion_rooms_created_total",
            "dominion_rooms_refused_total",
            "dominion_games_abandoned_total",
            "dominion_reply_broadcast_seconds_bucket",
            "dominion_closes_total{reason=\"rate_limited\"} 1",
            "dominion_sqlite_write_seconds_count 1",
            "dominion_bot_think_seconds_count{bot=\"search\"} 1",
            "dominion_bot_think_seconds_bucket{le=\"0.16384\",bot=\"search\"} 1",
            "dominion_bot_think_seconds_count{bot=\"other\"} 1",
            "dominion_bot_thinkers 0",
            "dominion_bot_thinkers_busy 0",
            "dominion_bot_decisions_downgraded_total 0",
            "dominion_analysis_queued 0",
            "dominion_analysis_running 0",
            "dominion_analysis_decision_seconds_count 1",
            "dominion_analysis_games_total{result=\"done\"} 1",
        ] {
            assert!(text.contains(name), "{name} missing from:\n{text}");
        }
        assert!(text.ends_with("# EOF\n"));
    }
}
