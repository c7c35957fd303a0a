//! Several nodes behind one address (`--cluster redis://…`, with `--database
//! postgres://…`): one lobby, each room run by exactly one node at a time, clients of
//! any node playing in any room, and no room lost when a node goes away.
//!
//! - **Ownership** ([`lease`]): a node runs a room only while it holds the room's lease
//!   in Redis, renewed every third of `--lease`. Each lease carries a fencing token that
//!   grows with every new lease; before a node reads a room's log it *claims* the room in
//!   the store with that token, and the store refuses writes under any older token. So a
//!   node that lost its lease — dead, paused or cut off — can no longer append to the
//!   log, even if it still believes it owns the room; nothing it could not write was ever
//!   acknowledged (a room answers only after its write commits).
//! - **Takeover**: every node looks, every half `--lease` (with jitter) and whenever a
//!   node announces that it released rooms, for live rooms in the store (open, playing,
//!   finished within `--finished-room-ttl`) that nobody holds a lease on, and takes them
//!   up to its share — the live rooms divided by the nodes announced in Redis, rounded
//!   up, so a dead node's rooms spread over the others; a room orphaned for a whole
//!   lease is taken regardless. Each is taken by lease, claim, replay of the log (the
//!   digest-checked `recover_one` of a restart), reopen, several at once (`sweep`); a
//!   node at `--max-rooms` takes none. Players count as away since the takeover, so no clock charges them the
//!   failover, and resume with their seat tokens wherever they reconnect. A client
//!   asking for such a room takes it over on the spot rather than wait for the sweep.
//! - **Forwarding** (`crate::net::forward`, with the route found here): a client of node
//!   A asking for a room run by node B is connected through A to B's WebSocket, speaking
//!   the public protocol, so B's per-viewer projection and limits apply unchanged.
//! - **Lobby** ([`lobby`]): the owners write their rooms' summaries to Redis; every node
//!   lists every room.
//! - **Presence** ([`presence`]): each node writes its signed-in accounts to Redis with
//!   an expiry, so a friend on another node shows `online`, and relays `invited` frames
//!   to the node holding the friend's connections.
//! - **Drain**: on SIGTERM a node stops taking rooms, withdraws its address, evicts
//!   each of its rooms (their clients get 1012 and resume elsewhere; a room's task ends
//!   after the message it is handling, whose write is committed or fenced), releases
//!   their leases and announces it; the others take the rooms over at once. Then it
//!   closes its connections as a single node does.
//! - **Losing Redis**: a node that cannot renew for two thirds of a lease stops its
//!   rooms, since it can no longer know it owns them. The fencing tokens live in the
//!   database, so Redis may lose all its data: the nodes find their leases gone, stop
//!   their rooms and take them over again; a claim refused because Redis's counter
//!   restarted below the database's token raises the counter, and the next attempt
//!   claims a newer one. Every player resumes once; nothing is lost.
//! - **Automatch** ([`automatch`]): one queue for every node, run by one leader at a
//!   time under a fenced lease, mirrored in Redis after every step (see
//!   `net::automatch::cluster`).
//! - **Key**: a forwarding node presents the cluster's key with its client's address,
//!   and the owner counts the client under that address. The key is kept in the
//!   database ([`Ledger::cluster_key`], read when a node joins), not in Redis: there, a
//!   node restarted after Redis lost everything made up a key of its own, the others
//!   ignored the addresses it vouched for, and all its clients shared its address's
//!   limits.
//!
//! **Why Redis.** Nodes share nothing but PostgreSQL (every room's log) and Redis (who
//! runs what, and the lobby). Redis rather than NATS because the one step that must be
//! atomic — "take this lease only if nobody holds it, and give me the next fencing
//! token" — is a five-line Lua script in Redis, with expiry built in; NATS would need
//! its key-value store plus a compare-and-swap loop of our own, for no gain.
//!
//! **No pointer back to the hub.** The cluster plugs into the interface the hub owns
//! (`rooms::placement`): the hub calls it through `Placement`, and the cluster acts on
//! rooms only by sending `HubRequest`s on a channel. The store's side of it is the
//! [`Ledger`] the durable log provides (`ledger`).
//!
//! May not touch: sockets (forwarding is `crate::net::forward`'s), the hub itself (only
//! `rooms::placement`). Nothing names the cluster but `lib.rs`, which wires it in.

