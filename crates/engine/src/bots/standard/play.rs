//! The Action phase: which card to play next, or none.
//!
//! Order: Throne Room onto a good card; cantrips (they cost no Action and may draw what
//! the rest needs); a village when a terminal waits in hand (an engine: every village
//! before any terminal, not just the one that frees an Action); then the best terminal —
//! draw first while Actions remain, since it may find payload. Cards whose play would
//! hurt (a Remodel with nothing worth remodelling, a Moneylender without Copper, a
//! Library with 7 cards) are not played.

use super::buy::Status;
use super::eval::{is_dead, is_terminal, late, thin};
use super::plan::Plan;
use super::roles::{Kind, role};
use crate::card::CardId::{self, *};
use crate::view::Observation;

/// The card to play among `playable`, or None to end the Action phase.
pub fn choose(obs: &Observation, plan: &Plan, playable: &[CardId]) -> Option<CardId> {
    let st = Status::read(obs);
    playable
        .iter()
        .copied()
        .filter_map(|c| score(obs, plan, &st, c).map(|s| (s, c)))
        .max()
        .map(|(_, c)| c)
}

/// How much playing `c` now is wanted (higher first), None when it should not be.
pub fn score(obs: &Observation, plan: &Plan, st: &Status, c: CardId) -> Option<i32> {
    let hand = obs.hand();
    let others = |f: &dyn Fn(CardId) -> bool| {
        let mut seen_self = false;
        hand.iter().any(|h| {
            if *h == c && !seen_self {
                seen_self = true;
                return false;
            }
            f(*h)
        })
    };
    let s = match c {
        ThroneRoom => {
            if !others(&|h| h.is_action() && h != ThroneRoom && useful(obs, plan, st, h)) {
                return None;
            }
            95
        }
        Village | Festival | MiningVillage if others(&is_terminal) && obs.actions() == 1 => 78,
        // An engine plays all its villages before its draw: Library draws to 7, so
        // each Festival played first leaves it one more card to draw.
        Village | Festival | MiningVillage if plan.engine.is_some() && others(&is_terminal) => 78,
        Village | MiningVillage => 22,
        Festival => 24,
        // Shanty Town draws only with no Action in hand: last.
        ShantyTown if others(&is_terminal) && obs.actions() == 1 => 78,
        ShantyTown => 5,
        Laboratory => 90,
        Market | GreatHall => 88,
        Merchant | Poacher | Sentry | WishingWell | Harbinger | SecretPassage | Spy => 86,
        Mill | Lurker | Scout => 84,
        Pawn => 82,
        Cellar if hand.iter().filter(|h| is_dead(**h)).count() >= 1 => 70,
        Cellar => return None,
        Upgrade if !useful(obs, plan, st, c) => return None,
        Upgrade => 80,
        // Conspirator is a cantrip only after two other Actions: payload otherwise.
        Conspirator => 45,
        c if !useful(obs, plan, st, c) => return None,
        c if role(c).kind == Kind::Terminal => {
            let r = role(c);
            let draw_bonus = if r.draws && obs.actions() > 1 { 20 } else { 0 };
            30 + i32::from(r.money) / 4 + draw_bonus
        }
        _ => 10,
    };
    Some(s)
}

/// Whether playing `c` does any good with this hand.
pub fn useful(obs: &Observation, plan: &Plan, st: &Status, c: CardId) -> bool {
    let hand = obs.hand();
    let has = |x: CardId| hand.contains(&x);
    match c {
        Moneylender => has(Copper),
        Chapel => hand.iter().any(|h| thin(st, *h, 0)),
        TradingPost => {
            hand.iter()
                .filter(|h| is_dead(**h) || **h == Copper)
                .count()
                >= 2
        }
        Remodel | Replace | Upgrade => super::choices::improve(obs, plan, st, c).is_some(),
        Mine => has(Copper) || has(Silver),
        Library => hand.len() < 8,
        Baron => has(Estate) || late(st),
        _ => true,
    }
}
