//! Automatch across the nodes of a cluster: one queue, run by one node at a time.
//!
//! **Every node** runs a relay: it takes a number for its automatch service (its
//! *instance*, announced while it lives), turns its connections' requests into text —
//! the connection's key is `instance << 40 | connection id`, unique across nodes; the
//! account travels as id, name and bot flag, never a credential — and pushes them to
//! the shared request list (`matchmaking::shared`, over Redis in `cluster::automatch`).
//! It delivers whatever the leader publishes on its instance's channel to the
//! connection named.
//!
//! **One node leads**, under a lease with a fencing token. Its [`Term`] runs the very
//! [`Service`] a single node runs — same `Matcher`, same effects, same room maker — with
//! [`Peer`]s that queue each answer for the node holding the connection. Every
//! [`TICK`] a step: read the requests, apply them, tick the queue, drop the entries of
//! instances no longer announced (a dead node's players, who queue again wherever they
//! reconnect), then *commit*: the whole state (queue, proposals, players, matches being
//! seated, the estimates' samples, this step's messages) and the number of requests
//! consumed, in one script that refuses a stale token and refuses to claim a match's
//! members twice. Only then are the messages published and the rooms of the matches
//! found made (on the leader's node; players reach them through forwarding). A refused
//! or failed commit ends the term: nothing of that step was told, and whoever leads
//! next starts from the last committed state.
//!
//! **A new leader** rebuilds the service from that state. Proposals in flight fall
//! through (their players may have answered the old leader) and matches the old leader
//! was seating go back too — everyone requeued at the front, told `match_cancelled`
//! `requeued`; the last step's messages are published again (a relay drops a
//! `match_found` it already delivered). A room the old leader was making when it died
//! may stay behind with its seats held for nobody: the players never heard of it.
//!
//! The messages of a step are committed with it, so that a leader dying between its
//! commit and their publication loses none. A node dying may still lose a
//! `match_found` on its way to its player; so the leader keeps each account's latest
//! `match_found` for a minute, and a `find_match` from that account on another node,
//! while the node it was sent to is no longer announced, is answered with it again
//! (re-addressed) instead of a second match. A seat token is therefore in Redis — the
//! cluster's own store, like the room leases — for at most a minute, and in no log.
//!
//! Time is the wall clock's (milliseconds since 1970), so that waits and deadlines
//! mean the same on the next leader.

use super::peer::Outbox;
use super::{Peer, Player, Request, Service, TICK, match_name, room};
use crate::accounts::live::Credential;
use crate::accounts::{Accounts, SignedIn};
use crate::matchmaking::estimate::Estimates;
use crate::matchmaking::queue::Entry;
use crate::matchmaking::queue::snapshot::Snapshot;
use crate::matchmaking::shared::{Commit, SharedQueue};
use crate::rooms::hub::Hub;
use crate::rooms::outbox::ConnHandle;
use dominion_protocol::{CardSet, Edition, MatchPool};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Requests a step reads at most.
const STEP_REQUESTS: usize = 2000;
/// Bits of a key that hold the connection's id on its node.
const CONN_BITS: u32 = 40;
/// How long a `match_found` is kept for a player whose node died before telling them.
const RECENT_MS: u64 = 60_000;
/// How often a relay tries to hand requests on before it gives them up.
const PUSH_TRIES: usize = 10;
/// How often the leader looks for players of instances no longer announced.
const ALIVE_EVERY: Duration = Duration::from_secs(1);

fn key_of(instance: u64, conn: u64) -> u64 {
    (instance << CONN_BITS) | (conn & ((1 << CONN_BITS) - 1))
}

fn instance_of(key: u64) -> u64 {
    key >> CONN_BITS
}

/// What the leader needs of a player's account.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Account {
    id: i64,
    name: String,
    bot: bool,
}

impl Account {
    fn of(who: &SignedIn) -> Account {
        Account {
            id: who.account.id,
            name: who.account.name.clone(),
            bot: who.account.bot,
        }
    }

    /// The account as the room maker seats it: vouched for by the player's own node,
    /// which checked the session (as a forwarded link is).
    fn signed_in(&self) -> Box<SignedIn> {
        Box::new(SignedIn {
            account: dominion_store::AccountRow {
                id: self.id,
                name: self.name.clone(),
                folded: String::new(),
                password_hash: String::new(),
                bot: self.bot,
                created_at: 0,
                banned_at: None,
            },
            credential: Credential::Link,
        })
    }
}

