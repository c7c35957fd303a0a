//! One playout: a sampled state played to the end by the playout policy, after the
//! searching seat gives the reply being evaluated.

use super::candidates::Resume;
use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Reply, Request};
use crate::event::Destination;
use crate::game::Game;
use crate::score::Score;
use crate::state::{PlayerId, State};
use crate::view::Observation;

/// The bot every seat plays in playouts, and the search bot's answer wherever it does
/// not search. Built by name so the card-aware bot is used as soon as it is registered.
pub const POLICY: &str = "standard";

pub fn policy(seed: u64) -> Box<dyn Agent + Send> {
    super::super::by_name(POLICY, seed).expect("the playout policy is a registered bot")
}

/// Gives `first` to the first question it is asked (the decision being searched), then
/// answers as the policy.
struct FirstThen {
    first: Option<Reply>,
    then: Box<dyn Agent + Send>,
}

impl Agent for FirstThen {
    fn name(&self) -> &str {
        "search-playout"
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match self.first.take() {
            Some(r) if req.prompt.validate(&r).is_ok() => r,
            _ => self.then.decide(obs, req),
        }
    }

    // Once its first answer is given (or when it has none) it is the policy and nothing
    // else, so it may be spared questions as the policy is; before, every question must
    // reach it, the first one being the decision searched.
    fn unmoved_by_forced_phase_moves(&self) -> bool {
        self.first.is_none() && self.then.unmoved_by_forced_phase_moves()
    }

    fn plays_all_treasures_when_offered(&self) -> bool {
        self.first.is_none() && self.then.plays_all_treasures_when_offered()
    }

    fn buy_from_observation(&mut self, obs: &Observation) -> Option<Reply> {
        if self.first.is_some() {
            return None;
        }
        self.then.buy_from_observation(obs)
    }
}

/// Plays `state` (at `me`'s decision) to the end, `me` answering `first` first (or,
/// after a card's ending gain, making that gain); every seat is the policy, seeded from
/// `seed`. Returns `me`'s result (see [`value`]).
pub fn playout(state: State, me: PlayerId, first: &Reply, resume: Resume, seed: u64) -> f64 {
    value(&playout_scores(state, me, first, resume, seed), me)
}

/// [`playout`]'s final scores, for callers that need the win apart from the margin
/// (the game review reports a win chance).
pub fn playout_scores(
    mut state: State,
    me: PlayerId,
    first: &Reply,
    resume: Resume,
    seed: u64,
) -> Vec<Score> {
    let first = match (resume, first) {
        (Resume::Ask, r) => Some(r.clone()),
        (Resume::AfterGain(to), Reply::Pile(card)) => {
            if let Some(card) = card {
                gain(&mut state, me, *card, to);
            }
            None
        }
        (Resume::AfterGain(_), r) => unreachable!("a gain is a pile, not {r:?}"),
        (Resume::AfterTrash, Reply::Cards(cards)) => {
            trash_from_hand(&mut state, me, cards);
            None
        }
        (Resume::AfterTrash, r) => unreachable!("a trash is cards, not {r:?}"),
    };
    let n = state.num_players();
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..n)
        .map(|i| policy(seed.wrapping_add(i as u64)))
        .collect();
    let then = std::mem::replace(&mut agents[me.idx()], policy(seed));
    agents[me.idx()] = Box::new(FirstThen { first, then });
    let mut game = Game::from_sampled_state(state);
    game.play_out(&mut agents);
    game.scores()
}

/// `me`'s share of the win alone: 1, 1/k in a k-way tie, else 0.
pub fn win_share(scores: &[Score], me: PlayerId) -> f64 {
    let winners = scores.iter().filter(|s| s.winner).count().max(1);
    if scores[me.idx()].winner {
        1.0 / winners as f64
    } else {
        0.0
    }
}

/// Gains `card` to `p`'s `to`, as `Ctx::gain` does (no card of these sets reacts to a
/// gain): one fewer in its pile, one more where it goes.
pub(super) fn gain(st: &mut State, p: PlayerId, card: CardId, to: Destination) {
    let Some(pile) = st
        .supply
        .iter_mut()
        .find(|pile| pile.card == card && pile.count > 0)
    else {
        return;
    };
    pile.count -= 1;
    let pl = st.player_mut(p);
    match to {
        Destination::Discard => pl.discard.push(card),
        Destination::Hand => pl.hand.push(card),
        Destination::Deck => pl.deck.push(card),
    }
}

/// Trashes `cards` from `p`'s hand, as `Ctx::trash_from_hand` does (no card of these
/// sets reacts to a trash from hand in a way a playout would miss).
pub(super) fn trash_from_hand(st: &mut State, p: PlayerId, cards: &[CardId]) {
    for c in cards {
        let hand = &mut st.player_mut(p).hand;
        if let Some(at) = hand.iter().position(|h| h == c) {
            hand.remove(at);
            st.trash.push(*c);
        }
    }
}

/// A playout's worth to `me`: its share of the win (1, or 1/k when k players tie),
/// plus a small term for the VP margin over the best other player, so that among
/// options that all win (or all lose) the one that does so by more is preferred.
pub fn value(scores: &[Score], me: PlayerId) -> f64 {
    let mine = &scores[me.idx()];
    let share = win_share(scores, me);
    let best_other = scores
        .iter()
        .filter(|s| s.player != me)
        .map(|s| s.vp)
        .max()
        .unwrap_or(mine.vp);
    let margin = f64::from((mine.vp - best_other).clamp(-40, 40)) / 40.0;
    share + MARGIN_WEIGHT * margin
}

/// How much the VP margin counts next to a win (1): enough to break ties between
/// equal win rates, too little to trade a win for points.
const MARGIN_WEIGHT: f64 = 0.05;
