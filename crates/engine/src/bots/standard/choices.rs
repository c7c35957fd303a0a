//! Card decisions that choose cards ([`Prompt::ChooseCards`]): trashing, discarding,
//! putting back, passing, revealing, setting aside.
//!
//! Each answer ranks the offered cards and takes the first `min`, then any more that
//! are worth taking. Own choices use [`keep_value`]; a victim's use [`victim_rank`].

use super::buy::{self, Status};
use super::eval::*;
use super::plan::Plan;
use super::play;
use crate::card::CardId::{self, *};
use crate::decision::{Prompt, Purpose, Request, Zone};
use crate::view::Observation;
use std::cmp::Reverse;

/// The first `min` of `ranked`, then each further card `more` accepts, up to `max`.
fn take(
    ranked: &[CardId],
    min: usize,
    max: usize,
    mut more: impl FnMut(&[CardId], CardId) -> bool,
) -> Vec<CardId> {
    let mut chosen = ranked[..min.min(ranked.len())].to_vec();
    for &c in &ranked[chosen.len()..] {
        if chosen.len() < max && more(&chosen, c) {
            chosen.push(c);
        }
    }
    chosen
}

fn coppers(chosen: &[CardId]) -> u32 {
    chosen.iter().filter(|c| **c == Copper).count() as u32
}

/// The best card to trash for a Remodel-like `card` (Remodel, Replace: up to $2 more;
/// Upgrade: exactly $1 more) and what it gains, when that improves the deck.
pub fn improve(
    obs: &Observation,
    plan: &Plan,
    st: &Status,
    card: CardId,
) -> Option<(CardId, CardId)> {
    let mut hand = obs.hand().to_vec();
    if let Some(i) = hand.iter().position(|c| *c == card) {
        hand.remove(i); // the card itself, when asked before it is played
    }
    hand.sort();
    hand.dedup();
    hand.into_iter()
        .filter_map(|t| {
            let bound = obs.cost(t) + if card == Upgrade { 1 } else { 2 };
            let fits = |c: CardId| {
                obs.supply_count(c) > 0
                    && if card == Upgrade {
                        obs.cost(c) == bound
                    } else {
                        obs.cost(c) <= bound
                    }
            };
            let g = gain_target(obs, plan, st, obs.supply_cards().filter(|c| fits(*c)));
            let gain_val = g.map_or(0, |(g, wanted)| {
                if wanted {
                    keep_value(st, g)
                } else {
                    keep_value(st, g).min(0)
                }
            });
            let delta = gain_val - keep_value(st, t);
            (delta > 0).then(|| (delta, t, g.map_or(t, |g| g.0)))
        })
        .max()
        .map(|(_, t, g)| (t, g))
}

/// The card to gain among `options`: the buy ranking's choice (`true`), else the one
/// most worth keeping (`false`), never a card that ends the game in a loss if avoidable.
pub fn gain_target(
    obs: &Observation,
    plan: &Plan,
    st: &Status,
    options: impl Iterator<Item = CardId> + Clone,
) -> Option<(CardId, bool)> {
    if let Some(c) = buy::best(obs, plan, st, options.clone()) {
        return Some((c, true));
    }
    options
        .max_by_key(|c| (buy::may_gain(obs, *c), keep_value(st, *c), *c))
        .map(|c| (c, false))
}