/// A request as it travels to the leader.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
enum Wire {
    Find {
        key: u64,
        who: Account,
        level: f64,
        blocks: Vec<String>,
        pool: MatchPool,
        edition: Option<Edition>,
        sets: Option<Vec<CardSet>>,
    },
    Cancel {
        key: u64,
        re: u64,
    },
    Accept {
        key: u64,
        re: u64,
        id: String,
    },
    Decline {
        key: u64,
        re: u64,
        id: String,
    },
    Gone {
        key: u64,
    },
}

/// The leader's state, as committed after every step.
#[derive(Default, Serialize, Deserialize)]
struct State {
    matcher: Snapshot,
    players: Vec<(u64, Account)>,
    /// Matches committed whose rooms are being made.
    making: Vec<(u64, Vec<(Entry, Account)>)>,
    estimates: Estimates,
    /// The step's messages: (instance, "key text").
    pending: Vec<(u64, String)>,
    /// The latest `match_found` of each account, for [`RECENT_MS`].
    #[serde(default)]
    recent: Vec<(i64, Recent)>,
}

/// A `match_found` sent lately, and where to.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Recent {
    instance: u64,
    /// "key text", as published.
    message: String,
    at: u64,
}

/// Starts this node's relay and its bid for the lead.
pub fn start(
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    shared: Arc<dyn SharedQueue>,
    rx: mpsc::UnboundedReceiver<Request>,
) {
    tokio::spawn(async move {
        let instance = loop {
            match shared.instance().await {
                Ok(i) => break i,
                Err(e) => tracing::warn!("automatch: cannot reach the cluster's queue: {e}"),
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        };
        let ttl = hub.config.lease.max(Duration::from_millis(300));
        let _ = shared.announce(instance, ttl).await;
        tracing::info!(instance, "automatch: this node's queue instance");
        let relay = Relay {
            shared: shared.clone(),
            instance,
            conns: HashMap::new(),
            delivered: HashSet::new(),
        };
        tokio::spawn(lead(hub, accounts, shared, instance, ttl));
        relay.run(rx, ttl).await;
    });
}

struct Relay {
    shared: Arc<dyn SharedQueue>,
    instance: u64,
    /// This node's connections that asked something, by key.
    conns: HashMap<u64, ConnHandle>,
    /// Hashes of the `match_found` messages delivered (a new leader publishes the last
    /// step again).
    delivered: HashSet<u64>,
}

impl Relay {
    async fn subscribe(&self) -> Option<BoxStream<'static, String>> {
        match self.shared.subscribe(self.instance).await {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!("automatch: cannot subscribe to this node's channel: {e}");
                None
            }
        }
    }

    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Request>, ttl: Duration) {
        let mut messages = self.subscribe().await;
        let mut beat = tokio::time::interval(ttl / 3);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let next = async {
                match &mut messages {
                    Some(s) => s.next().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                request = rx.recv() => {
                    let Some(request) = request else { return };
                    let mut batch = Vec::new();
                    batch.extend(self.wire(request));
                    while let Ok(request) = rx.try_recv() {
                        batch.extend(self.wire(request));
                    }
                    self.push(batch).await;
                }
                text = next => match text {
                    Some(text) => self.deliver(&text),
                    None => messages = None,
                },
                _ = beat.tick() => {
                    if let Err(e) = self.shared.announce(self.instance, ttl).await {
                        tracing::warn!("automatch: cannot announce this node: {e}");
                    }
                    if messages.is_none() {
                        messages = self.subscribe().await;
                    }
                }
            }
        }
    }

    /// Pushes requests, trying again for a few seconds while Redis does not answer.
    async fn push(&self, batch: Vec<String>) {
        if batch.is_empty() {
            return;
        }
        let mut last = String::new();
        for _ in 0..PUSH_TRIES {
            match self.shared.push(batch.clone()).await {
                Ok(()) => return,
                Err(e) => last = e,
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        tracing::warn!(requests = batch.len(), "automatch: requests lost: {last}");
    }

    /// A connection's request as text for the leader (None: nothing to ask).
    fn wire(&mut self, request: Request) -> Option<String> {
        let mut remember = |conn: &Peer, handle: Option<ConnHandle>| {
            let key = key_of(self.instance, conn.id);
            if let Some(handle) = handle {
                self.conns.insert(key, handle);
            }
            key
        };
        let wire = match request {
            Request::Find {
                conn,
                who,
                level,
                blocks,
                pool,
                edition,
                sets,
            } => Wire::Find {
                key: remember(&conn, conn.handle()),
                who: Account::of(&who),
                level,
                blocks,
                pool,
                edition,
                sets,
            },
            Request::Cancel { conn, re } => Wire::Cancel {
                key: remember(&conn, conn.handle()),
                re,
            },
            Request::Accept { conn, re, id } => Wire::Accept {
                key: remember(&conn, conn.handle()),
                re,
                id,
            },
            Request::Decline { conn, re, id } => Wire::Decline {
                key: remember(&conn, conn.handle()),
                re,
                id,
            },
            Request::Gone { conn } => {
                let key = key_of(self.instance, conn);
                self.conns.remove(&key)?;
                Wire::Gone { key }
            }
            // Only a leader's room makers requeue, to their own term.
            Request::Requeue { .. } => return None,
        };
        serde_json::to_string(&wire).ok()
    }

    /// One message from the leader: "key text".
    fn deliver(&mut self, message: &str) {
        let Some((key, text)) = message.split_once(' ') else {
            return;
        };
        let Some(conn) = key.parse().ok().and_then(|k: u64| self.conns.get(&k)) else {
            return;
        };
        if text.contains(r#""type":"match_found""#) {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            std::hash::Hash::hash(message, &mut hasher);
            if !self.delivered.insert(std::hash::Hasher::finish(&hasher)) {
                return;
            }
            if self.delivered.len() > 100_000 {
                self.delivered.clear();
            }
        }
        conn.send_text(text.to_string());
    }
}

/// Bids for the lead every tick; while this node leads, runs a term.
async fn lead(
    hub: Arc<Hub>,
    accounts: Arc<Accounts>,
    shared: Arc<dyn SharedQueue>,
    instance: u64,
    ttl: Duration,
) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut term: Option<Term> = None;
    loop {
        tick.tick().await;
        if *hub.shutdown_signal().borrow() {
            if let Some(t) = term.take() {
                let _ = shared.resign(instance, t.token).await;
            }
            continue;
        }
        let held = term.as_ref().map(|t| t.token);
        let token = match shared.lead(instance, held, ttl).await {
            Ok(Some(token)) => token,
            Ok(None) => {
                if term.take().is_some() {
                    tracing::warn!(instance, "automatch: another node leads now");
                }
                continue;
            }
            Err(e) => {
                if term.take().is_some() {
                    tracing::warn!(instance, "automatch: lead not renewed: {e}");
                }
                continue;
            }
        };
        // A token other than the term's: the lead was lost and taken again meanwhile
        // (Redis restarted, say); start over from what Redis holds.
        let mut current = match term.take() {
            Some(t) if t.token == token => t,
            _ => match Term::begin(&hub, &accounts, shared.clone(), token).await {
                Ok(t) => {
                    tracing::info!(instance, token, "automatch: this node leads the queue");
                    t
                }
                Err(e) => {
                    tracing::warn!("automatch: cannot take the lead: {e}");
                    let _ = shared.resign(instance, token).await;
                    continue;
                }
            },
        };
        match current.step().await {
            Ok(()) => term = Some(current),
            Err(e) => {
                // Let whoever is quickest lead on from the last commit, this node too.
                tracing::warn!(
                    instance,
                    "automatch: step not committed ({e}); the term ends"
                );
                let _ = shared.resign(instance, token).await;
            }
        }
    }
}

