//! The automatch queue as pure logic (docs/protocol.md, "Automatch"): who is waiting,
//! which players suit each other, proposals and their answers. No sockets, no clock, no
//! store: the caller (`net::automatch`) passes the time in milliseconds and acts on the
//! [`queue::Effect`]s returned, so every rule here is tested exactly.
//!
//! - `pairing`: the suitability formulas and the threshold a group must reach.
//! - `queue`: entries in order, proposals, accept/decline/timeout, requeue-first;
//!   `queue::snapshot` its state as data, for a cluster's next leader.
//! - `queue/house`: the bot ladder's house bots, offered to a lone `bots` entry.
//! - `estimate`: the wait a queued player is told to expect.
//! - `shared`: what a queue shared by a cluster's nodes needs (a leader's lease with a
//!   fencing token, one request list, commits that claim each match's members once),
//!   implemented over Redis by `cluster::automatch`. The same [`queue::Matcher`] runs
//!   on one node in memory and on a cluster's leader: only the transport differs.

pub mod estimate;
pub mod pairing;
pub mod queue;
pub mod shared;

/// A player's level: `max(0, 50 + 7.5 (μ − 2φ))` on the Glicko-2 scale, as the
/// ratings compute it (`dominion_rating::level`).
pub fn level(rating: f64, deviation: f64) -> f64 {
    dominion_rating::level(rating, deviation)
}

/// The level of a player with no rated game in a pool (1500 / 350): about 19.78.
pub fn default_level() -> f64 {
    level(1500.0, 350.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_player_starts_near_twenty() {
        assert!(
            (default_level() - 19.7786).abs() < 1e-3,
            "{}",
            default_level()
        );
        assert_eq!(level(0.0, 350.0), 0.0, "never below 0");
    }
}
