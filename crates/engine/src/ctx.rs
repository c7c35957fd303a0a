//! `Ctx`: what a card's code works with — the state, the event log, and a way to ask.
//!
//! Cards are straight-line functions that call [`Ctx::choose`] (or a helper on top of it)
//! when they need a decision. Where the answer comes from is the [`Answers`] source:
//! bots answer at once (simulations never pause); for humans the answers come from the
//! replies logged so far this turn, and when those run out `choose` returns
//! `Err(Suspend)`, which unwinds the turn. The engine then waits for the reply, restores
//! the turn-start snapshot and runs the turn again with one more logged answer.

use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Mode, Prompt, Purpose, Reply, Request, Zone};
use crate::event::{Destination, Event};
use crate::state::{PlayerId, State};
use crate::view::Observation;
use rand::seq::SliceRandom;

/// The turn stopped because `0` needs an answer no one has given yet.
#[derive(Debug)]
pub struct Suspend(pub Box<Request>);

/// The result of any step that may need a decision.
pub type Res<T = ()> = Result<T, Suspend>;

/// Where answers to decisions come from.
pub(crate) enum Answers<'a> {
    /// Ask these agents (one per seat) at once. Used by unrecorded simulations only:
    /// recorded games take every reply through `Game::reply`.
    Agents {
        agents: &'a mut [Box<dyn Agent + Send>],
    },
    /// Answer from replies already validated and logged; suspend when they run out.
    Log {
        replies: &'a [(PlayerId, Reply)],
        pos: usize,
    },
}

/// One resolution of a card's effect: which card, and which copy in play it is.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    pub card: CardId,
    /// Players unaffected by this resolution of an Attack (bit per seat).
    pub(crate) immune: u8,
}

pub struct Ctx<'a> {
    pub st: &'a mut State,
    pub(crate) answers: Answers<'a>,
    pub(crate) events: Option<&'a mut Vec<Event>>,
}

impl<'a> Ctx<'a> {
    /// Records an event, if this game records events (simulations do not).
    pub fn emit(&mut self, make: impl FnOnce() -> Event) {
        if let Some(ev) = self.events.as_deref_mut() {
            ev.push(make());
        }
    }

    pub fn current(&self) -> PlayerId {
        self.st.current
    }

    /// Asks `req.player`. Questions with only one legal answer are not asked.
    pub fn choose(&mut self, req: Request) -> Res<Reply> {
        if let Some(r) = req.prompt.forced() {
            return Ok(r);
        }
        match &mut self.answers {
            Answers::Log { replies, pos } => match replies.get(*pos) {
                Some((p, r)) => {
                    debug_assert_eq!(*p, req.player, "replayed reply for the wrong player");
                    *pos += 1;
                    Ok(r.clone())
                }
                None => Err(Suspend(Box::new(req))),
            },
            Answers::Agents { agents } => {
                let obs = Observation::new(self.st, req.player);
                let reply = agents[req.player.idx()].decide(&obs, &req);
                if let Err(e) = req.prompt.validate(&reply) {
                    panic!(
                        "agent {} gave an invalid reply {reply:?} to {req:?}: {e}",
                        agents[req.player.idx()].name()
                    );
                }
                Ok(reply)
            }
        }
    }

    // ----- asking helpers -------------------------------------------------------------

