//! The hub: the registry of rooms and the counters every connection shares.
//!
//! It holds no game state — only each room's channel and the latest summary the room
//! published — so its lock is held for a map lookup at most, never across an await.
//!
//! **Admission.** `create_room` is refused past `--max-rooms` rooms running here, and
//! while the server shuts down; it answers only once the new room is stored (a room
//! that could not be stored never existed). A finished room counts until
//! `--finished-room-ttl` closes it; an abandoned one closes at once and stops counting.
//! Each room's task holds a drop guard that unregisters it however the task ends, a
//! panic included — only that run of it, since an evicted room's id may already belong
//! to the same room taken over again.
//!
//! **Shutdown.** The hub holds the shutdown flag: once it flips, no new room opens and
//! every connection closes with 1012 (resume with your token).
//!
//! **Placement.** With a cluster the hub holds a [`Placement`]: it reserves each new
//! room's id there, lists the other nodes' rooms from it, and through it a connection
//! learns where a room not registered here runs — at another node, to which the client
//! is forwarded, or nowhere, and then this node takes it over on the spot. The hub
//! serves the cluster's [`HubRequest`]s on a task of its own (see `placement`).
//!
//! It also keeps the per-address room limits (issue 23), all under the key
//! `budget::address_key` gives (an IPv6 client's /64): rooms created per minute
//! (`--rooms-per-address`, a bounded table that forgets its oldest address rather than
//! refuse a new one), rooms open now (`--live-rooms-per-address`: a room counts from its
//! creation until it closes, whatever ends it) and rooms with searching bots open now
//! (`--search-rooms-per-address`: counted by the room itself, which may gain or lose its
//! searching bots before the start and gives its place back once its game is over). A
//! refused `create_room` spends none of them. Rooms reopened after a restart or taken
//! over from another node have no known creator and count against no address.

use crate::budget::{AddressBudgets, AddressCounts, AddressKey, Claim, Counted};
use crate::config::Config;
use crate::convert::from_wire;
use crate::convert::refusal::Refusal;
use crate::gamelog::RoomLog;
use crate::gamelog::durable::{DurableLog, Recovered};
use crate::metrics::Metrics;
use crate::random::random_id;
use crate::rooms::chat;
use crate::rooms::placement::{HubRequest, Placement, Reopened, ServedRequests};
use crate::rooms::room::{self, RoomHandle};
use crate::rooms::thinkers::Thinkers;
use dominion_protocol::{ErrorCode, RoomSummary};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::watch;

pub struct Hub {
    pub config: Arc<Config>,
    log: Arc<dyn RoomLog>,
    pub metrics: Arc<Metrics>,
    /// Where searching bots think, shared by every room (`--bot-threads`).
    thinkers: Arc<Thinkers>,
    /// The store, for the history API (None when the server keeps nothing).
    pub history: Option<Arc<DurableLog>>,
    rooms: Mutex<BTreeMap<String, RoomHandle>>,
    /// Rooms that could not be reopened after a restart, and why: a client asking for
    /// one is told so instead of "no such room".
    broken: Mutex<BTreeMap<String, String>>,
    connections: AtomicUsize,
    next_conn_id: AtomicU64,
    /// Flips to true when the server shuts down; every connection then closes with 1012.
    shutdown: watch::Sender<bool>,
    /// Rooms each client address may still create (`--rooms-per-address` a minute).
    room_budgets: Mutex<AddressBudgets>,
    /// Rooms each client address created that are open now (`--live-rooms-per-address`).
    live_rooms: Arc<AddressCounts>,
    /// Rooms with searching bots each client address created that are open now
    /// (`--search-rooms-per-address`).
    search_rooms: Arc<AddressCounts>,
    /// Chat lines each client address may still send (`--chat-per-address`), which
    /// every room spends from.
    chat_addresses: Arc<chat::Addresses>,
    /// The cluster this node belongs to, if any (`--cluster`), seen through the interface
    /// the hub owns (see `placement`).
    placement: Option<Arc<dyn Placement>>,
}

/// Addresses whose room budget is remembered at most; past it, the address used least
/// recently is forgotten (see `AddressBudgets`), so the table stays bounded however many
/// addresses connect and never refuses one it does not know.
const ROOM_BUDGETS_KEPT: usize = 4096;