/// Answers a [`Prompt::ChooseCards`].
pub fn cards(obs: &Observation, plan: &Plan, req: &Request) -> Vec<CardId> {
    let Prompt::ChooseCards {
        zone,
        options,
        min,
        max,
    } = &req.prompt
    else {
        return vec![];
    };
    let (zone, min, max) = (*zone, *min as usize, *max as usize);
    let st = Status::read(obs);
    let victim = req.player != obs.current();
    let hand = obs.hand();
    let keep = |c: CardId| keep_value(&st, c);
    let by_keep = || sorted_by(options, keep);
    let none = |_: &[CardId], _| false;
    match (req.purpose, req.card) {
        (Purpose::React, _) | (Purpose::Play, _) => take(options, min, max, |_, _| true),
        (Purpose::PlayTwice, _) => {
            let ranked = sorted_by(options, |c| Reverse(play::score(obs, plan, &st, c)));
            take(&ranked, min, max, |_, c| play::useful(obs, plan, &st, c))
        }
        (Purpose::SetAside, _) => take(options, min, max, |_, _| obs.actions() == 0),
        (Purpose::Reveal, _) => {
            // Courtier: the card with the most types buys the most modes.
            let ranked = sorted_by(options, |c| Reverse(c.types().names().len()));
            take(&ranked, min, max, none)
        }
        // Thief's gains: everything but Copper and Curse; Lurker: the best Action.
        (Purpose::Gain, _) => {
            let ranked = sorted_by(options, |c| Reverse((keep(c), c.base_cost())));
            take(&ranked, min, max, |_, c| c != Copper && c != Curse)
        }
        // Thief: trash the victim's best Treasure.
        (Purpose::Trash, _) if req.about.is_some() => take(
            &sorted_by(options, |c| Reverse(c.base_cost())),
            min,
            max,
            none,
        ),
        // Bandit's victim: lose the cheapest Treasure.
        (Purpose::Trash, _) if victim => {
            take(&sorted_by(options, CardId::base_cost), min, max, none)
        }
        (Purpose::Trash, Some(Moneylender)) => take(options, min, max, |_, _| true),
        (Purpose::Trash, Some(Remodel | Replace | Upgrade)) => {
            let card = req.card.unwrap_or(Remodel);
            match improve(obs, plan, &st, card) {
                Some((t, _)) if options.contains(&t) => vec![t],
                _ => take(&by_keep(), min, max, none),
            }
        }
        (Purpose::Trash, Some(Mine)) => {
            let best = [Silver, Copper]
                .into_iter()
                .find(|t| options.contains(t) && mine_target(obs, *t).is_some());
            match best {
                Some(t) => vec![t],
                None => take(&by_keep(), min, max, none),
            }
        }
        (Purpose::Trash, Some(Masquerade)) => {
            // Only junk, and a Copper only if this turn's buy stays the same.
            let coins = coins_this_turn(obs);
            let now = buy::best_with(obs, plan, &st, coins);
            take(&by_keep(), min, max, |chosen, c| {
                thin(&st, c, coppers(chosen))
                    && (c != Copper || buy::best_with(obs, plan, &st, coins - 1) == now)
            })
        }
        (Purpose::Trash, _) => {
            // Chapel, Steward, Trading Post, Sentry: junk first; Coppers while the deck
            // keeps its money, and not the ones this turn's good buy needs.
            let coins = coins_this_turn(obs);
            let rich = zone == Zone::Hand && coins >= 6;
            take(&by_keep(), min, max, |chosen, c| {
                thin(&st, c, coppers(chosen)) && !(rich && c == Copper)
            })
        }
        (Purpose::Pass, _) => take(&by_keep(), min, max, none),
        (Purpose::Discard, Some(Baron)) => take(options, min, max, |_, _| true),
        // Spy: discard a victim's good card, keep own good card.
        (Purpose::Discard, Some(Spy)) => {
            let theirs = req.about.is_some();
            take(options, min, max, |_, c| is_dead(c) != theirs)
        }
        (Purpose::Discard | Purpose::TopDeck, _) if victim && req.card != Some(SecretChamber) => {
            take(
                &sorted_by(options, |c| victim_rank(hand, c)),
                min,
                max,
                none,
            )
        }
        // Secret Chamber's reaction: keep the best cards, put back the next best (they
        // come back next turn), leave the worst to be discarded.
        (Purpose::TopDeck, Some(SecretChamber)) => {
            let best_first = sorted_by(options, |c| Reverse(victim_rank(hand, c)));
            let skip = best_first.len().saturating_sub(max).min(3);
            take(&best_first[skip..], min, max, none)
        }
        (Purpose::TopDeck, Some(Harbinger)) => {
            let ranked = sorted_by(options, |c| Reverse(keep(c)));
            take(&ranked, min, max, |_, c| !is_dead(c) && c != Copper)
        }
        // Secret Passage: a dead card goes to the bottom (see piles::depth), which
        // takes it out of the next hands; with none, the usual put-back, on top.
        (Purpose::TopDeck, Some(SecretPassage)) if options.iter().any(|c| is_dead(*c)) => {
            take(&sorted_by(options, |c| !is_dead(c)), min, max, none)
        }
        (Purpose::TopDeck, Some(SecretPassage)) => {
            take(&put_back_order(obs, plan, options), min, max, none)
        }
        (Purpose::TopDeck, _) => take(&put_back_order(obs, plan, options), min, max, none),
        (Purpose::Discard, Some(SecretChamber)) => {
            // +$1 per card: dead cards and unplayable Actions are free coins.
            take(&by_keep(), min, max, |_, c| {
                is_dead(c) || (c.is_action() && obs.actions() == 0)
            })
        }
        (Purpose::Discard, _) => {
            // Cellar, Poacher, Sentry, Mill: the dead cards.
            take(&by_keep(), min, max, |_, c| is_dead(c))
        }
        _ => take(&by_keep(), min, max, none),
    }
}

/// Mine: the Treasure it would gain for trashing `t`, if better than `t`.
pub fn mine_target(obs: &Observation, t: CardId) -> Option<CardId> {
    let to = match t {
        Copper => Silver,
        Silver => Gold,
        _ => return None,
    };
    (obs.supply_count(to) > 0 && obs.cost(to) <= obs.cost(t) + 3).then_some(to)
}

/// Put-back order from hand (Courtyard, Artisan, Secret Passage): among the cards
/// whose loss still buys the same this turn (an Action it cannot play, a spare
/// Treasure, a dead card), the one best for the next hand; when every choice costs
/// this turn's buy, the cheapest Treasure.
fn put_back_order(obs: &Observation, plan: &Plan, options: &[CardId]) -> Vec<CardId> {
    let st = Status::read(obs);
    let coins = coins_this_turn(obs);
    let now = buy::best_with(obs, plan, &st, coins);
    let playable_later = obs.actions() > 0;
    sorted_by(options, |c| {
        let costs_buy = (c.is_treasure()
            && buy::best_with(obs, plan, &st, coins - coin_value(c)) != now)
            || (c.is_action() && playable_later);
        let next_turn = if is_dead(c) {
            -1
        } else if c.is_treasure() {
            2 * coin_value(c) as i32
        } else {
            5 + i32::from(c.base_cost())
        };
        (costs_buy, -next_turn)
    })
}
