//! What changed between rules versions, each in one named place.
//!
//! A game is a function of (setup, seed, replies) *under its rules version*: a stored
//! game is replayed under the version it was played under, so every change that makes an
//! existing record play out differently keeps the old behaviour behind one of these
//! predicates. Version 2 (this release) changed three things, all for secrecy or the
//! rulebook's letter:
//!
//! - [`asks_every_phase_move`]: the Action-phase move is asked whenever the player has an
//!   Action left, and the Buy-phase move whenever a Buy is left, even when the only
//!   answer is to end the phase. Version 1 skipped them when nothing could be played or
//!   bought, so everyone saw whether a player held an Action card.
//! - [`reactions_per_copy`]: each *copy* of a Reaction may be revealed once per Attack
//!   (the Intrigue rulebook: several Reactions, one after another). Version 1 offered
//!   each *kind* once, so a second Secret Chamber or Diplomat was never offered.
//! - [`harbinger_takes_the_lowest_copy`]: a card taken from the discard pile is the
//!   lowest copy of its kind, so the pile's public top changes only when the card could
//!   not come from below it. Version 1 took the highest copy, so everyone saw which card
//!   went onto the deck.

use crate::state::State;

/// The version new games are played under (`serde` default for a state read back).
pub(crate) fn current() -> u32 {
    crate::RULES_VERSION
}

/// Phase moves are asked even with one legal answer (version 2 on).
pub(crate) fn asks_every_phase_move(st: &State) -> bool {
    st.rules >= 2
}

/// Each copy of a Reaction may be revealed once per Attack (version 2 on).
pub(crate) fn reactions_per_copy(st: &State) -> bool {
    st.rules >= 2
}

/// A card taken from the discard pile is its lowest copy (version 2 on).
pub(crate) fn harbinger_takes_the_lowest_copy(st: &State) -> bool {
    st.rules >= 2
}