    /// Asks `p` to choose between `min` and `max` of `options` (bounds clamped to what
    /// is offered, so "do as much as you can" holds).
    #[allow(clippy::too_many_arguments)]
    pub fn choose_cards(
        &mut self,
        p: PlayerId,
        card: CardId,
        purpose: Purpose,
        zone: Zone,
        options: Vec<CardId>,
        min: usize,
        max: usize,
    ) -> Res<Vec<CardId>> {
        let max = max.min(options.len());
        let min = min.min(max);
        let req = Request {
            player: p,
            card: Some(card),
            purpose,
            prompt: Prompt::ChooseCards {
                zone,
                options,
                min: min as u8,
                max: max as u8,
            },
        };
        match self.choose(req)? {
            Reply::Cards(c) => Ok(c),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    /// Asks `p` to choose cards from their hand matching `filter`.
    pub fn choose_from_hand(
        &mut self,
        p: PlayerId,
        card: CardId,
        purpose: Purpose,
        filter: impl Fn(CardId) -> bool,
        min: usize,
        max: usize,
    ) -> Res<Vec<CardId>> {
        let mut options: Vec<CardId> = self
            .st
            .player(p)
            .hand
            .iter()
            .copied()
            .filter(|c| filter(*c))
            .collect();
        options.sort();
        self.choose_cards(p, card, purpose, Zone::Hand, options, min, max)
    }

    /// Asks `p` to choose a Supply pile (with cards left) whose card passes `filter`.
    pub fn choose_pile(
        &mut self,
        p: PlayerId,
        card: CardId,
        purpose: Purpose,
        optional: bool,
        filter: impl Fn(&State, CardId) -> bool,
    ) -> Res<Option<CardId>> {
        let options: Vec<CardId> = self
            .st
            .supply
            .iter()
            .filter(|pile| pile.count > 0 && filter(self.st, pile.card))
            .map(|pile| pile.card)
            .collect();
        let optional = optional || options.is_empty();
        let req = Request {
            player: p,
            card: Some(card),
            purpose,
            prompt: Prompt::ChoosePile { options, optional },
        };
        match self.choose(req)? {
            Reply::Pile(c) => Ok(c),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    pub fn yes_no(&mut self, p: PlayerId, card: CardId, purpose: Purpose) -> Res<bool> {
        let req = Request {
            player: p,
            card: Some(card),
            purpose,
            prompt: Prompt::YesNo,
        };
        match self.choose(req)? {
            Reply::YesNo(b) => Ok(b),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    pub fn choose_modes(
        &mut self,
        p: PlayerId,
        card: CardId,
        options: Vec<Mode>,
        min: u8,
        max: u8,
    ) -> Res<Vec<Mode>> {
        let req = Request {
            player: p,
            card: Some(card),
            purpose: Purpose::ChooseModes,
            prompt: Prompt::ChooseModes { options, min, max },
        };
        match self.choose(req)? {
            Reply::Modes(m) => Ok(m),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    // ----- turn resources ---------------------------------------------------------------

    pub fn plus_actions(&mut self, n: u32) {
        self.st.turn.actions += n;
    }
    pub fn plus_buys(&mut self, n: u32) {
        self.st.turn.buys += n;
    }
    pub fn plus_coins(&mut self, n: u32) {
        self.st.turn.coins += n;
    }

    // ----- moving cards -------------------------------------------------------------------

    /// Makes sure `p` has a card on their deck, shuffling the discard pile in if needed.
    /// Returns false if there is none even then.
    fn ensure_deck(&mut self, p: PlayerId) -> bool {
        let st = &mut *self.st;
        let pl = &mut st.players[p.idx()];
        if pl.deck.is_empty() {
            if pl.discard.is_empty() {
                return false;
            }
            // 2E: shuffle the discard pile and put it under the deck. The deck is empty
            // here, so that is the whole new deck.
            std::mem::swap(&mut pl.deck, &mut pl.discard);
            pl.deck.shuffle(&mut st.rng);
            self.emit(|| Event::Shuffled { player: p });
        }
        true
    }

    /// Removes the top card of `p`'s deck (shuffling if needed) and returns it, or None.
    /// The caller decides where it goes.
    pub fn take_top(&mut self, p: PlayerId) -> Option<CardId> {
        if self.ensure_deck(p) {
            self.st.player_mut(p).deck.pop()
        } else {
            None
        }
    }

    /// `p` draws up to `n` cards; returns how many were drawn.
    pub fn draw(&mut self, p: PlayerId, n: usize) -> usize {
        let start = self.st.player(p).hand.len();
        for _ in 0..n {
            match self.take_top(p) {
                Some(c) => self.st.player_mut(p).hand.push(c),
                None => break,
            }
        }
        let hand = &self.st.player(p).hand;
        let drawn = hand.len() - start;
        if drawn > 0 && self.events.is_some() {
            let cards = hand[start..].to_vec();
            self.emit(|| Event::Drew {
                player: p,
                count: drawn,
                cards: Some(cards),
            });
        }
        drawn
    }

    /// Removes one `card` from `p`'s hand. Panics if absent: callers pass validated cards.
    pub fn remove_from_hand(&mut self, p: PlayerId, card: CardId) {
        let hand = &mut self.st.player_mut(p).hand;
        let i = hand
            .iter()
            .position(|c| *c == card)
            .unwrap_or_else(|| panic!("{card} not in player {p}'s hand"));
        hand.remove(i);
    }

    /// `p` discards `cards` from hand, in the open.
    pub fn discard_from_hand(&mut self, p: PlayerId, cards: &[CardId]) {
        for c in cards {
            self.remove_from_hand(p, *c);
            self.st.player_mut(p).discard.push(*c);
        }
        if !cards.is_empty() {
            self.emit(|| Event::Discarded {
                player: p,
                count: cards.len(),
                cards: Some(cards.to_vec()),
                private: false,
            });
        }
    }

    /// `p` trashes `cards` from hand.
    pub fn trash_from_hand(&mut self, p: PlayerId, cards: &[CardId]) {
        for c in cards {
            self.remove_from_hand(p, *c);
            self.st.trash.push(*c);
        }
        if !cards.is_empty() {
            self.emit(|| Event::Trashed {
                player: p,
                cards: cards.to_vec(),
            });
        }
    }

    /// `p` reveals `cards` (from hand); they stay where they are.
    pub fn reveal(&mut self, p: PlayerId, cards: &[CardId]) {
        self.emit(|| Event::Revealed {
            player: p,
            cards: cards.to_vec(),
        });
    }

    /// `p` gains `card` from the Supply to `to`. Returns false if the pile is empty.
    pub fn gain(&mut self, p: PlayerId, card: CardId, to: Destination) -> bool {
        let Some(pile) = self.st.supply.iter_mut().find(|pile| pile.card == card) else {
            return false;
        };
        if pile.count == 0 {
            return false;
        }
        pile.count -= 1;
        let pl = self.st.player_mut(p);
        match to {
            Destination::Discard => pl.discard.push(card),
            Destination::Hand => pl.hand.push(card),
            Destination::Deck => pl.deck.push(card),
        }
        self.emit(|| Event::Gained {
            player: p,
            card,
            to,
        });
        true
    }

    // ----- attacks ------------------------------------------------------------------------

    /// Runs `f` for each other player, in turn order from the attacker's left, skipping
    /// those who made themselves unaffected by this Attack (see `turn::resolve`).
    pub fn each_victim(
        &mut self,
        play: &Play,
        mut f: impl FnMut(&mut Ctx<'a>, PlayerId) -> Res,
    ) -> Res {
        let me = self.current();
        for v in self.st.others(me) {
            if play.immune & (1 << v.0) == 0 {
                f(self, v)?;
            }
        }
        Ok(())
    }

    /// Runs `f` for each other player in turn order (for non-Attacks like Council Room).
    pub fn each_other(&mut self, mut f: impl FnMut(&mut Ctx<'a>, PlayerId) -> Res) -> Res {
        let me = self.current();
        for v in self.st.others(me) {
            f(self, v)?;
        }
        Ok(())
    }
}