/// One node's time as the leader.
struct Term {
    token: u64,
    shared: Arc<dyn SharedQueue>,
    service: Service,
    out: Outbox,
    /// The room makers' requeues.
    rx: mpsc::UnboundedReceiver<Request>,
    _tx: mpsc::UnboundedSender<Request>,
    /// Matches whose rooms are being made, and the channel their makers say "done" on.
    making: BTreeMap<u64, Vec<(Entry, Account)>>,
    done_tx: mpsc::UnboundedSender<u64>,
    done_rx: mpsc::UnboundedReceiver<u64>,
    alive_checked: Instant,
    /// The latest `match_found` of each account (see [`Term::told_again`]).
    recent: HashMap<i64, Recent>,
    /// Something changed that the next commit must carry.
    dirty: bool,
}

impl Term {
    async fn begin(
        hub: &Arc<Hub>,
        accounts: &Arc<Accounts>,
        shared: Arc<dyn SharedQueue>,
        token: u64,
    ) -> Result<Term, String> {
        let state: State = match shared.load().await? {
            None => State::default(),
            Some(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::error!(
                    "automatch: the committed state is unreadable ({e}); starting empty"
                );
                State::default()
            }),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        let mut service = Service::new(hub.clone(), accounts.clone(), tx.downgrade(), true);
        let out: Outbox = Arc::default();
        service.matcher.restore(state.matcher);
        service.estimates = state.estimates;
        let now = service.now();
        let peer = |key: u64| Peer::remote(key, instance_of(key), out.clone());
        for (key, account) in state.players {
            service.players.insert(
                key,
                Player {
                    conn: peer(key),
                    who: account.signed_in(),
                    told: now,
                },
            );
        }
        // What the last leader may not have sent yet.
        out.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(state.pending);
        // Proposals in flight fall through; matches being seated go back too, first.
        let mut effects = service.matcher.requeue_proposals();
        let mut back = Vec::new();
        for (_, members) in state.making {
            for (entry, account) in members {
                service.players.insert(
                    entry.key,
                    Player {
                        conn: peer(entry.key),
                        who: account.signed_in(),
                        told: now,
                    },
                );
                back.push(entry);
            }
        }
        effects.extend(service.matcher.requeue_front(back));
        service.apply(effects, now);
        Ok(Term {
            token,
            shared,
            service,
            out,
            rx,
            _tx: tx,
            making: BTreeMap::new(),
            done_tx,
            done_rx,
            alive_checked: Instant::now(),
            recent: state.recent.into_iter().collect(),
            dirty: true,
        })
    }

