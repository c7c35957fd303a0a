//! The way anything reaches a client: a bounded queue per connection that never blocks
//! the sender.
//!
//! Rooms push frames with `try_send`, so a room never awaits a client. A client that
//! stops reading fills its own queue and is then dropped (close code 4003); the room goes
//! on serving everyone else at once. The queue is bounded twice: in frames by the channel
//! (`--outbound-queue`), and in bytes by [`Queued`] (`--outbound-bytes`), since a few
//! large frames (room lists, snapshots) hold more memory than many small ones.

use dominion_protocol::{CloseCode, ServerMessage};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

/// The bytes of text frames queued for one connection and not yet taken by its writer.
#[derive(Debug)]
pub struct Queued {
    bytes: AtomicUsize,
    max: usize,
}

impl Queued {
    pub fn new(max: usize) -> Queued {
        Queued {
            bytes: AtomicUsize::new(0),
            max,
        }
    }

    /// Counts `n` more bytes in, unless that would pass the bound.
    fn add(&self, n: usize) -> bool {
        self.bytes
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
                q.checked_add(n).filter(|t| *t <= self.max)
            })
            .is_ok()
    }

    /// The writer took a frame of `n` bytes off the queue.
    pub fn taken(&self, n: usize) {
        self.bytes.fetch_sub(n, Ordering::AcqRel);
    }

    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }
}

/// One frame on its way to a client.
#[derive(Debug)]
pub enum OutFrame {
    Text(String),
    /// Send a close frame with this code and reason, then nothing more.
    Close(CloseCode, String),
}

/// Asks a connection's task to end, with the close code to give the client.
#[derive(Default, Debug)]
pub struct Kill {
    reason: Mutex<Option<(CloseCode, String)>>,
    notify: Notify,
}

impl Kill {
    /// The first reason wins; later calls only wake the task again.
    pub fn fire(&self, code: CloseCode, reason: &str) {
        if let Ok(mut slot) = self.reason.lock() {
            slot.get_or_insert_with(|| (code, reason.to_string()));
        }
        self.notify.notify_one();
    }

    /// Whether [`Kill::fire`] was called.
    pub fn is_fired(&self) -> bool {
        self.reason.lock().map(|r| r.is_some()).unwrap_or(true)
    }

    /// Waits until [`Kill::fire`] is called (or returns at once if it was).
    pub async fn fired(&self) -> (CloseCode, String) {
        loop {
            if let Some(reason) = self.reason.lock().ok().and_then(|r| r.clone()) {
                return reason;
            }
            self.notify.notified().await;
        }
    }
}

/// A cheap, cloneable handle on one connection: its id, its queue and its kill switch.
#[derive(Clone, Debug)]
pub struct ConnHandle {
    pub id: u64,
    tx: mpsc::Sender<OutFrame>,
    kill: Arc<Kill>,
    queued: Arc<Queued>,
    /// The room that let this connection go (its host removed it), until the
    /// connection notices: a room cannot reach into the connection's own state.
    let_go: Arc<Mutex<Option<String>>>,
}

impl ConnHandle {
    pub fn new(
        id: u64,
        tx: mpsc::Sender<OutFrame>,
        kill: Arc<Kill>,
        queued: Arc<Queued>,
    ) -> ConnHandle {
        ConnHandle {
            id,
            tx,
            kill,
            queued,
            let_go: Arc::default(),
        }
    }

    /// Queues `msg` without waiting. Returns false when the client is gone or was just
    /// dropped for not reading (its task then detaches it from its room).
    pub fn send(&self, msg: &ServerMessage) -> bool {
        let text = match serde_json::to_string(msg) {
            Ok(text) => text,
            Err(e) => {
                tracing::error!(conn = self.id, "cannot serialize a server message: {e}");
                return false;
            }
        };
        self.send_text(text)
    }

    /// Queues a frame already serialized (one relayed from the node that runs the
    /// connection's room), under the same bounds as [`ConnHandle::send`].
    pub fn send_text(&self, text: String) -> bool {
        let n = text.len();
        if !self.queued.add(n) {
            tracing::info!(
                conn = self.id,
                "outbound bytes over the bound: dropping the client"
            );
            self.kill.fire(
                CloseCode::TooSlow,
                "outbound queue full: the client is not reading",
            );
            return false;
        }
        match self.tx.try_send(OutFrame::Text(text)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.queued.taken(n);
                tracing::info!(conn = self.id, "outbound queue full: dropping the client");
                self.kill.fire(
                    CloseCode::TooSlow,
                    "outbound queue full: the client is not reading",
                );
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.queued.taken(n);
                false
            }
        }
    }

    /// Whether the connection is being closed (its room closed it, or its queue filled).
    pub fn is_closing(&self) -> bool {
        self.kill.is_fired()
    }

    /// Ends the connection with `code` (used when another connection takes over its seat).
    pub fn close(&self, code: CloseCode, reason: &str) {
        self.kill.fire(code, reason);
    }

    /// Room `room` no longer has this connection in it (its host removed it).
    pub fn let_go(&self, room: &str) {
        if let Ok(mut slot) = self.let_go.lock() {
            *slot = Some(room.to_string());
        }
    }

    /// The room that let this connection go since the last call, if any.
    pub fn take_let_go(&self) -> Option<String> {
        self.let_go.lock().ok().and_then(|mut slot| slot.take())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_drops_the_client_instead_of_waiting() {
        let (tx, mut rx) = mpsc::channel(2);
        let kill = Arc::new(Kill::default());
        let conn = ConnHandle::new(7, tx, kill.clone(), Arc::new(Queued::new(1 << 20)));
        let msg = ServerMessage::Pong { re: 1 };
        assert!(conn.send(&msg));
        assert!(conn.send(&msg));
        assert!(
            !conn.send(&msg),
            "the third frame does not fit and is not waited for"
        );
        assert_eq!(kill.fired().await.0, CloseCode::TooSlow);
        assert!(
            matches!(rx.recv().await, Some(OutFrame::Text(t)) if t == r#"{"type":"pong","re":1}"#)
        );
        drop(rx);
        assert!(!conn.send(&msg), "a gone client is reported");
    }

    #[tokio::test]
    async fn bytes_over_the_bound_drop_the_client_even_with_frames_to_spare() {
        let (tx, mut rx) = mpsc::channel(100);
        let kill = Arc::new(Kill::default());
        // Room for two pongs (22 bytes each) but not three.
        let queued = Arc::new(Queued::new(50));
        let conn = ConnHandle::new(7, tx, kill.clone(), queued.clone());
        let msg = ServerMessage::Pong { re: 1 };
        assert!(conn.send(&msg) && conn.send(&msg));
        assert_eq!(queued.bytes(), 44);
        assert!(!conn.send(&msg), "the third is over 50 bytes");
        assert_eq!(kill.fired().await.0, CloseCode::TooSlow);
        assert_eq!(queued.bytes(), 44, "the refused frame is not counted");
        // The writer taking a frame makes room again.
        let Some(OutFrame::Text(t)) = rx.recv().await else {
            panic!("a frame")
        };
        queued.taken(t.len());
        assert_eq!(queued.bytes(), 22);
    }
}
