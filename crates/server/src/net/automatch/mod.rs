//! The automatch service of one node (docs/protocol.md, "Automatch"): a task that owns
//! the queue (`crate::matchmaking::queue::Matcher`, pure logic) in memory, hears the
//! connections' `find_match`, `cancel_match`, `accept_match`, `decline_match` and their
//! disconnects, ticks the queue every [`TICK`], tells players what the queue decided,
//! and makes the room of an accepted match (`room`; a bot ladder game against one of our
//! bots: `house`).
//!
//! Connections reach the task through [`Automatch`], a channel that never blocks them
//! (unbounded: one message per command, and commands are rate limited per connection).
//! Every reply goes to the connection's own outbound queue (`ConnHandle::send`), so the
//! task never waits for a client.
//!
//! One queue per node: players on different nodes of a cluster are not matched with each
//! other. A Redis queue would replace [`Matcher`] behind the same five operations
//! (`enqueue`, `cancel`, `accept`, `decline`, `tick`), with each proposal claimed
//! atomically in Redis and its effects delivered to whichever node holds each
//! connection.

mod house;
mod room;

use crate::accounts::{Accounts, SignedIn};
use crate::convert::refusal::Refusal;
use crate::matchmaking::queue::{Effect, Entry, Matcher, Millis, Settings};
use crate::rooms::hub::Hub;
use crate::rooms::outbox::ConnHandle;
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
        conn: ConnHandle,
        who: Box<SignedIn>,
        level: f64,
        blocks: Vec<String>,
        pool: MatchPool,
        edition: Option<Edition>,
        sets: Option<Vec<CardSet>>,
    },
    Cancel {
        conn: ConnHandle,
        re: u64,
    },
    Accept {
        conn: ConnHandle,
        re: u64,
        id: String,
    },
    Decline {
        conn: ConnHandle,
        re: u64,
        id: String,
    },
    /// The connection closed: out of the queue and of any proposal.
    Gone {
        conn: u64,
    },
    /// A match whose room could not be made: its players go back to the front.
    Requeue {
        players: Vec<(Entry, ConnHandle, Box<SignedIn>)>,
    },
}

/// The handle connections hold.
pub struct Automatch {
    tx: mpsc::UnboundedSender<Request>,
}

impl Automatch {
    /// Starts the service's task; it ends when every handle is dropped.
    pub fn start(hub: Arc<Hub>, accounts: Arc<Accounts>) -> Arc<Automatch> {
        let (tx, rx) = mpsc::unbounded_channel();
        let settings = Settings {
            accept_ms: hub.config.match_accept_timeout.as_millis() as Millis,
            table_wait_ms: hub.config.match_table_wait.as_millis() as Millis,
        };
        let mut matcher = Matcher::new(settings);
        matcher.set_house(house::house(&hub, &accounts));
        let service = Service {
            matcher,
            players: HashMap::new(),
            origin: Instant::now(),
            hub,
            accounts,
            tx: tx.downgrade(),
        };
        tokio::spawn(service.run(rx));
        Arc::new(Automatch { tx })
    }

    pub fn send(&self, request: Request) {
        let _ = self.tx.send(request);
    }
}

/// A queued (or proposed) player's connection and account.
struct Player {
    conn: ConnHandle,
    who: Box<SignedIn>,
    /// When `match_queued` was last sent.
    told: Millis,
}

struct Service {
    matcher: Matcher,
    players: HashMap<u64, Player>,
    origin: Instant,
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
    fn now(&self) -> Millis {
        self.origin.elapsed().as_millis() as Millis
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
                p.conn.send(&ServerMessage::MatchQueued {
                    pool: entry.pool,
                    waited_ms: now.saturating_sub(entry.since),
                    estimate_ms: None,
                });
            }
        }
    }

    fn apply(&mut self, effects: Vec<Effect>, now: Millis) {
        for effect in effects {
            match effect {
                Effect::Queued { key } => {
                    let Some(entry) = self.matcher.queued().iter().find(|e| e.key == key) else {
                        continue;
                    };
                    let msg = ServerMessage::MatchQueued {
                        pool: entry.pool,
                        waited_ms: now.saturating_sub(entry.since),
                        estimate_ms: None,
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
                    let seated: Vec<(Entry, ConnHandle, Box<SignedIn>)> = members
                        .into_iter()
                        .filter_map(|m| {
                            let p = self.players.remove(&m.key)?;
                            Some((m, p.conn, p.who))
                        })
                        .collect();
                    tokio::spawn(room::make(
                        self.hub.clone(),
                        self.accounts.clone(),
                        match_name(id),
                        seated,
                        self.tx.clone(),
                    ));
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