    fn peer(&self, key: u64) -> Peer {
        Peer::remote(key, instance_of(key), self.out.clone())
    }

    fn request(&self, wire: Wire) -> Request {
        match wire {
            Wire::Find {
                key,
                who,
                level,
                blocks,
                pool,
                edition,
                sets,
            } => Request::Find {
                conn: self.peer(key),
                who: who.signed_in(),
                level,
                blocks,
                pool,
                edition,
                sets,
            },
            Wire::Cancel { key, re } => Request::Cancel {
                conn: self.peer(key),
                re,
            },
            Wire::Accept { key, re, id } => Request::Accept {
                conn: self.peer(key),
                re,
                id,
            },
            Wire::Decline { key, re, id } => Request::Decline {
                conn: self.peer(key),
                re,
                id,
            },
            Wire::Gone { key } => Request::Gone { conn: key },
        }
    }

    /// A `find_match` from a player whose match was made within [`RECENT_MS`] but sent
    /// to a node that has died since (maybe before it told them): that `match_found`
    /// again, to the new connection, instead of a second match.
    async fn told_again(&mut self, wire: &Wire) -> Result<bool, String> {
        let Wire::Find { key, who, .. } = wire else {
            return Ok(false);
        };
        let Some(recent) = self.recent.get(&who.id) else {
            return Ok(false);
        };
        if recent.instance == instance_of(*key)
            || self.shared.alive(vec![recent.instance]).await?[..] != [false]
        {
            return Ok(false);
        }
        let Some(recent) = self.recent.remove(&who.id) else {
            return Ok(false);
        };
        let Some((_, text)) = recent.message.split_once(' ') else {
            return Ok(false);
        };
        self.out
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((instance_of(*key), format!("{key} {text}")));
        self.dirty = true;
        Ok(true)
    }

    /// Players whose node is no longer announced leave the queue.
    async fn drop_the_dead(&mut self) -> Result<(), String> {
        let keys: Vec<u64> = self.service.players.keys().copied().collect();
        let mut instances: Vec<u64> = keys.iter().map(|k| instance_of(*k)).collect();
        instances.sort_unstable();
        instances.dedup();
        let alive = self.shared.alive(instances.clone()).await?;
        let dead: HashSet<u64> = instances
            .into_iter()
            .zip(alive)
            .filter(|(_, a)| !a)
            .map(|(i, _)| i)
            .collect();
        for key in keys {
            if dead.contains(&instance_of(key)) {
                self.service.on_request(Request::Gone { conn: key });
                self.dirty = true;
            }
        }
        Ok(())
    }