/// The window of the room-creation limits: `--rooms-per-*` rooms a minute.
pub const ROOM_WINDOW: Duration = Duration::from_secs(60);

impl Hub {
    pub fn new(
        config: Arc<Config>,
        log: Arc<dyn RoomLog>,
        metrics: Arc<Metrics>,
        history: Option<Arc<DurableLog>>,
        cluster: Option<(Arc<dyn Placement>, ServedRequests)>,
    ) -> Arc<Hub> {
        let (placement, requests) = cluster.unzip();
        let threads = config
            .bot_threads
            .map_or_else(Thinkers::default_size, usize::from);
        let thinkers = Thinkers::new(threads, metrics.clone());
        let hub = Arc::new(Hub {
            chat_addresses: Arc::new(chat::Addresses::new(config.chat_per_address)),
            config: config.clone(),
            log,
            metrics,
            thinkers,
            history,
            rooms: Mutex::new(BTreeMap::new()),
            broken: Mutex::new(BTreeMap::new()),
            connections: AtomicUsize::new(0),
            next_conn_id: AtomicU64::new(1),
            shutdown: watch::channel(false).0,
            room_budgets: Mutex::new(AddressBudgets::new(
                config.rooms_per_address,
                ROOM_WINDOW,
                ROOM_BUDGETS_KEPT,
            )),
            live_rooms: Arc::default(),
            search_rooms: Arc::default(),
            placement,
        });
        if let Some(ServedRequests(requests)) = requests {
            tokio::spawn(serve_requests(Arc::downgrade(&hub), requests));
        }
        hub
    }

    fn room_budgets(&self) -> MutexGuard<'_, AddressBudgets> {
        self.room_budgets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Spends one room from `addr`'s budget; false when it has created its
    /// `--rooms-per-address` for now.
    pub fn take_room_budget(&self, addr: AddressKey) -> bool {
        self.room_budgets().take(addr, tokio::time::Instant::now())
    }

    /// Gives back the room [`Hub::take_room_budget`] spent, for a `create_room` that was
    /// refused after all: a refused command spends nothing.
    pub fn refund_room_budget(&self, addr: AddressKey) {
        self.room_budgets()
            .refund(addr, tokio::time::Instant::now())
    }

