//! A player's Hint: what the Hard bot (`search`) would answer to that player's pending
//! decision, asked with `hint` and sent back as `hint` to that player only.
//!
//! **Where.** Only in an unrated room where every other seat is a bot: against people a
//! hint is help from outside the game, and a rated game must be the player's own. Else
//! `hint_unavailable` says why.
//!
//! **Secrecy by construction.** The hint is `review::hint` over
//! `Observation::for_player` of the asking seat — what that player may know, nothing
//! else — with a fresh random sampling seed (never the game's secret seed), so it tells
//! the player nothing their own view does not hold.
//!
//! **Cost.** It thinks on the server's bot thinkers (`rooms::thinkers`), never on a
//! runtime worker, for at most `--bot-think-ms` of wall clock (the budget of the Hard
//! bot's own moves), waiting for a free thinker if every one is busy. The room does not
//! wait: it thinks on a copy of the game (replayed from its record, milliseconds) while
//! the room runs on, and the room's loop takes the answer when it comes
//! ([`next_hint`]). One hint is in flight per room — and so per player, as only one seat
//! of such a room is a person's; an answer whose decision is no longer pending (answered
//! meanwhile, taken back) is dropped.

use super::*;
use dominion_engine::review;

/// A hint being thought.
pub struct HintJob {
    seat: usize,
    decision: u64,
    answer: tokio::task::JoinHandle<Option<Reply>>,
}

impl Drop for HintJob {
    fn drop(&mut self) {
        // A room that ends (or a hint answered) leaves no task behind.
        self.answer.abort();
    }
}

/// Rooms whose hints fail as if the thinking had panicked: the tests' way to reach the
/// path a real failure takes (a panic in the search, a thinker pool gone).
#[cfg(test)]
pub(super) static FAILING_HINTS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn unavailable(why: &str) -> Refusal {
    Refusal::new(ErrorCode::HintUnavailable, why)
}

/// The answer of the hint in flight, when it comes (never, with none).
pub(super) async fn next_hint(slot: &mut Option<HintJob>) -> (usize, u64, Option<Reply>) {
    match slot {
        Some(job) => {
            let reply = (&mut job.answer).await.ok().flatten();
            (job.seat, job.decision, reply)
        }
        None => std::future::pending().await,
    }
}

impl Room {
    /// `hint` from the connection `conn_id`.
    pub(super) fn hint_command(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only seated players ask for hints")?;
        if self.state.settings.rated {
            return Err(unavailable("hints are not given in rated games"));
        }
        let others_bots = self
            .state
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| i == idx || matches!(s, Seat::Bot { .. }));
        if !others_bots {
            return Err(unavailable(
                "hints are given only in games against bots: every other seat must be a bot",
            ));
        }
        let game = self
            .state
            .game
            .as_ref()
            .ok_or_else(|| unavailable("the game has not started"))?;
        let req = game
            .pending()
            .filter(|r| r.player.idx() == idx)
            .ok_or_else(|| unavailable("no decision of yours is pending"))?
            .clone();
        if self.thinkers.size() == 0 {
            return Err(unavailable(
                "this server's bots do not think (it runs no bot thinkers)",
            ));
        }
        if self.hint.is_some() {
            return Err(unavailable("a hint is already being thought; wait for it"));
        }
        let decision = decision_id(game);
        let record = game.record();
        // Never from the game's seed, which is secret until the end: a hint is a function
        // of the asking player's view and of fresh randomness only.
        let seed = crate::random::random_seed();
        let budget_us = self.config.bot_think_ms.saturating_mul(1000);
        let thinkers = self.thinkers.clone();
        #[cfg(test)]
        let fail = FAILING_HINTS
            .lock()
            .is_ok_and(|rooms| rooms.contains(&self.state.id));
        let answer = tokio::spawn(async move {
            let thinker = thinkers.reserve_waiting().await?;
            thinker
                .run(move || {
                    catch_unwind(AssertUnwindSafe(|| {
                        #[cfg(test)]
                        assert!(!fail, "a hint planted to fail");
                        // The clock starts when the thinking does, not while waiting.
                        let start = std::time::Instant::now();
                        let thinking = bots::Thinking {
                            max_playouts: u32::MAX,
                            budget_us,
                            clock: Some(Arc::new(move || {
                                u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
                            })),
                        };
                        let copy = Game::replay(&record).ok()?;
                        let obs = Observation::for_player(&copy, req.player);
                        Some(review::hint(&obs, &req, seed, &thinking))
                    }))
                    .ok()
                    .flatten()
                })
                .await
                .ok()
                .flatten()
        });
        self.hint = Some(HintJob {
            seat: idx,
            decision,
            answer,
        });
        Ok(())
    }

    /// The hint in flight has an answer: sent to its seat if its decision is still the
    /// pending one.
    pub(super) fn hint_ready(&mut self, seat: usize, decision: u64, reply: Option<Reply>) {
        self.hint = None;
        let Some(game) = &self.state.game else {
            return;
        };
        let still =
            game.pending().is_some_and(|r| r.player.idx() == seat) && decision_id(game) == decision;
        if !still {
            return;
        }
        let Some(conn) = &self.seat_conns[seat] else {
            return;
        };
        let Some(reply) = reply else {
            tracing::warn!(room = %self.state.id, seat, "a hint could not be thought");
            // The command was acknowledged: without a word the page would wait for the
            // hint while the decision stays pending. It may be asked again.
            conn.send(&ServerMessage::Error {
                re: None,
                code: ErrorCode::HintUnavailable,
                message: "the hint could not be thought; ask again".into(),
            });
            return;
        };
        conn.send(&ServerMessage::Hint {
            decision,
            reply: crate::convert::to_wire::reply(&reply),
        });
    }
}