pub mod automatch;
pub mod lease;
mod ledger;
pub mod lobby;
pub mod presence;
pub mod releases;
mod sweep;
mod windows;

use crate::gamelog::LogError;
use crate::gamelog::durable::Recovered;
use crate::gamelog::fence::Fences;
use crate::rooms::placement::{HubRequests, Placement, Reopened, Route};
use crate::rooms::room::RoomHandle;
use dominion_protocol::RoomSummary;
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use lease::{Leases, lease_value, node_key, owner_key, parse_lease};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::collections::HashSet;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

/// How long a Redis command may take before it counts as failed.
const REDIS_TIMEOUT: Duration = Duration::from_secs(1);

/// What the cluster needs from the store: the log implementation provides it.
pub trait Ledger: Send + Sync + 'static {
    /// Claims `room` for `node` under `token`; from then on the store refuses the room's
    /// writes under any other token (and this node's log writes it under this one).
    fn claim<'a>(
        &'a self,
        room: &'a str,
        node: &'a str,
        token: i64,
    ) -> BoxFuture<'a, Result<Claim, LogError>>;
    /// Rebuilds one room from its log (None: it is not live any more).
    fn recover_one<'a>(
        &'a self,
        room: &'a str,
        finished_ttl: Duration,
    ) -> BoxFuture<'a, Result<Option<Recovered>, LogError>>;
    /// Whether the store has `room` live (what a restart would reopen): checked before a
    /// client's request may take a lease, so that ids nobody created leave no trace.
    fn is_live<'a>(
        &'a self,
        room: &'a str,
        finished_ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, LogError>>;
    /// The rooms a restart would reopen: open, playing, or finished within the ttl.
    fn live_room_ids(&self, finished_ttl: Duration)
    -> BoxFuture<'_, Result<Vec<String>, LogError>>;
    /// The cluster's node key: the one the store holds, or else `candidate`, stored now.
    /// Every node sharing the store gets the same, whatever Redis forgot.
    fn cluster_key(&self, candidate: String) -> BoxFuture<'_, Result<String, LogError>>;
}

/// The store's answer to a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Claimed,
    /// The store knows a token at least this high: ours is stale.
    Stale {
        current: i64,
    },
}

/// Why the cluster could not be joined.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("--cluster {url:?} is not a Redis URL: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("cannot reach Redis at {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("--cluster needs --database postgres://… : every node must read every room's log")]
    NeedsPostgres,
    #[error("--node-id {0:?}: use 1 to 64 letters, digits, '-', '_' or '.'")]
    BadNodeId(String),
    #[error("this node listens on {0}, which other nodes cannot dial: set --advertise HOST:PORT")]
    NoAdvertise(String),
    #[error("cannot read or store the cluster's key in the database: {0}")]
    Key(String),
}

pub struct Cluster {
    pub node: String,
    /// Where other nodes reach this node's WebSocket (HOST:PORT).
    pub advertise: String,
    redis: ConnectionManager,
    client: redis::Client,
    leases: Leases,
    ttl: Duration,
    finished_ttl: Duration,
    /// The key a forwarding node presents: only nodes know it (they read it from the
    /// database they share; see [`Ledger::cluster_key`]).
    secret: String,
    ledger: Arc<dyn Ledger>,
    fences: Arc<Fences>,
    /// The hub's request channel: the cluster's only way to act on this node's rooms
    /// (it holds no reference to the hub; see `rooms::placement`).
    hub: HubRequests,
    /// This node's `--max-rooms`: the sweep takes no more.
    max_rooms: usize,
    /// This cluster itself, for the tasks it starts.
    me: Weak<Cluster>,
    /// Rooms this node holds a lease on, with the token.
    owned: Mutex<HashMap<String, i64>>,
    /// The other nodes' rooms, as last read.
    others: Mutex<BTreeMap<String, RoomSummary>>,
    /// Rooms the sweeps found without a lease, since when.
    orphans: Mutex<HashMap<String, Instant>>,
    draining: AtomicBool,
    /// Wakes the sweep (a node released rooms).
    sweep_now: Notify,
    /// Wakes the lobby refresh (an entry changed).
    lobby_changed: Notify,
    /// Whether replies still write what nodes of an earlier release read ([`releases`]).
    legacy: Mutex<releases::LegacyGate>,
}

