//! The interface every automatic player implements: answer any request.

use crate::decision::{Reply, Request};
use crate::view::Observation;

/// Something that answers decision requests: a bot, or a test script.
///
/// An agent sees only an [`Observation`] — what its player may know — so a bot cannot
/// peek at deck order or other hands even by accident.
pub trait Agent {
    fn name(&self) -> &str;
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply;

    /// Whether [`Agent::decide`] may think long (a search within a time budget): a server
    /// runs such an agent's decisions where they cannot hold up anything else, and
    /// answers with [`Agent::decide_at_once`] when it has no room for them. False by
    /// default: the other bots answer in microseconds.
    fn thinks(&self) -> bool {
        false
    }

    /// Answers at once, without the long thinking `decide` may do: the answer `decide`
    /// would give with no time at all to think, and whether thinking was skipped (false
    /// when `decide` would not have thought about this request either). The agent's
    /// state moves on exactly as with `decide`, so its later answers do not depend on
    /// which of the two was called, only on the answers given. By default: `decide`.
    /// Whether this agent's later answers are the same whether or not it is asked a phase
    /// move that has one legal answer (an Action phase with nothing to play, a Buy phase
    /// with nothing to play or buy), which rules 2 asks all the same. When true, an
    /// unrecorded game (`Game::play_out` without a record, the simulator's path) gives
    /// that answer itself instead of asking — the only valid answer, so the game is the
    /// same; a recorded game asks every decision. False by default: an agent that counts
    /// or samples per decision (`search`, `random`) must be asked.
    fn unmoved_by_forced_phase_moves(&self) -> bool {
        false
    }

    /// Whether this agent answers every Buy-phase move that offers Treasures with
    /// [`Reply::PlayAllTreasures`](crate::decision::Reply::PlayAllTreasures), whatever else
    /// it sees, and its later answers are the same whether or not it is asked that move.
    /// When true, an unrecorded game plays the Treasures itself instead of building the
    /// request and asking (the same answer, so the same game): in a money game that is
    /// half of all Buy-phase questions. A recorded game asks every decision. False by
    /// default; the priority bots and `standard` play all their Treasures at once.
    fn plays_all_treasures_when_offered(&self) -> bool {
        false
    }

    /// The answer `decide` would give to a Buy-phase move that offers no Treasure to play
    /// (all played, or a card bought already), worked out from the observation alone: that
    /// request's piles are exactly those with cards left whose cost now is at most
    /// [`Observation::coins`]. None (the default): the request is built and `decide`
    /// asked. When it answers, an unrecorded game takes the answer without building the
    /// request (a list of every affordable pile, at the question a simulation asks most);
    /// a recorded game asks every decision. The agent's later answers must be the same
    /// whichever of the two answered.
    fn buy_from_observation(&mut self, _obs: &Observation) -> Option<Reply> {
        None
    }

    fn decide_at_once(&mut self, obs: &Observation, req: &Request) -> (Reply, bool) {
        (self.decide(obs, req), false)
    }
}