    fn rooms(&self) -> MutexGuard<'_, BTreeMap<String, RoomHandle>> {
        // A panic while holding this lock leaves a plain map behind: keep using it.
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks the settings and starts a room; answers once the room is stored (a room
    /// that could not be stored is refused, never announced).
    /// `creator` is the creating connection's id: the seat it takes is the host's.
    /// `owner` is its client's address key, when known: the room counts against that
    /// address's open rooms (and rooms with searching bots) until it closes.
    pub async fn create_room(
        self: &Arc<Self>,
        settings: &dominion_protocol::RoomSettings,
        creator: Option<u64>,
        owner: Option<AddressKey>,
    ) -> Result<RoomSummary, Refusal> {
        // Settings first: an invalid room costs nothing, not even a word with the cluster.
        let plan = from_wire::room_plan(settings)?;
        let counted = match owner {
            Some(owner) => Some(self.count_room(owner, &plan)?),
            None => None,
        };
        // In a cluster the id is reserved first: its lease taken and the room claimed in
        // the store, so that the room's first write is fenced like every later one.
        let reserved = match self.placement() {
            Some(placement) => Some(
                placement
                    .reserve_new_room()
                    .await
                    .map_err(|why| Refusal::new(ErrorCode::Internal, why))?,
            ),
            None => None,
        };
        let (id, summary, stored) = match self.open_room(plan, creator, reserved.clone(), counted) {
            Ok(opened) => opened,
            Err(refusal) => {
                if let (Some(placement), Some(id)) = (self.placement(), &reserved) {
                    placement.abandon_reservation(id).await;
                }
                return Err(refusal);
            }
        };
        match stored.await {
            Ok(Ok(())) => {
                tracing::info!(room = %id, "room created");
                Ok(summary)
            }
            Ok(Err(_)) | Err(_) => Err(Refusal::new(
                ErrorCode::Internal,
                "the room could not be stored; try again later",
            )),
        }
    }

    /// The places a new room of `owner` takes in its counts: one of its open rooms, and
    /// a claim on one of its rooms with searching bots (held if `plan` has some).
    fn count_room(&self, owner: AddressKey, plan: &from_wire::RoomPlan) -> Result<Owned, Refusal> {
        let config = &self.config;
        let live = self
            .live_rooms
            .try_hold(owner, config.live_rooms_per_address)
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::TooManyRooms,
                    format!(
                        "your address has {} rooms open, the most it may; wait until one closes before creating another",
                        config.live_rooms_per_address
                    ),
                )
            })?;
        let mut search = Claim::new(
            self.search_rooms.clone(),
            owner,
            config.search_rooms_per_address,
        );
        if from_wire::uses_searching_bots(&plan.settings) && !search.hold() {
            return Err(room::search_refusal(config.search_rooms_per_address));
        }
        Ok(Owned { live, search })
    }

    /// Registers and starts a room (it counts against `--max-rooms` from now on); the
    /// receiver says whether it could be stored. `counted` is its place in its creator
    /// address's counts, given back when the room ends (or now, if it does not open).
    fn open_room(
        self: &Arc<Self>,
        plan: from_wire::RoomPlan,
        creator: Option<u64>,
        reserved: Option<String>,
        counted: Option<Owned>,
    ) -> Result<(String, RoomSummary, room::Stored), Refusal> {
        if *self.shutdown.borrow() {
            return Err(Refusal::new(
                ErrorCode::Internal,
                "the server is restarting and opens no new rooms; try again in a moment",
            ));
        }
        let mut rooms = self.rooms();
        if rooms.len() >= self.config.max_rooms {
            return Err(Refusal::new(
                ErrorCode::TooManyRooms,
                format!(
                    "the server holds its maximum of {} rooms; try later",
                    self.config.max_rooms
                ),
            ));
        }
        let id = match reserved {
            Some(id) => id,
            None => loop {
                let id = random_id(8).map_err(|e| {
                    Refusal::new(ErrorCode::Internal, format!("no randomness: {e}"))
                })?;
                if !rooms.contains_key(&id) {
                    break id;
                }
            },
        };
        let (live, search) = counted.map(|c| (c.live, c.search)).unzip();
        let mut cx = self.room_context();
        cx.search_claim = search;
        let (handle, stored) = room::spawn(id.clone(), plan, creator, cx, self.on_room_close(live));
        let summary = handle.summary.borrow().clone();
        rooms.insert(id.clone(), handle.clone());
        drop(rooms);
        if let Some(placement) = self.placement() {
            placement.watch_room(id.clone(), &handle);
        }
        Ok((id, summary, stored))
    }

    /// Reopens a room rebuilt from the store (after a restart, or taken over from another
    /// node), under its old id.
    pub fn restore_room(self: &Arc<Self>, recovered: Recovered) -> Result<RoomHandle, String> {
        let id = recovered.id.clone();
        let handle = room::restore(recovered, self.room_context(), self.on_room_close(None))?;
        self.rooms().insert(id.clone(), handle.clone());
        if let Some(placement) = self.placement() {
            placement.watch_room(id, &handle);
        }
        Ok(handle)
    }

    /// The cluster this node belongs to, if any.
    pub fn placement(&self) -> Option<&Arc<dyn Placement>> {
        self.placement.as_ref()
    }

    /// Stops a room here without ending its game: its viewers are closed (1012, resume
    /// with your token) and its task ends, writing nothing more. Another node runs it
    /// next (its lease was lost, or this node is draining).
    pub fn evict(&self, id: &str) {
        // Unregistered at once, so that nothing new joins it and a takeover of the room
        // (here, later) is not mistaken for it.
        let Some(handle) = self.rooms().remove(id) else {
            return;
        };
        tokio::spawn(async move {
            let _ = handle.tx.send(room::RoomMsg::Evict).await;
        });
    }

    /// A room's summary, wherever it runs.
    pub fn summary_of(&self, id: &str) -> Option<RoomSummary> {
        if let Some(h) = self.room(id) {
            return Some(h.summary.borrow().clone());
        }
        self.placement().and_then(|c| c.other(id))
    }

    fn room_context(&self) -> room::Context {
        room::Context {
            config: self.config.clone(),
            log: self.log.clone(),
            metrics: self.metrics.clone(),
            search_claim: None,
            chat: self.chat_addresses.clone(),
            thinkers: self.thinkers.clone(),
        }
    }

    /// Unregisters a room when its task ends, and gives back its place among its creator
    /// address's open rooms (`live`).
    fn on_room_close(
        self: &Arc<Self>,
        live: Option<Counted>,
    ) -> impl FnOnce(&str, u64) + Send + 'static {
        let hub = Arc::downgrade(self);
        move |id, run| {
            drop(live);
            if let Some(hub) = hub.upgrade() {
                // Only if the registered room is this run of it: an evicted room's id may
                // already belong to the same room taken over again.
                let mut rooms = hub.rooms();
                if rooms.get(id).is_some_and(|h| h.run == run) {
                    rooms.remove(id);
                }
            }
        }
    }

    /// Remembers a room that could not be reopened.
    pub fn note_broken(&self, id: &str, reason: &str) {
        self.broken
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), reason.to_string());
    }

    /// Why a room could not be reopened, if it is one of those.
    pub fn broken_reason(&self, id: &str) -> Option<String> {
        self.broken
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Open WebSocket connections now.
    pub fn open_connections(&self) -> usize {
        self.connections.load(Ordering::Acquire)
    }

    /// Rooms running here now.
    pub fn room_count(&self) -> usize {
        self.rooms().len()
    }

    pub fn room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms().get(id).cloned()
    }

    /// Every room's latest summary, in id order: in a cluster, every node's.
    pub fn list(&self) -> Vec<RoomSummary> {
        let mut rooms: Vec<RoomSummary> = self
            .rooms()
            .values()
            .map(|h| h.summary.borrow().clone())
            .collect();
        if let Some(placement) = self.placement() {
            let here: std::collections::HashSet<String> =
                rooms.iter().map(|r| r.id.clone()).collect();
            rooms.extend(
                placement
                    .others()
                    .into_iter()
                    .filter(|r| !here.contains(&r.id)),
            );
            rooms.sort_by(|a, b| a.id.cmp(&b.id));
        }
        rooms
    }

    /// Counts a new connection, unless the server has as many as it may.
    pub fn admit(self: &Arc<Self>) -> Option<Admission> {
        let max = self.config.max_connections;
        self.connections
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()?;
        self.metrics.connections_open.inc();
        Some(Admission {
            hub: self.clone(),
            id: self.next_conn_id.fetch_add(1, Ordering::Relaxed),
        })
    }

    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Asks every connection to close (1012).
    pub fn shut_down(&self) {
        self.shutdown.send_replace(true);
    }
}

