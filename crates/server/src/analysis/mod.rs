//! Game review: the Hard bot's opinion of each human player's decisions in an ended game
//! (`dominion_engine::review`), made in the background and stored once per game —
//! served by `GET /api/games/{id}/analysis` (`net::analysis_api`).
//!
//! **Flow.** The first request for an ended game puts it in the queue ([`queue`]: one
//! lane per requester — account, or client address for a guest — served round-robin,
//! at most `--analysis-queue` games waiting, beyond that 503 with `Retry-After`) and
//! answers 202. One of `--analysis-workers` threads of their own (never a runtime worker
//! or the bot thinkers; at the lowest scheduling priority, like the thinkers) takes it:
//! it claims the game's analysis in the store under a lease (`dominion_store::Analyses`:
//! on a cluster sharing PostgreSQL, only one node computes a game; another node asked
//! for it answers with the progress the holder stores), replays the record, lists the
//! decisions worth reviewing (`review::points`: the human seats' — seats without a bot
//! and not a bot account's — Action- and Buy-phase and searched card choices, each from
//! that player's own knowledge then) and evaluates them one by one
//! (`review::evaluate`: at most `--analysis-playouts` playouts and
//! `--analysis-budget-ms` per decision), storing each as it is made and extending the
//! lease with it. At the end the review is assembled, converted to the wire
//! (`convert::analysis`) and stored as the result, which every later request gets as
//! it is.
//!
//! **Restarts.** Each decision is evaluated from the review seed (the game's seed) and
//! its own index only, so a review interrupted anywhere — `kill -9` included — resumes
//! from its stored decisions and ends as a straight run would (exactly so when the
//! playout cap binds rather than the clock). At start-up every unfinished review of this
//! version is queued again; a single server claims under the fixed node name `local`,
//! so it takes its own interrupted reviews back at once; a cluster node under its node
//! name, so another node's review is resumed once that node's lease ran out
//! ([`LEASE_MS`]). A stored review of another `REVIEW_VERSION` is made again.
//!
//! **Abandoned games** are reviewed too, up to where they stopped: what was played is
//! as public as a finished game's record.

#[cfg(test)]
mod drop_tests;
pub mod queue;

use crate::config::Config;
use crate::convert;
use crate::gamelog::durable::DurableLog;
use crate::metrics::Metrics;
use dominion_engine::PlayerId;
use dominion_engine::bots::Thinking;
use dominion_engine::review::{self, DecisionReview, REVIEW_VERSION};
use dominion_store::{Analyses, AnalysisStatus, Claim, Database};
use queue::{FairQueue, Requester};
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};

/// How long a claim on a game's review lasts without a stored decision (each decision
/// renews it): a node that died is replaced this long after its last decision.
pub const LEASE_MS: i64 = 30_000;

/// What `Retry-After` says when the queue is full, in seconds.
pub const RETRY_AFTER_SECS: u64 = 30;

/// The answer to a request for a game's review.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// This server keeps no history.
    NoHistory,
    NoSuchGame,
    NotOver,
    /// `--analysis-workers 0`.
    Disabled,
    /// The queue holds `--analysis-queue` games.
    Full,
    Queued {
        position: u32,
    },
    Running {
        done: u32,
        total: u32,
    },
    /// The stored result, as JSON (a `GameAnalysis`).
    Ready(String),
    /// The game cannot be reviewed (its record does not replay).
    Failed(String),
    /// The store could not be read.
    Unreadable,
}

/// The settings of the pool (from `Config`).
#[derive(Clone, Debug)]
pub struct Settings {
    pub workers: usize,
    pub budget_ms: u64,
    pub playouts: u32,
    pub queue: usize,
}

impl Settings {
    pub fn of(config: &Config) -> Settings {
        Settings {
            workers: usize::from(config.analysis_workers),
            budget_ms: config.analysis_budget_ms,
            playouts: config.analysis_playouts,
            queue: config.analysis_queue as usize,
        }
    }
}

struct Shared {
    queue: FairQueue,
    /// Games being reviewed here: (decisions done, total).
    running: HashMap<String, (u32, u32)>,
}

/// The review service: queue, workers and the store's analyses.
pub struct Analysis {
    settings: Settings,
    /// The name this node claims reviews under.
    node: String,
    history: Option<Arc<DurableLog>>,
    store: Option<Mutex<Analyses>>,
    shared: Mutex<Shared>,
    wake: Condvar,
    /// The queue's and workers' figures for `/metrics`.
    metrics: Arc<Metrics>,
}

