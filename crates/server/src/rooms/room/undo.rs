//! Taking back a move in a room: the engine decides whether a move may be taken back
//! (`Game::can_undo`); the room asks the other connected players for their consent, then
//! truncates the game and its stored log together and shows everyone the game as it was.
//!
//! **Consent.** Against bots (or players who are not connected) an undo is immediate:
//! nobody is wronged who could object. Otherwise every other connected player gets
//! `undo_requested` and must accept within [`ANSWER_TIME`]; one refusal, silence, or the
//! asking player answering their decision meanwhile ends the request. Only one request is
//! open at a time.
//!
//! **After.** The game is exactly the replay of the shorter log; the log drops the reply
//! in the same commit that records the digest after the ones kept, awaited like a
//! reply's, so a restart replays to the same state. Everyone gets `undo_result`, then a
//! `snapshot` (event numbers go back: the events of the move are gone), then the asking
//! player its decision again — with the time it had left, not a fresh deadline; a move
//! the server made when the player's time ran out is never taken back (see `clock`). The room remembers the fewest events an undo left, so a
//! client that resumes from beyond them gets a snapshot rather than events it may hold
//! differently.

use super::{Room, broken};
use crate::convert::refusal::Refusal;
use crate::rooms::projection::Topic;
use dominion_engine::PlayerId;
use dominion_protocol::{ErrorCode, UndoOutcome};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use tokio::time::{Duration, Instant};

/// How long the other players have to answer an undo request.
pub const ANSWER_TIME: Duration = Duration::from_secs(30);

/// An undo waiting for the other players' consent.
pub struct UndoRequest {
    pub seat: usize,
    /// The players asked (connected humans other than `seat`).
    pub asked: BTreeSet<usize>,
    pub accepted: BTreeSet<usize>,
    pub deadline: Instant,
}

fn refused(why: impl std::fmt::Display) -> Refusal {
    Refusal::new(ErrorCode::UndoRefused, why.to_string())
}

fn ran_out() -> Refusal {
    refused("your time ran out on that decision and the server answered it: that move stands")
}

impl Room {
    /// `undo` from the connection `conn_id`.
    pub(super) async fn undo_command(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only seated players take back moves")?;
        let game =
            self.state.game.as_ref().ok_or_else(|| {
                Refusal::new(ErrorCode::GameNotStarted, "the game has not started")
            })?;
        game.can_undo(PlayerId(idx as u8)).map_err(refused)?;
        if self.last_move_ran_out(idx) {
            return Err(ran_out());
        }
        if self.undo.is_some() {
            return Err(refused("an undo request is already waiting for answers"));
        }
        let asked: BTreeSet<usize> = (0..self.state.seats.len())
            .filter(|&i| i != idx && self.state.human(i).is_some() && self.seat_conns[i].is_some())
            .collect();
        if asked.is_empty() {
            return self.perform_undo(idx).await;
        }
        self.undo = Some(UndoRequest {
            seat: idx,
            asked,
            accepted: BTreeSet::new(),
            deadline: Instant::now() + ANSWER_TIME,
        });
        self.broadcast(Topic::UndoRequested {
            seat: idx as u8,
            seconds: ANSWER_TIME.as_secs() as u32,
        });
        Ok(())
    }

    /// `undo_answer` from the connection `conn_id`.
    pub(super) async fn undo_answer(
        &mut self,
        conn_id: u64,
        cmd: u64,
        accept: bool,
    ) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only seated players answer")?;
        let waiting = self
            .undo
            .as_ref()
            .is_some_and(|u| u.asked.contains(&idx) && !u.accepted.contains(&idx));
        if !waiting {
            return Err(refused("no undo request is waiting for your answer"));
        }
        if !accept {
            self.end_undo(UndoOutcome::Refused, Some(idx));
            return Ok(());
        }
        let request = self.undo.as_mut().expect("checked above");
        request.accepted.insert(idx);
        if request.accepted == request.asked {
            let seat = request.seat;
            self.undo = None;
            if self.perform_undo(seat).await.is_err() {
                // The move can no longer be taken back (the game moved on): say so.
                self.broadcast(Topic::UndoResult {
                    seat: seat as u8,
                    outcome: UndoOutcome::Cancelled,
                    by: None,
                });
            }
        }
        Ok(())
    }

    /// Ends the open request without taking anything back, telling everyone why.
    pub(super) fn end_undo(&mut self, outcome: UndoOutcome, by: Option<usize>) {
        if let Some(request) = self.undo.take() {
            self.broadcast(Topic::UndoResult {
                seat: request.seat as u8,
                outcome,
                by: by.map(|b| b as u8),
            });
        }
    }

    /// Ends a request whose time is up.
    pub(super) fn expire_undo(&mut self, now: Instant) {
        if self.undo.as_ref().is_some_and(|u| now >= u.deadline) {
            self.end_undo(UndoOutcome::Expired, None);
        }
    }

    /// Takes back `seat`'s last move: engine, then the log (awaited: durable before
    /// anyone hears of it), then every viewer.
    async fn perform_undo(&mut self, seat: usize) -> Result<(), Refusal> {
        if self.last_move_ran_out(seat) {
            return Err(ran_out());
        }
        // The decision pending now keeps what it has left, should it be asked again.
        if let Some(pending) = self.state.game.as_ref().map(|g| g.replies().len() as u64) {
            self.note_time_left(pending, false, Instant::now());
        }
        let Some(game) = self.state.game.as_mut() else {
            return Err(Refusal::new(
                ErrorCode::GameNotStarted,
                "the game has not started",
            ));
        };
        let player = PlayerId(seat as u8);
        // Kept until the log has the undo: if it cannot be stored, the move stands.
        let before = game.record();
        match catch_unwind(AssertUnwindSafe(|| game.undo(player))) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => return Err(refused(why)),
            Err(_) => {
                self.fail("the engine failed while taking back a move");
                return Err(broken());
            }
        }
        let keep = game.replies().len() as u64;
        let digest = game.digest();
        // The fewest events anyone may see now (spectators are never asked anything).
        let events = super::shown::visible(game, dominion_engine::Viewer::Spectator);
        if let Err(e) = self
            .log
            .replies_taken_back(&self.state.id, keep, digest)
            .await
        {
            self.replace_game(&before);
            self.log_failed(&e);
            return Err(broken());
        }
        tracing::info!(room = %self.state.id, seat, keep, "a move was taken back");
        self.undo_floor = Some(self.undo_floor.map_or(events, |f| f.min(events)));
        if let Some(game) = &self.state.game {
            self.shown.catch_up(game);
        }
        self.announced = None;
        self.broadcast(Topic::UndoResult {
            seat: seat as u8,
            outcome: UndoOutcome::Done,
            by: None,
        });
        self.broadcast(Topic::Snapshot);
        self.publish().await;
        Ok(())
    }
}