/// A new room's places in its creator address's counts.
struct Owned {
    live: Counted,
    search: Claim,
}

/// One admitted connection: its id, and its place in the count until dropped.
pub struct Admission {
    pub hub: Arc<Hub>,
    pub id: u64,
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.hub.connections.fetch_sub(1, Ordering::AcqRel);
        self.hub.metrics.connections_open.dec();
    }
}

/// Serves the cluster's requests (see `placement`) for as long as the hub lives.
async fn serve_requests(hub: Weak<Hub>, mut requests: tokio::sync::mpsc::Receiver<HubRequest>) {
    while let Some(request) = requests.recv().await {
        let Some(hub) = hub.upgrade() else { return };
        match request {
            HubRequest::Room { id, reply } => {
                let _ = reply.send(hub.room(&id));
            }
            HubRequest::Ids { reply } => {
                let _ = reply.send(hub.rooms().keys().cloned().collect());
            }
            HubRequest::Reopen { room, reply } => {
                let answer = if let Some(handle) = hub.room(&room.id) {
                    Reopened::Running(handle)
                } else if hub.room_count() >= hub.config.max_rooms {
                    Reopened::Full
                } else {
                    match hub.restore_room(*room) {
                        Ok(handle) => {
                            hub.metrics.rooms_taken_over.inc();
                            Reopened::Running(handle)
                        }
                        Err(why) => Reopened::Failed(why),
                    }
                };
                let _ = reply.send(answer);
            }
            HubRequest::Evict { id } => hub.evict(&id),
        }
    }
}
