//! Mode choices ([`Prompt::ChooseModes`]) and yes/no questions.

use super::buy::{self, Status};
use super::eval::*;
use super::plan::Plan;
use crate::card::CardId::{self, *};
use crate::decision::{Mode, Request};
use crate::view::Observation;

/// Whether `extra` more coins this turn reach a better buy than the coins it has.
fn coins_help(obs: &Observation, plan: &Plan, st: &Status, extra: u32) -> bool {
    let coins = coins_this_turn(obs);
    buy::best_with(obs, plan, st, coins + extra) != buy::best_with(obs, plan, st, coins)
}

/// Answers a [`Prompt::ChooseModes`](crate::decision::Prompt::ChooseModes).
pub fn modes(
    obs: &Observation,
    plan: &Plan,
    req: &Request,
    options: &[Mode],
    min: usize,
) -> Vec<Mode> {
    let st = Status::read(obs);
    let hand = obs.hand();
    let terminal_waits = hand.iter().any(|c| is_terminal(*c)) && obs.actions() == 0;
    // Steward trashes two only for Curses and Estates: two Coppers are worth the
    // draw or the coins more.
    let junk = hand
        .iter()
        .filter(|c| **c != Copper && thin(&st, **c, 0))
        .count();
    let picked: Vec<Mode> = match req.card {
        Some(Nobles) if terminal_waits => vec![Mode::PlusTwoActions],
        Some(Nobles) => vec![Mode::PlusThreeCards],
        Some(Minion) => {
            // +$2 when it chains Minions or reaches a Gold; else the attack redraws a
            // weaker hand (four cards are worth about $5) and trims the others'.
            if hand.contains(&Minion) || coins_this_turn(obs) + 2 >= 6 {
                vec![Mode::PlusTwoCoins]
            } else {
                vec![Mode::DiscardAndDraw]
            }
        }
        Some(Pawn) if terminal_waits => vec![Mode::PlusCard, Mode::PlusAction],
        Some(Pawn) if obs.buys() == 1 && coins_help(obs, plan, &st, 1) => {
            vec![Mode::PlusCard, Mode::PlusCoin]
        }
        Some(Pawn) => vec![Mode::PlusCard, Mode::PlusCoin],
        Some(Steward) if junk >= 2 => vec![Mode::TrashTwo],
        Some(Steward) if coins_help(obs, plan, &st, 2) => vec![Mode::PlusTwoCoins],
        Some(Steward) => vec![Mode::PlusTwoCards],
        Some(Courtier) => {
            let mut order = vec![Mode::GainGold, Mode::PlusThreeCoins, Mode::PlusBuy];
            if late(&st) || coins_help(obs, plan, &st, 3) {
                order.swap(0, 1);
            }
            if terminal_waits {
                order.insert(1, Mode::PlusAction);
            } else {
                order.push(Mode::PlusAction);
            }
            order.truncate(min);
            order
        }
        Some(Torturer) => {
            let junk = hand
                .iter()
                .filter(|c| is_dead(**c) || **c == Copper)
                .count();
            if junk >= 2 || hand.len() <= 1 || hand.len() > 3 {
                vec![Mode::DiscardTwo]
            } else {
                vec![Mode::GainCurse]
            }
        }
        Some(Lurker) => {
            let worth = obs
                .trash()
                .iter()
                .any(|c| c.is_action() && keep_value(&st, *c) >= 4);
            vec![if worth {
                Mode::GainFromTrash
            } else {
                Mode::TrashFromSupply
            }]
        }
        _ => vec![],
    };
    if picked.len() >= min && picked.iter().all(|m| options.contains(m)) {
        picked
    } else {
        options[..min].to_vec()
    }
}

/// Answers a yes/no question.
pub fn yes_no(obs: &Observation, plan: &Plan, card: Option<CardId>) -> bool {
    let st = Status::read(obs);
    match card {
        // Mill: discard 2 for +$2 when two dead cards (or a dead card and a Copper)
        // are there to go.
        Some(Mill) => {
            let hand = obs.hand();
            let dead = hand.iter().filter(|c| is_dead(**c)).count();
            let copper = hand.contains(&Copper);
            dead >= 2 || (dead == 1 && copper && coins_help(obs, plan, &st, 1))
        }
        // Mining Village: trash it for +$2 only when that buys something better.
        Some(MiningVillage) => coins_help(obs, plan, &st, 2) && late(&st),
        // Chancellor: a reshuffle sooner brings the new cards sooner.
        _ => true,
    }
}
