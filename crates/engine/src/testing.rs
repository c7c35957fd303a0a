//! What the non-interference tests of the engine and the server share (not a bot for
//! players: `bots::by_name` does not know it).

use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Prompt, Reply, Request};
use crate::view::Observation;

/// Cards whose questions depend on what a hand holds (or once showed it): test kingdoms
/// hold one of them often, so those questions come up.
pub const SECRET_PRONE: [CardId; 12] = [
    CardId::Masquerade,
    CardId::Baron,
    CardId::Library,
    CardId::Militia,
    CardId::Torturer,
    CardId::Sentry,
    CardId::Moat,
    CardId::SecretChamber,
    CardId::Diplomat,
    CardId::Harbinger,
    CardId::Chancellor,
    CardId::Courtyard,
];

/// A bot that declines every optional choice a card offers (no card, no pile, no) and
/// leaves the rest (phase moves, choices that must be made) to another bot. Whether such
/// a player was asked or not, what follows is often the same, which is when a question
/// asked in one world only would show as a leak.
pub struct Declining(pub Box<dyn Agent + Send>);

impl Agent for Declining {
    fn name(&self) -> &str {
        "declining"
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match &req.prompt {
            Prompt::ChooseCards { min: 0, .. } => Reply::Cards(Vec::new()),
            Prompt::ChoosePile { optional: true, .. } => Reply::Pile(None),
            Prompt::YesNo => Reply::YesNo(false),
            _ => self.0.decide(obs, req),
        }
    }
}