impl Drop for Analysis {
    /// The PostgreSQL client owns a small runtime of its own and panics when dropped on
    /// an async worker — where the last `Arc<Analysis>` goes, with the router, when a
    /// drained server stops (the chaos test's SIGTERM caught it: exit code 101). So the
    /// connection is closed on a plain thread of its own.
    fn drop(&mut self) {
        if let Some(store) = self.store.take() {
            let _ = std::thread::Builder::new()
                .name("analysis-close".into())
                .spawn(move || drop(store))
                .map(|t| t.join());
        }
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Analysis {
    /// Opens the store's analyses, starts the workers and queues every unfinished
    /// review again. Blocking (it connects to the database): call it off the runtime.
    /// `node`: the cluster node's name, None for a single server.
    pub fn start(
        config: &Config,
        database: &Database,
        history: Option<Arc<DurableLog>>,
        node: Option<&str>,
        metrics: Arc<Metrics>,
    ) -> Result<Arc<Analysis>, String> {
        let settings = Settings::of(config);
        let store = if settings.workers > 0 && history.is_some() {
            Some(Mutex::new(
                Analyses::open(database).map_err(|e| e.to_string())?,
            ))
        } else {
            None
        };
        let analysis = Arc::new(Analysis {
            node: node.unwrap_or("local").to_string(),
            history,
            store,
            shared: Mutex::new(Shared {
                queue: FairQueue::new(settings.queue.max(1)),
                running: HashMap::new(),
            }),
            wake: Condvar::new(),
            settings,
            metrics,
        });
        if analysis.store.is_none() {
            return Ok(analysis);
        }
        // Resume what a restart (or a node that died) interrupted.
        let unfinished = analysis
            .with_store(|s| s.unfinished(REVIEW_VERSION, analysis.settings.queue as u32))
            .unwrap_or_default();
        if !unfinished.is_empty() {
            tracing::info!(
                reviews = unfinished.len(),
                "resuming unfinished game reviews"
            );
        }
        {
            let mut shared = analysis.lock();
            for game in &unfinished {
                let _ = shared.queue.push(Requester::Server, game);
            }
            analysis.count(&shared);
        }
        for i in 0..analysis.settings.workers {
            let me = Arc::downgrade(&analysis);
            std::thread::Builder::new()
                .name(format!("analysis-{i}"))
                .spawn(move || {
                    crate::rooms::thinkers::lower_priority();
                    worker(&me);
                })
                .map_err(|e| format!("cannot start an analysis worker: {e}"))?;
        }
        Ok(analysis)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets the queue's gauges from `shared` (after each change, under its lock).
    fn count(&self, shared: &Shared) {
        self.metrics.analysis_queued.set(shared.queue.len() as i64);
        self.metrics
            .analysis_running
            .set(shared.running.len() as i64);
    }

    fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Analyses) -> dominion_store::Result<T>,
    ) -> Result<T, String> {
        let store = self.store.as_ref().ok_or("no analyses")?;
        let mut s = store.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut s).map_err(|e| e.to_string())
    }

    /// Whether reviews are made here at all.
    pub fn enabled(&self) -> bool {
        self.settings.workers > 0
    }

    /// `who` asks for `game`'s review: the result, or its progress (queuing it on the
    /// first request). Blocking: call it off the runtime.
    pub fn ask(&self, game: &str, who: Requester) -> Answer {
        let Some(history) = &self.history else {
            return Answer::NoHistory;
        };
        match history.game(game) {
            Ok(None) => return Answer::NoSuchGame,
            Ok(Some(row)) if row.finished_at.is_none() => return Answer::NotOver,
            Ok(Some(_)) => {}
            Err(e) => {
                tracing::error!(room = %game, "analysis: {e}");
                return Answer::Unreadable;
            }
        }
        if !self.enabled() {
            return Answer::Disabled;
        }
        {
            let shared = self.lock();
            if let Some(&(done, total)) = shared.running.get(game) {
                return Answer::Running { done, total };
            }
            if let Some(p) = shared.queue.position(game) {
                return Answer::Queued { position: p as u32 };
            }
        }
        let row = match self.with_store(|s| s.analysis(game)) {
            Ok(row) => row,
            Err(e) => {
                tracing::error!(room = %game, "analysis: {e}");
                return Answer::Unreadable;
            }
        };
        if let Some(row) = row.filter(|r| r.version == REVIEW_VERSION) {
            match row.status {
                AnalysisStatus::Done => return Answer::Ready(row.result.unwrap_or_default()),
                AnalysisStatus::Failed => return Answer::Failed(row.error.unwrap_or_default()),
                AnalysisStatus::Running => {
                    let held = row.lease_node.as_deref().is_some_and(|n| n != self.node)
                        && row.lease_until.is_some_and(|u| u > now_ms());
                    if held {
                        return Answer::Running {
                            done: row.done,
                            total: row.total.unwrap_or(0),
                        };
                    }
                }
            }
        }
        let mut shared = self.lock();
        if let Some(&(done, total)) = shared.running.get(game) {
            return Answer::Running { done, total };
        }
        match shared.queue.push(who, game) {
            Ok(position) => {
                self.count(&shared);
                drop(shared);
                self.wake.notify_one();
                Answer::Queued {
                    position: position as u32,
                }
            }
            Err(queue::Full) => Answer::Full,
        }
    }

    /// The thinking budget of one decision: the playout cap, and the clock's budget.
    fn thinking(&self) -> Thinking {
        let start = std::time::Instant::now();
        Thinking {
            max_playouts: self.settings.playouts,
            budget_us: self.settings.budget_ms.saturating_mul(1000),
            clock: Some(Arc::new(move || {
                u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
            })),
        }
    }