    async fn step(&mut self) -> Result<(), String> {
        let texts = self.shared.requests(STEP_REQUESTS).await?;
        let consumed = texts.len();
        for text in texts {
            match serde_json::from_str::<Wire>(&text) {
                Ok(wire) => {
                    if self.told_again(&wire).await? {
                        continue;
                    }
                    let request = self.request(wire);
                    self.service.on_request(request);
                }
                Err(e) => tracing::warn!("automatch: an unreadable request skipped: {e}"),
            }
        }
        while let Ok(request) = self.rx.try_recv() {
            self.service.on_request(request);
            self.dirty = true;
        }
        let mut seated = HashMap::new();
        while let Ok(id) = self.done_rx.try_recv() {
            for (entry, _) in self.making.remove(&id).unwrap_or_default() {
                seated.insert(entry.key, entry.account);
            }
            self.dirty = true;
        }
        self.service.on_tick();
        if self.alive_checked.elapsed() >= ALIVE_EVERY {
            self.alive_checked = Instant::now();
            self.drop_the_dead().await?;
        }
        let found = std::mem::take(self.service.deferred.get_or_insert_with(Vec::new));
        let messages = std::mem::take(&mut *self.out.lock().unwrap_or_else(|e| e.into_inner()));
        // Each match_found just made is kept a while, for its player's next node.
        let now = self.service.now();
        for (instance, message) in &messages {
            if let Some((key, _)) = message.split_once(' ')
                && let Some(account) = key.parse().ok().and_then(|k: u64| seated.remove(&k))
            {
                self.recent.insert(
                    account,
                    Recent {
                        instance: *instance,
                        message: message.clone(),
                        at: now,
                    },
                );
            }
        }
        let before = self.recent.len();
        self.recent
            .retain(|_, r| now.saturating_sub(r.at) < RECENT_MS);
        self.dirty |= self.recent.len() != before;
        if consumed == 0 && messages.is_empty() && found.is_empty() && !self.dirty {
            return Ok(());
        }
        let mut claims = Vec::new();
        for (id, seated) in &found {
            claims.extend(seated.iter().map(|(e, _, _)| e.key));
            self.making.insert(
                *id,
                seated
                    .iter()
                    .map(|(e, _, who)| (e.clone(), Account::of(who)))
                    .collect(),
            );
        }
        let state = State {
            matcher: self.service.matcher.snapshot(),
            players: self
                .service
                .players
                .iter()
                .map(|(k, p)| (*k, Account::of(&p.who)))
                .collect(),
            making: self.making.iter().map(|(id, m)| (*id, m.clone())).collect(),
            estimates: self.service.estimates.clone(),
            pending: messages.clone(),
            recent: self.recent.iter().map(|(a, r)| (*a, r.clone())).collect(),
        };
        let mut keys = self.service.matcher.keys();
        keys.extend(self.making.values().flatten().map(|(e, _)| e.key));
        let commit = Commit {
            state: serde_json::to_string(&state).map_err(|e| e.to_string())?,
            keys,
            claims,
            consumed,
        };
        self.shared
            .commit(self.token, commit)
            .await?
            .map_err(|refused| format!("refused: {refused:?}"))?;
        // Messages kept in the committed state (a `match_found` holds a seat token) are
        // dropped from it by the next step's commit.
        self.dirty = !messages.is_empty();
        if let Err(e) = self.shared.publish(messages).await {
            tracing::warn!("automatch: messages not sent: {e}");
        }
        for (id, seated) in found {
            let make = room::make(
                self.service.hub.clone(),
                self.service.accounts.clone(),
                match_name(id),
                seated,
                self.service.tx.clone(),
            );
            let done = self.done_tx.clone();
            tokio::spawn(async move {
                make.await;
                let _ = done.send(id);
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_across_instances_and_name_their_instance() {
        assert_ne!(key_of(1, 7), key_of(2, 7));
        assert_eq!(instance_of(key_of(12, 99)), 12);
        assert_eq!(instance_of(key_of(3, (1 << CONN_BITS) + 5)), 3);
    }
}
