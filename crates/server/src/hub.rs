//! The hub: the registry of rooms and the counters every connection shares.
//!
//! It holds no game state — only each room's channel and the latest summary the room
//! published — so its lock is held for a map lookup at most, never across an await.

use crate::budget::Budget;
use crate::config::Config;
use crate::inbound;
use crate::metrics::Metrics;
use crate::persist::{Recovered, StoreLog};
use crate::refusal::Refusal;
use crate::room::{self, RoomHandle};
use crate::store::RoomLog;
use dominion_protocol::{ErrorCode, RoomSummary};
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

pub struct Hub {
    pub config: Arc<Config>,
    log: Arc<dyn RoomLog>,
    pub metrics: Arc<Metrics>,
    /// The store, for the history API (None when the server keeps nothing).
    pub history: Option<Arc<StoreLog>>,
    rooms: Mutex<BTreeMap<String, RoomHandle>>,
    /// Rooms that could not be reopened after a restart, and why: a client asking for
    /// one is told so instead of "no such room".
    broken: Mutex<BTreeMap<String, String>>,
    connections: AtomicUsize,
    next_conn_id: AtomicU64,
    /// Flips to true when the server shuts down; every connection then closes with 1012.
    shutdown: watch::Sender<bool>,
    /// Rooms each client address may still create (`--rooms-per-address` a minute).
    room_budgets: Mutex<HashMap<IpAddr, Budget>>,
}

/// Addresses whose room budget is remembered before full budgets are forgotten: the table
/// stays bounded however many addresses connect.
const ROOM_BUDGETS_KEPT: usize = 4096;

/// The window of the room-creation limits: `--rooms-per-*` rooms a minute.
pub const ROOM_WINDOW: Duration = Duration::from_secs(60);

impl Hub {
    pub fn new(
        config: Arc<Config>,
        log: Arc<dyn RoomLog>,
        metrics: Arc<Metrics>,
        history: Option<Arc<StoreLog>>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            config,
            log,
            metrics,
            history,
            rooms: Mutex::new(BTreeMap::new()),
            broken: Mutex::new(BTreeMap::new()),
            connections: AtomicUsize::new(0),
            next_conn_id: AtomicU64::new(1),
            shutdown: watch::channel(false).0,
            room_budgets: Mutex::new(HashMap::new()),
        })
    }

    /// Spends one room from `addr`'s budget; false when it has created its
    /// `--rooms-per-address` for now.
    pub fn take_room_budget(&self, addr: IpAddr) -> bool {
        let now = tokio::time::Instant::now();
        let mut budgets = self.room_budgets.lock().unwrap_or_else(|e| e.into_inner());
        if budgets.len() >= ROOM_BUDGETS_KEPT && !budgets.contains_key(&addr) {
            budgets.retain(|_, b| !b.full(now));
            if budgets.len() >= ROOM_BUDGETS_KEPT {
                // Every remembered address is busy: refuse newcomers rather than grow.
                return false;
            }
        }
        budgets
            .entry(addr)
            .or_insert_with(|| Budget::new(self.config.rooms_per_address, ROOM_WINDOW, now))
            .take(now)
    }

    fn rooms(&self) -> MutexGuard<'_, BTreeMap<String, RoomHandle>> {
        // A panic while holding this lock leaves a plain map behind: keep using it.
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks the settings and starts a room; answers once the room is stored (a room
    /// that could not be stored is refused, never announced).
    /// `creator` is the creating connection's id: the seat it takes is the host's.
    pub async fn create_room(
        self: &Arc<Self>,
        settings: &dominion_protocol::RoomSettings,
        creator: Option<u64>,
    ) -> Result<RoomSummary, Refusal> {
        let (id, summary, stored) = self.open_room(settings, creator)?;
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

    /// Registers and starts a room (it counts against `--max-rooms` from now on); the
    /// receiver says whether it could be stored.
    fn open_room(
        self: &Arc<Self>,
        settings: &dominion_protocol::RoomSettings,
        creator: Option<u64>,
    ) -> Result<(String, RoomSummary, room::Stored), Refusal> {
        let plan = inbound::room_plan(settings)?;
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
        let id = loop {
            let id = room_id()
                .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
            if !rooms.contains_key(&id) {
                break id;
            }
        };
        let (handle, stored) = room::spawn(
            id.clone(),
            plan,
            creator,
            self.room_context(),
            self.on_room_close(),
        );
        let summary = handle.summary.borrow().clone();
        rooms.insert(id.clone(), handle);
        Ok((id, summary, stored))
    }

    /// Reopens a room rebuilt from the store after a restart, under its old id.
    pub fn restore_room(self: &Arc<Self>, recovered: Recovered) -> Result<(), String> {
        let id = recovered.id.clone();
        let handle = room::restore(recovered, self.room_context(), self.on_room_close())?;
        self.rooms().insert(id, handle);
        Ok(())
    }

    fn room_context(&self) -> room::Context {
        room::Context {
            config: self.config.clone(),
            log: self.log.clone(),
            metrics: self.metrics.clone(),
        }
    }

    /// Unregisters a room when its task ends.
    fn on_room_close(self: &Arc<Self>) -> impl FnOnce(&str) + Send + 'static {
        let hub = Arc::downgrade(self);
        move |id| {
            if let Some(hub) = hub.upgrade() {
                hub.rooms().remove(id);
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

    pub fn room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms().get(id).cloned()
    }

    /// Every room's latest summary, in id order.
    pub fn list(&self) -> Vec<RoomSummary> {
        self.rooms()
            .values()
            .map(|h| h.summary.borrow().clone())
            .collect()
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

/// A short random room id, easy to read aloud: 8 characters without look-alikes.
fn room_id() -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect())
}
