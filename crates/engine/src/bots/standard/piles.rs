//! Pile choices (gains, Swindler's gifts, Lurker), naming (Wishing Well), Secret
//! Passage's depth and card orders.

use super::buy::Status;
use super::choices::gain_target;
use super::eval::*;
use super::plan::Plan;
use crate::card::CardId::{self, *};
use crate::decision::{Purpose, Request};
use crate::view::Observation;
use std::cmp::Reverse;

/// Answers a [`Prompt::ChoosePile`](crate::decision::Prompt::ChoosePile).
pub fn pile(
    obs: &Observation,
    plan: &Plan,
    req: &Request,
    options: &[CardId],
    optional: bool,
) -> Option<CardId> {
    let st = Status::read(obs);
    if req.about.is_some() {
        return Some(swindle(&st, options));
    }
    match (req.card, req.purpose) {
        // Lurker: trash the Supply Action it values least (denying nothing it wants).
        (Some(Lurker), Purpose::Trash) => options
            .iter()
            .copied()
            .min_by_key(|c| (keep_value(&st, *c), *c)),
        (Some(Remodel | Replace | Upgrade), Purpose::Gain) => improve_gain(obs, plan, &st, options)
            .or_else(|| fallback(obs, plan, &st, options, optional)),
        (Some(Mine), Purpose::Gain) => options
            .iter()
            .copied()
            .filter(|c| *c != Copper || options.len() == 1)
            .max_by_key(|c| (c.base_cost(), *c))
            .or_else(|| fallback(obs, plan, &st, options, optional)),
        _ => fallback(obs, plan, &st, options, optional),
    }
}

/// The planned gain, if the options hold it.
fn improve_gain(obs: &Observation, plan: &Plan, st: &Status, options: &[CardId]) -> Option<CardId> {
    gain_target(obs, plan, st, options.iter().copied())
        .and_then(|(g, wanted)| (wanted || keep_value(st, g) > 0).then_some(g))
}

/// A gain by the buy ranking; when nothing ranks, nothing if optional, else the
/// option most worth keeping.
fn fallback(
    obs: &Observation,
    plan: &Plan,
    st: &Status,
    options: &[CardId],
    optional: bool,
) -> Option<CardId> {
    match gain_target(obs, plan, st, options.iter().copied()) {
        Some((c, true)) => Some(c),
        Some((c, false)) if !optional => Some(c),
        _ if !optional => options.first().copied(),
        _ => None,
    }
}

/// Swindler's gift to a victim: the worst card for them at that cost — a Curse, a
/// Victory card that only clogs them (not late), else the weakest Action, a Treasure
/// last.
fn swindle(st: &Status, options: &[CardId]) -> CardId {
    let harm = |c: CardId| {
        if c == Curse {
            0
        } else if is_dead(c) && (!late(st) || c == Estate) && c != Province {
            1
        } else if c.is_action() && !c.is_treasure() {
            2
        } else if !c.is_treasure() {
            3
        } else {
            4
        }
    };
    options
        .iter()
        .copied()
        .min_by_key(|c| (harm(*c), keep_value(st, *c), *c))
        .unwrap_or(Curse)
}

/// Wishing Well: the card most common in its draw pile (it knows the make-up, not the
/// order); with an empty draw pile, in what it owns outside its hand.
pub fn name(obs: &Observation, options: &[CardId]) -> CardId {
    let deck_empty = obs.deck_count(obs.me()) == 0;
    let count = |c: CardId| {
        if deck_empty {
            obs.count_owned(c) - obs.hand().iter().filter(|h| **h == c).count()
        } else {
            obs.count_in_deck(c)
        }
    };
    options
        .iter()
        .copied()
        .max_by_key(|c| (count(*c), Reverse(*c)))
        .unwrap_or(Copper)
}

/// Secret Passage: a dead card goes to the bottom, a good one on top.
pub fn depth(passed: Option<CardId>, max: u32) -> u32 {
    match passed {
        Some(c) if is_dead(c) || c == Copper => max,
        _ => 0,
    }
}

/// Orders cards to put on the deck, the first ending on top: best draws first.
pub fn order(cards: &[CardId]) -> Vec<CardId> {
    sorted_by(cards, draw_rank)
}
