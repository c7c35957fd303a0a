//! Where the automatch service's answers for one player go: the player's own
//! connection on this node, or — on a cluster's matcher leader — the channel of the
//! node that holds the connection (`cluster`), as text queued until the leader's step
//! is committed. The service writes `conn.send(&msg)` either way.

use crate::rooms::outbox::ConnHandle;
use dominion_protocol::ServerMessage;
use std::sync::{Arc, Mutex};

/// Messages for other nodes: (instance, "key text"), sent after the step's commit.
pub type Outbox = Arc<Mutex<Vec<(u64, String)>>>;

#[derive(Clone, Debug)]
pub struct Peer {
    /// The connection's key in the queue (unique across a cluster's nodes).
    pub id: u64,
    to: To,
}

#[derive(Clone, Debug)]
enum To {
    Local(ConnHandle),
    Remote { instance: u64, out: Outbox },
}

impl Peer {
    pub fn local(conn: ConnHandle) -> Peer {
        Peer {
            id: conn.id,
            to: To::Local(conn),
        }
    }

    pub fn remote(id: u64, instance: u64, out: Outbox) -> Peer {
        Peer {
            id,
            to: To::Remote { instance, out },
        }
    }

    /// This node's connection, if it is one.
    pub fn handle(&self) -> Option<ConnHandle> {
        match &self.to {
            To::Local(conn) => Some(conn.clone()),
            To::Remote { .. } => None,
        }
    }

    /// The node (automatch instance) holding a remote connection.
    pub fn instance(&self) -> Option<u64> {
        match &self.to {
            To::Local(_) => None,
            To::Remote { instance, .. } => Some(*instance),
        }
    }

    /// Queues `msg` without waiting.
    pub fn send(&self, msg: &ServerMessage) -> bool {
        match &self.to {
            To::Local(conn) => conn.send(msg),
            To::Remote { instance, out } => {
                let Ok(text) = serde_json::to_string(msg) else {
                    return false;
                };
                out.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((*instance, format!("{} {text}", self.id)));
                true
            }
        }
    }

    pub fn is_closing(&self) -> bool {
        match &self.to {
            To::Local(conn) => conn.is_closing(),
            To::Remote { .. } => false,
        }
    }
}