    fn progress(&self, game: &str, done: usize, total: usize) {
        self.lock()
            .running
            .insert(game.to_string(), (done as u32, total as u32));
    }

    /// Reviews `game` under this node's claim (nothing when another node holds it or
    /// it is over), resuming from its stored decisions.
    fn review(self: &Arc<Self>, game: &str) -> Result<(), String> {
        let claim =
            self.with_store(|s| s.claim(game, REVIEW_VERSION, &self.node, now_ms(), LEASE_MS))?;
        let Claim::Claimed(stored) = claim else {
            return Ok(());
        };
        let history = self.history.as_ref().ok_or("no history")?;
        let (row, seats) = history
            .game_and_seats(game)
            .map_err(|e| e.to_string())?
            .ok_or("the game is gone")?;
        let fail = |reason: String| {
            tracing::warn!(room = %game, %reason, "game cannot be reviewed");
            self.metrics.analysis_ended("failed");
            self.with_store(|s| s.finish(game, REVIEW_VERSION, &self.node, Err(&reason), now_ms()))
                .map(|_| ())
        };
        let record = match convert::record::decode(&row) {
            Ok(r) => r,
            Err(reason) => return fail(reason),
        };
        let reviewed: Vec<PlayerId> = seats
            .iter()
            .filter(|s| s.bot.is_none() && !s.account.is_some_and(|a| a.bot))
            .map(|s| PlayerId(s.seat))
            .collect();
        let names: Vec<(u8, String)> = seats.iter().map(|s| (s.seat, s.name.clone())).collect();
        let points = match review::points(&record, &reviewed) {
            Ok(p) => p,
            Err(e) => return fail(format!("the record does not replay: {e}")),
        };
        let wanted: HashSet<usize> = points.iter().map(|p| p.index).collect();
        let mut done: Vec<DecisionReview> = Vec::with_capacity(points.len());
        for (_, text) in &stored {
            // A stored decision that does not read is made again.
            if let Ok(d) = convert::analysis::decode_decision(text)
                && wanted.contains(&d.index)
            {
                done.push(d);
            }
        }
        let have: HashSet<usize> = done.iter().map(|d| d.index).collect();
        let total = points.len();
        self.progress(game, done.len(), total);
        let seed = record.seed;
        for p in points.iter().filter(|p| !have.contains(&p.index)) {
            // Only this worker holds the service: the server is gone (an in-process
            // server whose runtime ended). Give the claim up for whoever is next.
            if Arc::strong_count(self) <= 1 {
                let _ = self.with_store(|s| s.release(game, &self.node));
                self.metrics.analysis_ended("stopped");
                return Ok(());
            }
            let started = std::time::Instant::now();
            let d = review::evaluate(p, seed, &self.thinking());
            self.metrics
                .analysis_decision
                .observe(started.elapsed().as_secs_f64());
            let text = convert::analysis::encode_decision(&d);
            let kept = self.with_store(|s| {
                s.save_decision(
                    game,
                    REVIEW_VERSION,
                    &self.node,
                    p.index as u32,
                    &text,
                    total as u32,
                    now_ms(),
                    LEASE_MS,
                )
            })?;
            if !kept {
                tracing::warn!(room = %game, "another node took this game's review over");
                self.metrics.analysis_ended("stopped");
                return Ok(());
            }
            done.push(d);
            self.progress(game, done.len(), total);
        }
        let whole = review::assemble(&reviewed, done);
        let wire = convert::analysis::analysis(
            game,
            &whole,
            &names,
            self.settings.playouts,
            self.settings.budget_ms,
        );
        let text = serde_json::to_string(&wire).map_err(|e| e.to_string())?;
        self.with_store(|s| s.finish(game, REVIEW_VERSION, &self.node, Ok(&text), now_ms()))?;
        tracing::info!(room = %game, decisions = total, "game reviewed");
        self.metrics.analysis_ended("done");
        Ok(())
    }
}

/// A worker: takes the next game, reviews it, until the service is gone.
fn worker(me: &std::sync::Weak<Analysis>) {
    loop {
        let Some(analysis) = me.upgrade() else {
            return;
        };
        let game = {
            let mut shared = analysis.lock();
            loop {
                if let Some(game) = shared.queue.pop() {
                    shared.running.insert(game.clone(), (0, 0));
                    analysis.count(&shared);
                    break Some(game);
                }
                // Wakes now and then to notice the service is gone.
                let (guard, timeout) = analysis
                    .wake
                    .wait_timeout(shared, std::time::Duration::from_secs(1))
                    .unwrap_or_else(|p| p.into_inner());
                shared = guard;
                if timeout.timed_out() && shared.queue.is_empty() {
                    break None;
                }
            }
        };
        let Some(game) = game else {
            continue;
        };
        match catch_unwind(AssertUnwindSafe(|| analysis.review(&game))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::error!(room = %game, "game review stopped: {e}");
                analysis.metrics.analysis_ended("stopped");
            }
            Err(_) => {
                tracing::error!(room = %game, "game review failed (a panic)");
                analysis.metrics.analysis_ended("stopped");
            }
        }
        let mut shared = analysis.lock();
        shared.running.remove(&game);
        analysis.count(&shared);
    }
}