/// A node name: 8 random characters when none is given.
fn node_name(given: Option<&str>) -> Result<String, ClusterError> {
    match given.filter(|s| !s.is_empty()) {
        Some(id) => {
            let ok = id.len() <= 64
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            if ok {
                Ok(id.to_string())
            } else {
                Err(ClusterError::BadNodeId(id.to_string()))
            }
        }
        None => Ok(format!(
            "node-{}",
            crate::random::random_id(6).unwrap_or_else(|_| std::process::id().to_string())
        )),
    }
}

impl Cluster {
    /// Connects to Redis and joins: checks the URL, reaches the server, learns (or sets)
    /// the cluster's shared key in the database. Nothing runs yet: see [`Cluster::start`].
    pub async fn join(
        config: &crate::Config,
        listening: std::net::SocketAddr,
        ledger: Arc<dyn Ledger>,
        fences: Arc<Fences>,
        hub: HubRequests,
        legacy: (
            dominion_store::LegacyColumns,
            prometheus_client::metrics::gauge::Gauge,
        ),
    ) -> Result<Arc<Cluster>, ClusterError> {
        let url = config.cluster.clone().unwrap_or_default();
        let node = node_name(config.node_id.as_deref())?;
        let advertise = match config.advertise.as_deref().filter(|a| !a.is_empty()) {
            Some(a) => a.to_string(),
            None if listening.ip().is_unspecified() => {
                return Err(ClusterError::NoAdvertise(listening.to_string()));
            }
            None => listening.to_string(),
        };
        let client = redis::Client::open(url.as_str()).map_err(|e| ClusterError::BadUrl {
            url: url.clone(),
            reason: e.to_string(),
        })?;
        let unreachable = |e: redis::RedisError| ClusterError::Unreachable {
            url: url.clone(),
            reason: e.to_string(),
        };
        let manager_config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(2);
        let mut redis = tokio::time::timeout(
            REDIS_TIMEOUT * 5,
            ConnectionManager::new_with_config(client.clone(), manager_config),
        )
        .await
        .map_err(|_| ClusterError::Unreachable {
            url: url.clone(),
            reason: "no answer within 5 s".into(),
        })?
        .map_err(unreachable)?;
        let candidate = crate::random::random_id(24).map_err(|e| ClusterError::Unreachable {
            url: "the system's random source".into(),
            reason: e.to_string(),
        })?;
        // The key lives in the database, where every node reads the same one even after
        // Redis lost everything (in Redis, a node restarted after such a loss made up a
        // key of its own, and the others then ignored the client addresses it vouched
        // for). A key an earlier release left in Redis is adopted by the first node that
        // stores one, so nodes of that release still running agree with it.
        let earlier: Option<String> = redis::cmd("GET")
            .arg(format!("{}secret", lease::PREFIX))
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        let secret = ledger
            .cluster_key(earlier.unwrap_or(candidate))
            .await
            .map_err(|e| ClusterError::Key(e.to_string()))?;
        // Announce the node at once: rooms created before the first renewal must be
        // reachable through the other nodes.
        let _: () = redis::cmd("SET")
            .arg(node_key(&node))
            .arg(&advertise)
            .arg("PX")
            .arg(config.lease.max(Duration::from_millis(300)).as_millis() as u64)
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        // Nodes of an earlier release may share the database: replies write what they
        // read from the first one on, until the announcements say otherwise.
        let ttl = config.lease.max(Duration::from_millis(300));
        let legacy = releases::LegacyGate::new(legacy.0, legacy.1, ttl, std::time::Instant::now());
        releases::announce(&mut redis, &node, ttl)
            .await
            .map_err(unreachable)?;
        fences.enable();
        Ok(Arc::new_cyclic(|me| Cluster {
            node,
            advertise,
            redis,
            client,
            leases: Leases::default(),
            ttl,
            finished_ttl: config.finished_room_ttl,
            secret,
            ledger,
            fences,
            hub,
            max_rooms: config.max_rooms,
            me: me.clone(),
            owned: Mutex::new(HashMap::new()),
            others: Mutex::new(BTreeMap::new()),
            orphans: Mutex::new(HashMap::new()),
            draining: AtomicBool::new(false),
            sweep_now: Notify::new(),
            lobby_changed: Notify::new(),
            legacy: Mutex::new(legacy),
        }))
    }

