//! Where rooms run when this node is one of several: the interface the hub owns and a
//! cluster (`crate::cluster::Cluster`) plugs into.
//!
//! Two directions, neither a pointer into the other side:
//! - the hub (and the network layer, through the hub) asks the cluster through the
//!   [`Placement`] trait: reserve an id, publish a room, find where a room runs;
//! - the cluster asks the hub to act on rooms (look one up, reopen one it took over,
//!   stop one whose lease it lost) by sending [`HubRequest`]s on the channel made by
//!   [`requests`]; the hub serves them on a task of its own.
//!
//! So the hub reads, runs and is tested without any cluster (it then has no placement
//! and serves no requests), and the cluster holds no reference to the hub.

use super::room::RoomHandle;
use crate::gamelog::durable::Recovered;
use dominion_protocol::RoomSummary;
use futures_util::future::BoxFuture;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Where a room runs, as the cluster knows it.
pub enum Route {
    /// Here (registered in the hub).
    Local(RoomHandle),
    /// At another node, whose WebSocket is at `addr`.
    Remote { node: String, addr: String },
    /// Nowhere, and the store has no live room of that id.
    Unknown,
}

/// What the hub asks of the cluster it belongs to.
pub trait Placement: Send + Sync + 'static {
    /// A fresh room id whose lease this node now holds and whose first write is fenced.
    fn reserve_new_room(&self) -> BoxFuture<'_, Result<String, String>>;
    /// Gives back an id reserved for a room that was then refused.
    fn abandon_reservation<'a>(&'a self, room: &'a str) -> BoxFuture<'a, ()>;
    /// A room now runs here: publish its summary while it runs, let it go when it ends.
    fn watch_room(&self, room: String, handle: &RoomHandle);
    /// Another node's room, as last read.
    fn other(&self, room: &str) -> Option<RoomSummary>;
    /// Every other node's rooms, as last read.
    fn others(&self) -> Vec<RoomSummary>;
    /// Where `room` runs — here after taking it over, if nobody runs it and it is live.
    fn route<'a>(&'a self, room: &'a str) -> BoxFuture<'a, Route>;
    /// The key nodes present to one another (forwarded connections).
    fn node_key(&self) -> &str;
    /// How long a client's request may keep trying to reach a room whose owner cannot
    /// be reached: until that owner's lease must have expired and the room moved.
    fn reach_within(&self) -> Duration;
}

/// What the cluster asks the hub to do.
pub enum HubRequest {
    /// The room of this id running here, if any.
    Room {
        id: String,
        reply: oneshot::Sender<Option<RoomHandle>>,
    },
    /// The ids of every room running here.
    Ids { reply: oneshot::Sender<Vec<String>> },
    /// Reopen a room taken over from another node, unless this node is full.
    Reopen {
        room: Box<Recovered>,
        reply: oneshot::Sender<Reopened>,
    },
    /// Stop running a room here without ending its game (its lease is gone).
    Evict { id: String },
}

/// The hub's answer to [`HubRequest::Reopen`].
pub enum Reopened {
    Running(RoomHandle),
    /// This node holds `--max-rooms` rooms.
    Full,
    /// The room cannot be reopened (why).
    Failed(String),
}

/// The cluster's end of the request channel.
#[derive(Clone)]
pub struct HubRequests(mpsc::Sender<HubRequest>);

/// The hub's end (given to `Hub::new`).
pub struct ServedRequests(pub(super) mpsc::Receiver<HubRequest>);

/// A request channel between a cluster and the hub.
pub fn requests() -> (HubRequests, ServedRequests) {
    let (tx, rx) = mpsc::channel(64);
    (HubRequests(tx), ServedRequests(rx))
}

impl HubRequests {
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> HubRequest) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.0.send(make(reply)).await.ok()?;
        answer.await.ok()
    }

    /// The room of this id running here (None too when the hub is gone).
    pub async fn room(&self, id: &str) -> Option<RoomHandle> {
        let id = id.to_string();
        self.ask(|reply| HubRequest::Room { id, reply })
            .await
            .flatten()
    }

    /// The ids of every room running here.
    pub async fn ids(&self) -> Vec<String> {
        self.ask(|reply| HubRequest::Ids { reply })
            .await
            .unwrap_or_default()
    }

    /// Reopens a room taken over here.
    pub async fn reopen(&self, room: Recovered) -> Reopened {
        let room = Box::new(room);
        self.ask(|reply| HubRequest::Reopen { room, reply })
            .await
            .unwrap_or_else(|| Reopened::Failed("the server is shutting down".into()))
    }

    /// Stops a room here (no answer awaited).
    pub async fn evict(&self, id: &str) {
        let _ = self.0.send(HubRequest::Evict { id: id.to_string() }).await;
    }
}
