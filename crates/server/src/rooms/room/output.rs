//! Output: who is watching, sending a topic to one viewer or all (always through the
//! per-viewer projection), saving the room, handing it over, and failing it.
//!
//! A frame leaves a room only through `projection::project` for the viewer it goes to,
//! and only into that viewer's outbox. A `room` broadcast also refreshes the summary
//! the hub lists (and a cluster publishes to the shared lobby). A durable step that
//! fails breaks the room; one refused as `LogError::Fenced` does not: another node owns
//! the room now, so this one evicts it — viewers closed with 1012, nothing more written
//! — and the game goes on there.

use super::*;

impl Room {
    pub(super) fn viewers(&self) -> Vec<(Viewer, ConnHandle)> {
        let seats = self.seat_conns.iter().enumerate().filter_map(|(i, c)| {
            c.as_ref()
                .map(|c| (Viewer::Player(PlayerId(i as u8)), c.clone()))
        });
        let spectators = self
            .spectator_conns
            .iter()
            .map(|c| (Viewer::Spectator, c.clone()));
        seats.chain(spectators).collect()
    }

    /// Sends `viewer` its projection of `topic`, if there is one.
    pub(super) fn send_to(&self, conn: &ConnHandle, viewer: Viewer, topic: Topic) {
        if let Some(msg) = projection::project(&self.state, viewer, topic) {
            conn.send(&msg);
        }
    }

    pub(super) fn broadcast(&self, topic: Topic) {
        if matches!(topic, Topic::Room) {
            self.summary_tx
                .send_replace(projection::summary(&self.state));
        }
        for (viewer, conn) in self.viewers() {
            self.send_to(&conn, viewer, topic);
        }
    }

    pub(super) async fn save_room(&mut self) {
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.log_failed(&e);
        }
    }

    /// Stops running the room here; its game goes on at another node. Nothing is written:
    /// the game's log is already complete up to the last acknowledged reply.
    pub(super) fn evict(&mut self) {
        for (_, conn) in self.viewers() {
            conn.close(CloseCode::ServiceRestart, MOVED);
        }
        self.evicted = true;
        self.closing = true;
    }

    /// A durable step failed: the room stops. If it failed because another node owns the
    /// room now (fenced), the room is evicted — its game goes on there; otherwise it is
    /// broken.
    pub(super) fn log_failed(&mut self, e: &LogError) {
        match e {
            LogError::Fenced { .. } => {
                tracing::warn!(room = %self.state.id, "another node owns this room now; stopping here");
                self.evict();
            }
            LogError::Failed(_) => self.fail(&e.to_string()),
        }
    }

    /// Stops the room after an internal failure: its game cannot be trusted any more.
    pub(super) fn fail(&mut self, why: &str) {
        tracing::error!(room = %self.state.id, "room broken: {why}");
        self.state.status = wire::RoomStatus::Broken;
        self.finished_at = Some(Instant::now());
        let msg = broken().to_message(None);
        for (_, conn) in self.viewers() {
            conn.send(&msg);
        }
        self.broadcast(Topic::Room);
    }
}