    /// Starts the node's background work: its heartbeat and lease renewal, the sweep for
    /// rooms nobody runs, and the lobby copy.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(self.clone().renew_loop());
        tokio::spawn(self.clone().sweep_loop());
        tokio::spawn(self.clone().listen_loop());
        tokio::spawn(self.clone().lobby_loop());
        tokio::spawn(self.clone().releases_loop());
        tracing::info!(node = %self.node, advertise = %self.advertise, "joined the cluster");
    }

    fn redis(&self) -> ConnectionManager {
        self.redis.clone()
    }

    /// Counting windows every node shares (the accounts' sign-in and registration
    /// limits), kept in the cluster's Redis.
    pub fn shared_windows(&self) -> Arc<dyn crate::budget::SharedWindows> {
        Arc::new(windows::RedisWindows {
            redis: self.redis(),
        })
    }

    /// The presence every node shares (friends online, invitations across nodes): starts
    /// writing this node's signed-in accounts, as `local` lists them, and delivering
    /// invitations other nodes relay for them.
    pub fn presence(
        &self,
        local: crate::presence::Local,
    ) -> Arc<dyn crate::presence::SharedPresence> {
        let presence = Arc::new(presence::RedisPresence {
            redis: self.redis(),
            node: self.node.clone(),
        });
        let local = Arc::new(local);
        tokio::spawn(presence.clone().publish_loop(local.clone()));
        tokio::spawn(presence.clone().listen_loop(self.client.clone(), local));
        presence
    }

    /// The automatch queue every node shares (`automatch`), in the cluster's Redis.
    pub fn shared_queue(&self) -> Arc<dyn crate::matchmaking::shared::SharedQueue> {
        Arc::new(automatch::RedisQueue {
            redis: self.redis(),
            client: self.client.clone(),
        })
    }

    fn owned(&self) -> MutexGuard<'_, HashMap<String, i64>> {
        self.owned.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// How many rooms this node holds a lease on.
    pub fn owned_count(&self) -> usize {
        self.owned().len()
    }

    /// The other nodes' rooms, as last read.
    pub fn others(&self) -> Vec<RoomSummary> {
        self.others
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// Another node's room, as last read.
    pub fn other(&self, room: &str) -> Option<RoomSummary> {
        self.others
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(room)
            .cloned()
    }

    // ---- new rooms ---------------------------------------------------------------

    /// Reserves a fresh room id for a room created here: takes its lease and claims it in
    /// the store, so the room's very first write is already fenced.
    pub async fn reserve_new_room(&self) -> Result<String, String> {
        if self.is_draining() {
            return Err("this server is shutting down and opens no new rooms".into());
        }
        for _ in 0..8 {
            let id = crate::random::random_id(8).map_err(|e| format!("no randomness: {e}"))?;
            let mut redis = self.redis();
            match self
                .leases
                .acquire(&mut redis, &id, &self.node, self.ttl)
                .await
            {
                Ok(Some(token)) => {
                    self.hold(&id, token).await?;
                    return Ok(id);
                }
                Ok(None) => continue, // the id is in use somewhere
                Err(e) => return Err(format!("the cluster's Redis did not answer: {e}")),
            }
        }
        Err("no free room id found".into())
    }

    /// Gives back an id reserved for a room that was then refused (too many rooms).
    pub async fn abandon_reservation(&self, room: &str) {
        let token = self.owned().get(room).copied();
        if let Some(token) = token {
            self.let_go(room, token).await;
        }
    }

    /// Holds a lease just taken: fences the room for this node and claims it in the
    /// store. On failure the lease is let go.
    async fn hold(&self, room: &str, token: i64) -> Result<(), String> {
        self.owned().insert(room.to_string(), token);
        let claimed = self.ledger.claim(room, &self.node, token).await;
        let why = match claimed {
            Ok(Claim::Claimed) => return Ok(()),
            Ok(Claim::Stale { current }) => {
                // Redis lost its counter (a restart without persistence): the store
                // remembers higher tokens. Raise the counter; the next try succeeds.
                let _ = self.leases.raise(&mut self.redis(), room, current).await;
                format!(
                    "token {token} is not newer than the store's {current} (Redis lost its \
                     counters?); raised, the next try takes a newer one"
                )
            }
            Err(e) => e.to_string(),
        };
        self.let_go(room, token).await;
        Err(why)
    }

    /// Forgets a room: its fence, our record of it, its lease and its lobby entry.
    async fn let_go(&self, room: &str, token: i64) {
        // Only our fence of this lease: the room may have come back here since.
        if self.fences.get(room).is_some_and(|f| f.token == token) {
            self.fences.remove(room);
        }
        {
            let mut owned = self.owned();
            if owned.get(room) == Some(&token) {
                owned.remove(room);
            }
        }
        let mut redis = self.redis();
        let _ = self
            .leases
            .release(&mut redis, room, &self.node, token)
            .await;
        let _ = lobby::remove(&mut redis, room, &lease_value(&self.node, token)).await;
        let _: redis::RedisResult<i64> = redis::cmd("PUBLISH")
            .arg(lobby::events_channel())
            .arg(format!("released {room}"))
            .query_async(&mut redis)
            .await;
    }

    /// Watches one of our rooms: publishes its summary to the lobby at every change, and
    /// lets the room go when its task ends.
    pub fn watch_room(&self, room: String, handle: &RoomHandle) {
        let Some(token) = self.owned().get(&room).copied() else {
            return;
        };
        let Some(me) = self.me.upgrade() else {
            return;
        };
        let mut summary = handle.summary.clone();
        tokio::spawn(async move {
            let lease = lease_value(&me.node, token);
            loop {
                let current = summary.borrow_and_update().clone();
                if let Err(e) = lobby::write(&mut me.redis(), &lease, &current).await {
                    tracing::warn!(room = %room, "lobby entry not written: {e}");
                }
                if summary.changed().await.is_err() {
                    break;
                }
            }
            me.let_go(&room, token).await;
            tracing::debug!(room = %room, "room let go");
        });
    }

    // ---- finding a room ------------------------------------------------------------

    /// Where `room` runs: here, at another node, or — if nobody runs it and the store has
    /// it live — here after taking it over. Waits (bounded by twice the lease) while the
    /// room's last owner is unreachable but its lease has not expired yet.
    pub async fn route(&self, room: &str) -> Route {
        // Room ids are 8 characters; anything much longer is no room (and no Redis key).
        if room.is_empty() || room.len() > 64 {
            return Route::Unknown;
        }
        let deadline = Instant::now() + self.ttl * 2 + Duration::from_secs(1);
        loop {
            if let Some(handle) = self.hub.room(room).await {
                return Route::Local(handle);
            }
            let mut redis = self.redis();
            let lease: redis::RedisResult<Option<String>> = redis::cmd("GET")
                .arg(owner_key(room))
                .query_async(&mut redis)
                .await;
            match lease {
                Ok(Some(value)) => {
                    if let Some((node, _)) = parse_lease(&value)
                        && node != self.node
                    {
                        let addr: redis::RedisResult<Option<String>> = redis::cmd("GET")
                            .arg(node_key(node))
                            .query_async(&mut redis)
                            .await;
                        if let Ok(Some(addr)) = addr {
                            return Route::Remote {
                                node: node.to_string(),
                                addr,
                            };
                        }
                    }
                    // Ours but not (yet, or any more) in the hub, or its node is gone:
                    // wait for the lease to settle.
                }
                Ok(None) => match self.ledger.is_live(room, self.finished_ttl).await {
                    Ok(false) => return Route::Unknown,
                    Err(e) => tracing::warn!(room, "cannot look the room up: {e}"),
                    Ok(true) => match self.take_over(room).await {
                        TakeOver::Taken(handle) => return Route::Local(handle),
                        TakeOver::NotLive => return Route::Unknown,
                        TakeOver::Busy => {}
                    },
                },
                Err(e) => tracing::warn!(room, "cannot read the room's lease: {e}"),
            }
            if Instant::now() >= deadline {
                return Route::Unknown;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Takes over a room nobody holds: lease, claim, replay, reopen.
    pub async fn take_over(&self, room: &str) -> TakeOver {
        if self.is_draining() {
            return TakeOver::Busy;
        }
        if let Some(handle) = self.hub.room(room).await {
            return TakeOver::Taken(handle);
        }
        if self.hub.ids().await.len() >= self.max_rooms {
            // Full: another node takes it (a client asking here is forwarded there).
            return TakeOver::Busy;
        }
        let mut redis = self.redis();
        let token = match self
            .leases
            .acquire(&mut redis, room, &self.node, self.ttl)
            .await
        {
            Ok(Some(token)) => token,
            Ok(None) => return TakeOver::Busy,
            Err(e) => {
                tracing::warn!(room, "cannot take the room's lease: {e}");
                return TakeOver::Busy;
            }
        };
        if let Err(why) = self.hold(room, token).await {
            tracing::warn!(room, "cannot claim the room: {why}");
            return TakeOver::Busy;
        }
        let recovered = self.ledger.recover_one(room, self.finished_ttl).await;
        let rec = match recovered {
            Ok(Some(rec)) => rec,
            Ok(None) => {
                self.let_go(room, token).await;
                return TakeOver::NotLive;
            }
            Err(e) => {
                tracing::error!(room, "cannot read the room's log: {e}");
                self.let_go(room, token).await;
                return TakeOver::Busy;
            }
        };
        match self.hub.reopen(rec).await {
            Reopened::Running(handle) => {
                tracing::info!(room, token, node = %self.node, "room taken over");
                TakeOver::Taken(handle)
            }
            Reopened::Full => {
                self.let_go(room, token).await;
                TakeOver::Busy
            }
            Reopened::Failed(reason) => {
                tracing::error!(room, %reason, "room cannot be reopened");
                self.let_go(room, token).await;
                TakeOver::NotLive
            }
        }
    }

    // ---- background work -------------------------------------------------------------

    /// Every third of the lease: the node's heartbeat, then every room's lease renewed.
    /// A room whose lease is gone is closed here at once (its clients resume at its new
    /// owner); a node that cannot reach Redis for most of a lease stops its rooms, since
    /// it can no longer know it still owns them.
    async fn renew_loop(self: Arc<Self>) {
        let period = self.ttl / 3;
        let mut last_ok = Instant::now();
        loop {
            tokio::time::sleep(period).await;
            let mut redis = self.redis();
            // A draining node is no longer announced: nobody forwards to it any more.
            let beat: redis::RedisResult<()> = if self.is_draining() {
                Ok(())
            } else {
                redis::cmd("SET")
                    .arg(node_key(&self.node))
                    .arg(&self.advertise)
                    .arg("PX")
                    .arg(self.ttl.as_millis() as u64)
                    .query_async(&mut redis)
                    .await
            };
            let rooms: Vec<(String, i64)> =
                self.owned().iter().map(|(r, t)| (r.clone(), *t)).collect();
            let renewals = futures_util::future::join_all(rooms.iter().map(|(room, token)| {
                let mut redis = self.redis();
                let me = &self;
                async move {
                    me.leases
                        .renew(&mut redis, room, &me.node, *token, me.ttl)
                        .await
                }
            }))
            .await;
            let mut failed = beat.is_err();
            for ((room, token), renewed) in rooms.iter().zip(renewals) {
                match renewed {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::warn!(room, token, "lease lost: the room stops here");
                        self.lose(room, *token).await;
                    }
                    Err(_) => failed = true,
                }
            }
            if !failed {
                last_ok = Instant::now();
            } else if last_ok.elapsed() > self.ttl * 2 / 3 {
                tracing::error!("Redis unreachable for most of a lease: stopping every room here");
                for (room, token) in rooms {
                    self.lose(&room, token).await;
                }
            }
        }
    }

    /// Every third of the lease: this node's release announced beside its address, and
    /// the other nodes' releases looked at, to decide whether replies still write what
    /// nodes of an earlier release read ([`releases`]).
    async fn releases_loop(self: Arc<Self>) {
        loop {
            tokio::time::sleep(self.ttl / 3).await;
            let mut redis = self.redis();
            if !self.is_draining()
                && let Err(e) = releases::announce(&mut redis, &self.node, self.ttl).await
            {
                tracing::debug!("announcing the release: {e}");
            }
            let earlier = releases::earlier_release_nodes(&mut redis).await;
            self.legacy
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .observe(&earlier, std::time::Instant::now());
        }
    }

    /// Stops running a room whose lease is gone: no write of it is made under our token
    /// any more, and the room task closes its viewers (1012) and ends.
    async fn lose(&self, room: &str, token: i64) {
        if self.fences.get(room).is_some_and(|f| f.token == token) {
            self.fences.remove(room);
        }
        {
            let mut owned = self.owned();
            if owned.get(room) == Some(&token) {
                owned.remove(room);
            }
        }
        self.hub.evict(room).await;
    }

    /// Every half lease (with jitter, so nodes do not all sweep at once) or when a node
    /// released rooms: takes over every live room nobody holds.
    async fn sweep_loop(self: Arc<Self>) {
        loop {
            let jitter = Duration::from_millis(u64::from(crate::random::random_byte()) * 2);
            tokio::select! {
                () = tokio::time::sleep(self.ttl / 2 + jitter) => {}
                () = self.sweep_now.notified() => {
                    // Released rooms are free at once; spread the takers a little.
                    tokio::time::sleep(jitter / 4).await;
                }
            }
            if self.is_draining() {
                continue;
            }
            if let Err(e) = self.sweep().await {
                tracing::warn!("sweep: {e}");
            }
        }
    }

    /// Takes over live rooms nobody holds, up to this node's share: as many as bring it
    /// to the live rooms divided by the nodes announced in Redis (rounded up), so that a
    /// dead node's rooms spread over the others instead of all going to whichever swept
    /// first. A room left orphaned for a whole lease is taken regardless (the node whose
    /// share it was may be slow or gone).
    async fn sweep(&self) -> Result<(), String> {
        let ids = self
            .ledger
            .live_room_ids(self.finished_ttl)
            .await
            .map_err(|e| e.to_string())?;
        let here: HashSet<String> = self.hub.ids().await.into_iter().collect();
        let running = here.len();
        let live = ids.len();
        let candidates: Vec<String> = ids.into_iter().filter(|id| !here.contains(id)).collect();
        let mut orphans = Vec::new();
        for chunk in candidates.chunks(256) {
            let mut redis = self.redis();
            let leases: Vec<Option<String>> = redis::cmd("MGET")
                .arg(chunk.iter().map(|id| owner_key(id)).collect::<Vec<_>>())
                .query_async(&mut redis)
                .await
                .map_err(|e| e.to_string())?;
            orphans.extend(
                chunk
                    .iter()
                    .zip(leases)
                    .filter(|(_, lease)| lease.is_none())
                    .map(|(id, _)| id.clone()),
            );
        }
        let now = Instant::now();
        let overdue: Vec<bool> = {
            let mut seen = self.orphans.lock().unwrap_or_else(|e| e.into_inner());
            seen.retain(|id, _| orphans.contains(id));
            orphans
                .iter()
                .map(|id| now.duration_since(*seen.entry(id.clone()).or_insert(now)) >= self.ttl)
                .collect()
        };
        if orphans.is_empty() {
            return Ok(());
        }
        let share = live.div_ceil(self.live_nodes().await);
        // Several at once (`sweep`), each decided as one by one would.
        sweep::take_in_turn(
            orphans.into_iter().zip(overdue).collect(),
            running,
            share,
            sweep::AT_ONCE,
            || self.is_draining(),
            |id| async move { matches!(self.take_over(&id).await, TakeOver::Taken(_)) },
        )
        .await;
        Ok(())
    }

    /// The nodes announced in Redis now (this one included), at least 1.
    async fn live_nodes(&self) -> usize {
        let mut redis = self.redis();
        let mut cursor: u64 = 0;
        let mut count = 0;
        loop {
            let page: redis::RedisResult<(u64, Vec<String>)> = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(node_key("*"))
                .arg("COUNT")
                .arg(100)
                .query_async(&mut redis)
                .await;
            let Ok((next, keys)) = page else { return 1 };
            count += keys.len();
            if next == 0 || count > 10_000 {
                return count.max(1);
            }
            cursor = next;
        }
    }

    /// Listens to the other nodes' announcements (reconnecting when Redis goes away).
    async fn listen_loop(self: Arc<Self>) {
        loop {
            match self.client.get_async_pubsub().await {
                Ok(mut pubsub) => {
                    if pubsub.subscribe(lobby::events_channel()).await.is_ok() {
                        // Whatever was announced while we were away.
                        self.lobby_changed.notify_one();
                        self.sweep_now.notify_one();
                        let mut messages = pubsub.on_message();
                        while let Some(msg) = messages.next().await {
                            let text: String = msg.get_payload().unwrap_or_default();
                            if text.starts_with("released ") {
                                self.sweep_now.notify_one();
                            }
                            self.lobby_changed.notify_one();
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot subscribe to the cluster's events: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// Keeps the copy of the other nodes' rooms current.
    async fn lobby_loop(self: Arc<Self>) {
        loop {
            tokio::select! {
                () = self.lobby_changed.notified() => {}
                () = tokio::time::sleep(lobby::REFRESH) => {}
            }
            match lobby::read_others(&mut self.redis(), &self.node).await {
                Ok(rooms) => *self.others.lock().unwrap_or_else(|e| e.into_inner()) = rooms,
                Err(e) => tracing::warn!("cannot read the shared lobby: {e}"),
            }
            tokio::time::sleep(lobby::DEBOUNCE).await;
        }
    }

    /// SIGTERM: stops taking rooms, closes every room here (its clients get 1012 and
    /// resume at whichever node takes it), lets their leases go and tells the others,
    /// who take the rooms over at once. Waits at most `grace` for the rooms to close.
    pub async fn drain(&self, grace: Duration) {
        self.draining.store(true, Ordering::Release);
        // First withdraw the node's address: the other nodes then wait for its leases
        // (released just below) instead of forwarding players to a node about to close.
        let _: redis::RedisResult<i64> = redis::cmd("DEL")
            .arg(node_key(&self.node))
            .query_async(&mut self.redis())
            .await;
        let rooms: Vec<String> = self.owned().keys().cloned().collect();
        tracing::info!(
            rooms = rooms.len(),
            "draining: handing rooms to the other nodes"
        );
        for room in &rooms {
            self.hub.evict(room).await;
        }
        let deadline = Instant::now() + grace;
        while self.owned_count() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tracing::info!(left = self.owned_count(), "drained");
    }
}

pub enum TakeOver {
    Taken(RoomHandle),
    /// The store has no live room of that id.
    NotLive,
    /// Another node holds it, or it could not be taken now.
    Busy,
}

impl Placement for Cluster {
    fn reserve_new_room(&self) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(Cluster::reserve_new_room(self))
    }

    fn abandon_reservation<'a>(&'a self, room: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(Cluster::abandon_reservation(self, room))
    }

    fn watch_room(&self, room: String, handle: &RoomHandle) {
        Cluster::watch_room(self, room, handle);
    }

    fn other(&self, room: &str) -> Option<RoomSummary> {
        Cluster::other(self, room)
    }

    fn others(&self) -> Vec<RoomSummary> {
        Cluster::others(self)
    }

    fn route<'a>(&'a self, room: &'a str) -> BoxFuture<'a, Route> {
        Box::pin(Cluster::route(self, room))
    }

    fn node_key(&self) -> &str {
        &self.secret
    }

    fn reach_within(&self) -> Duration {
        self.ttl * 2 + Duration::from_secs(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_names_are_checked() {
        assert_eq!(node_name(Some("web-1.eu")).unwrap(), "web-1.eu");
        assert!(node_name(Some("a b")).is_err());
        assert!(node_name(Some("a|b")).is_err());
        assert!(node_name(Some(&"x".repeat(65))).is_err());
        assert!(node_name(None).unwrap().starts_with("node-"));
    }
}
