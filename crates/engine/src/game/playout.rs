//! Games that go on from a given state: a searching bot's playouts.
//!
//! A search bot samples a full state consistent with what its player knows (taken at an
//! Action-phase or Buy-phase decision, where no card is being resolved) and plays it to
//! the end with bots. `turn::run_turn` carries on from such a state in the phase it
//! records, so all this needs is an unrecorded game around the state.

use super::Game;
use crate::setup::{Kingdom, Setup};
use crate::state::State;

impl Game {
    /// An unrecorded game that goes on from `state` exactly where it stands (mid-turn,
    /// at an Action- or Buy-phase decision, or at a turn's start); drive it with
    /// [`Game::play_out`]. It has no record: its setup names the state's kingdom and
    /// seed 0, and it must not be replayed.
    pub(crate) fn from_sampled_state(state: State) -> Game {
        let kingdom: Vec<_> = state
            .supply
            .iter()
            .map(|p| p.card)
            .filter(|c| c.is_kingdom())
            .collect();
        let setup = Setup {
            players: state.num_players() as u8,
            kingdom: Kingdom::Cards(kingdom.clone()),
            edition: state.edition,
        };
        Game::around(setup, 0, kingdom, state, Vec::new(), false)
    }
}
