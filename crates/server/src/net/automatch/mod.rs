//! The automatch service (docs/protocol.md, "Automatch"): a task that owns the queue
//! (`crate::matchmaking::queue::Matcher`, pure logic), hears the connections'
//! `find_match`, `cancel_match`, `accept_match`, `decline_match` and their
//! disconnects, ticks the queue every [`TICK`], tells players what the queue decided,
//! and makes the room of an accepted match (`room`; a bot ladder game against one of our
//! bots: `house`).
//!
//! Connections reach the service through [`Automatch`], a channel that never blocks them
//! (unbounded: one message per command, and commands are rate limited per connection).
//! Every reply goes to the connection's own outbound queue ([`Peer::send`]), so the
//! service never waits for a client.
//!
//! On one node the service runs here, in memory. In a cluster (`cluster`) every node's
//! requests go to one queue in Redis, and the same [`Service`] runs on whichever node
//! leads, its answers sent to the node holding each connection: players of every node
//! are matched with each other, each match exactly once.

mod cluster;
mod house;
mod peer;
mod room;

pub use peer::Peer;

use crate::accounts::{Accounts, SignedIn};
use crate::convert::refusal::Refusal;
use crate::matchmaking::estimate::Estimates;
use crate::matchmaking::queue::{Effect, Entry, Matcher, Millis, Settings};
use crate::matchmaking::shared::SharedQueue;
use crate::rooms::hub::Hub;
use dominion_protocol::{
    CardSet, Edition, ErrorCode, MatchCancelReason, MatchOpponent, MatchPool, ServerMessage,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// How often the queue is looked at for new matches and expired proposals.
pub const TICK: Duration = Duration::from_millis(100);
/// How often a queued player hears `match_queued` again.
pub const STATUS_EVERY: Millis = 5_000;

/// What a connection asks of the service.
pub enum Request {
    Find {
        conn: Peer,
        who: Box<SignedIn>,
        level: f64,
        blocks: Vec<String>,
        pool: MatchPool,
        edition: Option<Edition>,
        sets: Option<Vec<CardSet>>,
    },
    Cancel {
        conn: Peer,
        re: u64,
    },
    Accept {
        conn: Peer,
        re: u64,
        id: String,
    },
    Decline {
        conn: Peer,
        re: u64,
        id: String,
    },
    /// The connection closed: out of the queue and of any proposal.
    Gone {
        conn: u64,
    },
    /// A match whose room could not be made: its players go back to the front.
    Requeue {
        players: Vec<(Entry, Peer, Box<SignedIn>)>,
    },
}

/// The handle connections hold.
pub struct Automatch {
    tx: mpsc::UnboundedSender<Request>,
}

impl Automatch {
    /// Starts the service's task; it ends when every handle is dropped. With `shared`
    /// (a cluster), the node's requests go to the cluster's one queue instead.
    pub fn start(
        hub: Arc<Hub>,
        accounts: Arc<Accounts>,
        shared: Option<Arc<dyn SharedQueue>>,
    ) -> Arc<Automatch> {
        let (tx, rx) = mpsc::unbounded_channel();
        if let Some(shared) = shared {
            cluster::start(hub, accounts, shared, rx);
            return Arc::new(Automatch { tx });
        }
        let service = Service::new(hub, accounts, tx.downgrade(), false);
        tokio::spawn(service.run(rx));
        Arc::new(Automatch { tx })
    }

    pub fn send(&self, request: Request) {
        let _ = self.tx.send(request);
    }
}

/// A match's players as the room maker takes them.
type Seated = Vec<(Entry, Peer, Box<SignedIn>)>;

/// A queued (or proposed) player's connection and account.
struct Player {
    conn: Peer,
    who: Box<SignedIn>,
    /// When `match_queued` was last sent.
    told: Millis,
}

struct Service {
    matcher: Matcher,
    players: HashMap<u64, Player>,
    origin: Instant,
    /// Time is the wall clock's (a cluster's leaders share it), not `origin`'s.
    wall: bool,
    /// The waits of the latest matches, for `estimate_ms`.
    estimates: Estimates,
    /// A cluster's leader makes rooms only once its step is committed: the matches
    /// found wait here (None: one node, rooms made at once).
    deferred: Option<Vec<(u64, Seated)>>,
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    /// For room makers to put players back when a room cannot be made.
    tx: mpsc::WeakUnboundedSender<Request>,
}

/// The wire name of match `id`.
fn match_name(id: u64) -> String {
    format!("m{id}")
}

fn match_number(name: &str) -> Option<u64> {
    name.strip_prefix('m')?.parse().ok()
}

fn unknown_match(name: &str) -> Refusal {
    Refusal::new(
        ErrorCode::UnknownMatch,
        format!("no match {name:?} waits for your answer"),
    )
}

impl Service {
    fn new(
        hub: Arc<Hub>,
        accounts: Arc<Accounts>,
        tx: mpsc::WeakUnboundedSender<Request>,
        cluster: bool,
    ) -> Service {
        let settings = Settings {
            accept_ms: hub.config.match_accept_timeout.as_millis() as Millis,
            table_wait_ms: hub.config.match_table_wait.as_millis() as Millis,
        };
        let mut matcher = Matcher::new(settings);
        matcher.set_house(house::house(&hub, &accounts));
        Service {
            matcher,
            players: HashMap::new(),
            origin: Instant::now(),
            wall: cluster,
            estimates: Estimates::default(),
            deferred: cluster.then(Vec::new),
            hub,
            accounts,
            tx,
        }
    }

    fn now(&self) -> Millis {
        if self.wall {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as Millis)
                .unwrap_or(0)
        } else {
            self.origin.elapsed().as_millis() as Millis
        }
    }

    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Request>) {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                request = rx.recv() => match request {
                    Some(request) => self.on_request(request),
                    None => return,
                },
                _ = tick.tick() => self.on_tick(),
            }
        }
    }

    fn on_request(&mut self, request: Request) {
        let now = self.now();
        match request {
            Request::Find {
                conn,
                who,
                level,
                blocks,
                pool,
                edition,
                sets,
            } => {
                let entry = Entry {
                    key: conn.id,
                    account: who.account.id,
                    name: who.account.name.clone(),
                    level,
                    pool,
                    edition: edition.unwrap_or_default(),
                    sets,
                    blocks: blocks.iter().map(|b| b.to_lowercase()).collect(),
                    since: now,
                };
                // One entry per account: another connection of it leaves the queue.
                let others: Vec<u64> = self
                    .players
                    .iter()
                    .filter(|(k, p)| **k != conn.id && p.who.account.id == who.account.id)
                    .map(|(k, _)| *k)
                    .collect();
                for other in others {
                    let effects = self.matcher.cancel(other);
                    self.apply(effects, now);
                }
                self.players.insert(
                    conn.id,
                    Player {
                        conn,
                        who,
                        told: now,
                    },
                );
                let effects = self.matcher.enqueue(entry);
                self.apply(effects, now);
            }
            Request::Cancel { conn, re } => {
                conn.send(&ServerMessage::Ack { re });
                let effects = self.matcher.cancel(conn.id);
                self.apply(effects, now);
            }
            Request::Accept { conn, re, id } => {
                let answer = match_number(&id)
                    .ok_or(())
                    .and_then(|n| self.matcher.accept(conn.id, n).map_err(|_| ()));
                match answer {
                    Ok(effects) => {
                        conn.send(&ServerMessage::Ack { re });
                        self.apply(effects, now);
                    }
                    Err(()) => {
                        conn.send(&unknown_match(&id).to_message(Some(re)));
                    }
                }
            }
            Request::Decline { conn, re, id } => {
                let answer = match_number(&id)
                    .ok_or(())
                    .and_then(|n| self.matcher.decline(conn.id, n).map_err(|_| ()));
                match answer {
                    Ok(effects) => {
                        conn.send(&ServerMessage::Ack { re });
                        self.apply(effects, now);
                    }
                    Err(()) => {
                        conn.send(&unknown_match(&id).to_message(Some(re)));
                    }
                }
            }
            Request::Requeue { players } => {
                let mut entries = Vec::new();
                for (entry, conn, who) in players {
                    if conn.is_closing() {
                        continue;
                    }
                    entries.push(entry);
                    self.players.insert(
                        conn.id,
                        Player {
                            conn,
                            who,
                            told: now,
                        },
                    );
                }
                let effects = self.matcher.requeue_front(entries);
                self.apply(effects, now);
            }
            Request::Gone { conn } => {
                let effects = self.matcher.cancel(conn);
                self.apply(effects, now);
                self.players.remove(&conn);
            }
        }
    }

    fn on_tick(&mut self) {
        let now = self.now();
        let effects = self.matcher.tick(now);
        self.apply(effects, now);
        // The waiting hear how long they have waited, every few seconds.
        for entry in self.matcher.queued() {
            if let Some(p) = self.players.get_mut(&entry.key)
                && now.saturating_sub(p.told) >= STATUS_EVERY
            {
                p.told = now;
                let waited_ms = now.saturating_sub(entry.since);
                p.conn.send(&ServerMessage::MatchQueued {
                    pool: entry.pool,
                    waited_ms,
                    estimate_ms: self.estimates.estimate(entry.pool, waited_ms),
                });
            }
        }
    }

    /// Makes the room of match `id` now, or (a cluster's leader) once the step that
    /// found it is committed.
    fn make_room(&mut self, id: u64, seated: Seated) {
        if let Some(deferred) = &mut self.deferred {
            deferred.push((id, seated));
            return;
        }
        tokio::spawn(room::make(
            self.hub.clone(),
            self.accounts.clone(),
            match_name(id),
            seated,
            self.tx.clone(),
        ));
    }

    fn apply(&mut self, effects: Vec<Effect>, now: Millis) {
        for effect in effects {
            match effect {
                Effect::Queued { key } => {
                    let Some(entry) = self.matcher.queued().iter().find(|e| e.key == key) else {
                        continue;
                    };
                    let waited_ms = now.saturating_sub(entry.since);
                    let msg = ServerMessage::MatchQueued {
                        pool: entry.pool,
                        waited_ms,
                        estimate_ms: self.estimates.estimate(entry.pool, waited_ms),
                    };
                    if let Some(p) = self.players.get_mut(&key) {
                        p.told = now;
                        p.conn.send(&msg);
                    }
                }
                Effect::Proposed { id, members } => {
                    let accept_within_ms = self.matcher.settings().accept_ms;
                    for m in &members {
                        let opponents = members
                            .iter()
                            .filter(|o| o.key != m.key)
                            .map(|o| MatchOpponent {
                                name: o.name.clone(),
                                level: Some(o.level.max(0.0).floor() as u32),
                            })
                            .collect();
                        if let Some(p) = self.players.get(&m.key) {
                            p.conn.send(&ServerMessage::MatchProposed {
                                match_id: match_name(id),
                                pool: m.pool,
                                opponents,
                                accept_within_ms,
                            });
                        }
                    }
                }
                Effect::Found { id, members } => {
                    for m in &members {
                        self.estimates.record(m.pool, now.saturating_sub(m.since));
                    }
                    let seated: Vec<(Entry, Peer, Box<SignedIn>)> = members
                        .into_iter()
                        .filter_map(|m| {
                            let p = self.players.remove(&m.key)?;
                            Some((m, p.conn, p.who))
                        })
                        .collect();
                    self.make_room(id, seated);
                }
                Effect::House(effect) => house::apply(self, effect),
                Effect::Cancelled { key, reason } => {
                    let Some(p) = self.players.get_mut(&key) else {
                        continue;
                    };
                    p.conn.send(&ServerMessage::MatchCancelled { reason });
                    if reason == MatchCancelReason::Requeued {
                        p.told = now;
                    } else {
                        self.players.remove(&key);
                    }
                }
            }
        }
    }
}
