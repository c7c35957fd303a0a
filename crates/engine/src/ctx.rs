//! `Ctx`: what a card's code works with — the state, the event log, and a way to ask.
//!
//! Cards are straight-line functions that call [`Ctx::choose`] (or a helper on top of it)
//! when they need a decision. Where the answer comes from is the [`Answers`] source:
//! bots answer at once (simulations never pause); for humans the answers come from the
//! replies logged so far this turn, and when those run out `choose` returns
//! `Err(Suspend)`, which unwinds the turn. The engine then waits for the reply and runs
//! the turn again from its last resume point (see [`crate::game`]) with one more logged
//! answer; events the re-run re-creates are truncated first, so the log never doubles.
//!
//! **No allocation per decision.** A request's card lists come from `Ctx::list`, which
//! recycles the lists of answered prompts; Clean-up empties hand and play in place, a
//! draw checks the deck once for all its cards, distinct option lists come from a bit
//! set (`CardSet`) instead of a sort; a suspended run leaves its question in
//! `Ctx::suspended` instead of boxing it into the error.
//!
//! **Cards that move themselves** (Feast, Mining Village). Two Feasts are the same
//! `CardId`, so a [`Play`] carries a play number: the how-manieth card put into play this
//! turn, derived from the zones, so nothing is stored per card. [`Ctx::trash_from_play`]
//! records it in `turn.left_play`; a second resolution of the same play (Throne Room)
//! finds it gone and moves nothing. Any later card that moves itself from play goes
//! through this one pair of functions.
//!
//! **Revealed and set-aside cards** live in the player's public `aside` zone while an
//! effect resolves ([`Ctx::reveal_from_deck`], `set_aside_from_hand`, `from_aside`): in
//! neither deck nor discard pile, so a reshuffle mid-effect (Library, Adventurer, Thief,
//! Spy, Bandit) cannot reach them and the census of every card stays exact while a
//! decision is pending. Cards only *looked at* (Sentry) stay on the deck, and only their
//! owner is told what they are. [`Ctx::ensure_deck`] shuffles the discard pile *under* a
//! short deck (the 2E wording; the same cards end in the same places as 1E's).

use crate::afford::Affordable;
use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Mode, Prompt, Purpose, Reply, Request, Zone};
use crate::event::{CardList, Destination, Event};
use crate::state::{PlayerId, State};
use crate::view::Observation;
use rand::seq::SliceRandom;

/// The turn stopped because a question needs an answer no one has given yet; the
/// question is in [`Ctx::suspended`]. (Kept there rather than in the error, which would
/// have to box it to keep every `Res` small: a recorded game suspends at every decision.)
#[derive(Debug)]
pub struct Suspend;

/// The result of any step that may need a decision.
pub type Res<T = ()> = Result<T, Suspend>;

/// Where answers to decisions come from.
pub(crate) enum Answers<'a> {
    /// Ask these agents (one per seat) at once. Used by unrecorded simulations only:
    /// recorded games take every reply through `Game::reply` (or `Game::answer`).
    Agents {
        agents: &'a mut [Box<dyn Agent + Send>],
    },
    /// Answer from replies already validated and logged; suspend when they run out.
    Log {
        replies: &'a [(PlayerId, Reply)],
        pos: usize,
    },
}

/// Keeps `list`'s allocation in `spare` for a later [`Ctx::list`].
fn keep_list(spare: &mut Vec<Vec<CardId>>, mut list: Vec<CardId>) {
    // A handful covers the lists of one request; more would only hoard memory.
    if list.capacity() > 0 && spare.len() < 4 {
        list.clear();
        spare.push(list);
    }
}

/// Keeps the card lists of an answered prompt in `spare`. By value, so that the
/// emptied prompt needs no drop afterwards: a recorded game gives back its answered
/// request's lists (`Game::answer`) at every reply.
#[inline]
pub(crate) fn keep_lists(spare: &mut Vec<Vec<CardId>>, prompt: Prompt) {
    match prompt {
        Prompt::BuyPhase { treasures, buyable } => {
            keep_list(spare, treasures);
            keep_list(spare, buyable);
        }
        Prompt::ActionPhase { playable: l }
        | Prompt::ChooseCards { options: l, .. }
        | Prompt::ChoosePile { options: l, .. }
        | Prompt::OrderCards { cards: l }
        | Prompt::NameCard { options: l } => keep_list(spare, l),
        Prompt::ChooseModes { .. } | Prompt::YesNo | Prompt::ChooseNumber { .. } => {}
    }
}

/// One resolution of a card's effect: which card, and which copy in play it is.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    pub card: CardId,
    /// Which card put into play this turn this is: 0 for the first, 1 for the next…
    /// Two Feasts are the same `CardId`, so this is what tells Throne Room's second
    /// resolution of a Feast that *its* Feast has already left play.
    pub(crate) id: u32,
    /// Players unaffected by this resolution of an Attack (bit per seat).
    pub(crate) immune: u8,
}

/// The phase moves a run has before asking (see [`Ctx::resumed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resumed {
    /// None: the next phase move is asked.
    No,
    /// The run starts at a phase decision already asked: the next logged reply.
    AtDecision,
    /// A Buy-phase move answered at the Action-phase decision (`crate::combined`):
    /// Play all Treasures, then this Buy if any. The coins the Buy was checked with
    /// ride along in debug builds, to be compared with what the Treasures brought.
    Treasures {
        then_buy: Option<(CardId, Option<u32>)>,
    },
    /// The Buy of such a move, once the Treasures are played.
    Buy(CardId, Option<u32>),
}

/// Who is asked, by which card, why, and about whose cards: the fixed part of a request.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    pub player: PlayerId,
    pub card: CardId,
    pub purpose: Purpose,
    pub about: Option<PlayerId>,
}

impl Ask {
    pub fn new(player: PlayerId, card: CardId, purpose: Purpose) -> Ask {
        Ask {
            player,
            card,
            purpose,
            about: None,
        }
    }
    /// The question concerns `p`'s cards (Spy, Thief): said in the request.
    pub fn about(mut self, p: PlayerId) -> Ask {
        self.about = Some(p);
        self
    }
    fn request(self, prompt: Prompt) -> Request {
        Request {
            player: self.player,
            card: Some(self.card),
            about: self.about,
            purpose: self.purpose,
            prompt,
        }
    }
}

/// Where cards taken from a set-aside zone go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Hand,
    Discard,
    /// Onto the deck; several cards go in the given order, the last one ending on top.
    Deck,
    Trash,
}

pub struct Ctx<'a> {
    pub st: &'a mut State,
    pub(crate) answers: Answers<'a>,
    pub(crate) events: Option<&'a mut Vec<Event>>,
    /// Whether any question has been asked (not just forced) in this turn.
    pub(crate) asked: bool,
    /// The phase moves given before their request is built: at the start of a run from
    /// an Action- or Buy-phase decision already asked (a resume point), its logged
    /// reply; after a Buy-phase move answered at the Action-phase decision, the moves
    /// it stands for. `Ctx::resumed_answer` gives them.
    pub(crate) resumed: Resumed,
    /// Emptied card lists of answered requests, for the next requests to fill (see
    /// [`Ctx::list`]). A simulation asks thousands of questions per second, each with one
    /// or two lists; reusing them keeps the allocator out of the loop.
    /// Borrowed from the `Game`, which keeps them between runs: moving the vector in
    /// and out of every run cost more than the pointer.
    pub(crate) spare: &'a mut Vec<Vec<CardId>>,
    /// Which Supply piles each budget affords (the Buy phase's options).
    pub(crate) afford: &'a Affordable,
    /// The question the run stopped at, once `choose` returned `Err(Suspend)`: the
    /// game's pending request itself (None when the run starts), so that a suspended
    /// run's request is written once, where it stays.
    pub(crate) suspended: &'a mut Option<Request>,
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
            self.give_back(req.prompt);
            return Ok(r);
        }
        self.asked = true;
        self.ask(req)
    }

    /// Asks a phase move (Action or Buy phase). From rules 2 it is asked even when its
    /// only legal answer is to end the phase: every viewer sees that a phase move is
    /// asked, so whether it is must follow from public counters (Actions and Buys left),
    /// never from the hand (see `crate::rules`). A move with no real choice does not count
    /// as asked for `State::stuck`.
    pub(crate) fn choose_phase_move(&mut self, req: Request) -> Res<Reply> {
        if !crate::rules::asks_every_phase_move(self.st) {
            return self.choose(req);
        }
        if req.prompt.has_choice() {
            self.asked = true;
        }
        self.ask(req)
    }

    /// Takes `req`'s answer from the logged replies (suspending when they run out) or
    /// from its player's agent.
    #[inline(always)]
    fn ask(&mut self, req: Request) -> Res<Reply> {
        let reply = match &mut self.answers {
            Answers::Log { replies, pos } => match replies.get(*pos) {
                Some((p, r)) => {
                    debug_assert_eq!(*p, req.player, "replayed reply for the wrong player");
                    *pos += 1;
                    r.clone()
                }
                None => {
                    *self.suspended = Some(req);
                    return Err(Suspend);
                }
            },
            Answers::Agents { agents } => {
                let agent = &mut agents[req.player.idx()];
                // A phase move with one legal answer (rules 2 asks it all the same): an
                // agent that is not moved on by it need not be asked; its only valid
                // answer is that one (`Agent::unmoved_by_forced_phase_moves`).
                if agent.unmoved_by_forced_phase_moves()
                    && let Some(reply) = req.prompt.forced_phase_move()
                {
                    self.give_back(req.prompt);
                    return Ok(reply);
                }
                let obs = Observation::new(self.st, req.player);
                let reply = agent.decide(&obs, &req);
                if let Err(e) = crate::combined::validate(self.st, self.afford, &req, &reply) {
                    panic!(
                        "agent {} gave an invalid reply {reply:?} to {req:?}: {e}",
                        agents[req.player.idx()].name()
                    );
                }
                reply
            }
        };
        self.give_back(req.prompt);
        Ok(reply)
    }

    /// Whether a phase move of `p` with one legal answer would be answered without
    /// asking anyone (see `ask`): an unrecorded game whose agent for `p` is not moved
    /// on by such a move, under rules that ask it at all. The turn then need not build
    /// the request (an Action phase with no Action in hand, every turn of a money deck).
    pub(crate) fn forced_phase_move_unasked(&self, p: PlayerId) -> bool {
        match &self.answers {
            Answers::Agents { agents } => {
                agents[p.idx()].unmoved_by_forced_phase_moves()
                    && crate::rules::asks_every_phase_move(self.st)
            }
            Answers::Log { .. } => false,
        }
    }

    /// Whether a Buy-phase move of `p` offering Treasures would be answered with
    /// `PlayAllTreasures` without asking anyone: an unrecorded game whose agent for `p`
    /// says it always answers so (`Agent::plays_all_treasures_when_offered`). The turn
    /// then plays them without building the request.
    pub(crate) fn plays_all_treasures_unasked(&self, p: PlayerId) -> bool {
        match &self.answers {
            Answers::Agents { agents } => agents[p.idx()].plays_all_treasures_when_offered(),
            Answers::Log { .. } => false,
        }
    }

    /// `p`'s agent's answer to a Buy-phase move offering no Treasure, without the
    /// request being built (`Agent::buy_from_observation`); None in a recorded game or
    /// when the agent needs the request. The answer is checked as the request would
    /// check it: a Buy names a pile with cards left within the budget.
    pub(crate) fn buy_unasked(&mut self, p: PlayerId) -> Option<Reply> {
        let Answers::Agents { agents } = &mut self.answers else {
            return None;
        };
        let agent = &mut agents[p.idx()];
        let reply = agent.buy_from_observation(&Observation::new(self.st, p))?;
        // Offered as in the request (`Affordable::fill`).
        let budget = crate::afford::budget(self.st);
        let offered = |pile: &crate::state::Pile| crate::afford::affords(pile, budget);
        match reply {
            Reply::Buy(c) if self.st.pile(c).is_some_and(offered) => self.asked = true,
            // A real choice when any pile was affordable (see `choose_phase_move`).
            Reply::EndPhase => {
                if self.st.supply.iter().any(offered) {
                    self.asked = true;
                }
            }
            _ => panic!(
                "agent {} gave an invalid reply {reply:?} to a Buy phase with no Treasure",
                agent.name()
            ),
        }
        Some(reply)
    }

    /// Whether this game's answers come from agents (an unrecorded game).
    pub(crate) fn answered_by_agents(&self) -> bool {
        matches!(self.answers, Answers::Agents { .. })
    }

    /// The logged answer to the phase decision this run starts at (see `resumed`), once;
    /// None when the run starts elsewhere or that answer has not been given yet.
    pub(crate) fn resumed_answer(&mut self) -> Option<Reply> {
        // Read first, written only when there was something: every phase step of a
        // simulation asks, and nearly always there is nothing.
        match self.resumed {
            Resumed::No => return None,
            Resumed::AtDecision => self.resumed = Resumed::No,
            Resumed::Treasures { then_buy } => {
                self.resumed = match then_buy {
                    Some((card, coins)) => Resumed::Buy(card, coins),
                    None => Resumed::No,
                };
                return Some(Reply::PlayAllTreasures);
            }
            Resumed::Buy(card, coins) => {
                self.resumed = Resumed::No;
                debug_assert!(
                    coins.is_none_or(|c| c == self.st.turn.coins),
                    "the Treasures brought {} coins, not the {coins:?} a Buy answered at \
                     the Action phase was checked with",
                    self.st.turn.coins
                );
                return Some(Reply::Buy(card));
            }
        }
        let Answers::Log { replies, pos } = &mut self.answers else {
            return None;
        };
        let (_, reply) = replies.get(*pos)?;
        *pos += 1;
        // Ending a phase may have been the only answer (rules 2 asks it all the same);
        // `asked` only spares the `State::stuck` check, which is exact either way.
        if *reply != Reply::EndPhase {
            self.asked = true;
        }
        // A phase move's answer is one of these four (`Prompt::validate`): copied inline,
        // as the derived `clone` is a call per recorded reply.
        Some(match *reply {
            Reply::EndPhase => Reply::EndPhase,
            Reply::PlayAllTreasures => Reply::PlayAllTreasures,
            Reply::Play(card) => Reply::Play(card),
            Reply::Buy(card) => Reply::Buy(card),
            ref other => other.clone(),
        })
    }

    /// Stages a Buy-phase move answered at the Action-phase decision (`crate::combined`)
    /// for the Buy phase to start with: Play all Treasures, then `buy` if any.
    pub(crate) fn stage(&mut self, buy: Option<CardId>) {
        let p = self.st.current;
        let coins =
            || cfg!(debug_assertions).then(|| crate::combined::coins_after_treasures(self.st, p));
        self.resumed = Resumed::Treasures {
            then_buy: buy.map(|card| (card, coins())),
        };
    }

    /// An empty card list to build a request's options in: one an answered request gave
    /// back when there is one (what is in it never matters, only its allocation).
    pub(crate) fn list(&mut self) -> Vec<CardId> {
        // A new list gets room for any Supply or hand at once, so it never regrows.
        self.spare.pop().unwrap_or_else(|| Vec::with_capacity(32))
    }

    /// Keeps `list`'s allocation for a later [`Ctx::list`].
    pub(crate) fn keep(&mut self, list: Vec<CardId>) {
        keep_list(self.spare, list);
    }

    /// Keeps the card lists of an answered prompt.
    fn give_back(&mut self, prompt: Prompt) {
        keep_lists(self.spare, prompt);
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
        self.pick(Ask::new(p, card, purpose), zone, options, min, max)
    }

    /// Asks for between `min` and `max` of `options` (clamped to what is offered).
    pub fn pick(
        &mut self,
        ask: Ask,
        zone: Zone,
        options: Vec<CardId>,
        min: usize,
        max: usize,
    ) -> Res<Vec<CardId>> {
        let max = max.min(options.len());
        let min = min.min(max);
        let req = ask.request(Prompt::ChooseCards {
            zone,
            options,
            min: min as u8,
            max: max as u8,
        });
        match self.choose(req)? {
            Reply::Cards(c) => Ok(c),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    /// Asks for a whole number from `min` to `max` (Secret Passage: how many cards go
    /// above the one it places).
    pub fn choose_number(&mut self, ask: Ask, min: u32, max: u32) -> Res<u32> {
        match self.choose(ask.request(Prompt::ChooseNumber { min, max }))? {
            Reply::Number(n) => Ok(n),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    /// Asks to name one of `options` (Wishing Well).
    pub fn name_card(&mut self, ask: Ask, options: Vec<CardId>) -> Res<CardId> {
        match self.choose(ask.request(Prompt::NameCard { options }))? {
            Reply::Name(c) => Ok(c),
            r => unreachable!("validated reply {r:?}"),
        }
    }

    /// Asks for an order of `cards`; the answer lists them with the top card first.
    pub fn order(&mut self, ask: Ask, cards: Vec<CardId>) -> Res<Vec<CardId>> {
        match self.choose(ask.request(Prompt::OrderCards { cards }))? {
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
        self.choose_pile_about(Ask::new(p, card, purpose), optional, filter)
    }

    pub fn yes_no(&mut self, p: PlayerId, card: CardId, purpose: Purpose) -> Res<bool> {
        let req = Ask::new(p, card, purpose).request(Prompt::YesNo);
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
        self.modes(Ask::new(p, card, Purpose::ChooseModes), options, min, max)
    }

    /// Asks for `min..=max` distinct modes of `options` (with `ask.about` set when the
    /// chooser decides for another player's card).
    /// The choice is announced (`Event::ModesChosen`): its effects are public anyway,
    /// and the event is what tells the others why the counters moved.
    pub fn modes(&mut self, ask: Ask, options: Vec<Mode>, min: u8, max: u8) -> Res<Vec<Mode>> {
        let req = ask.request(Prompt::ChooseModes { options, min, max });
        match self.choose(req)? {
            Reply::Modes(m) => {
                self.emit(|| Event::ModesChosen {
                    player: ask.player,
                    card: ask.card,
                    modes: m.clone(),
                });
                Ok(m)
            }
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

    /// Makes sure `p` has at least `n` cards on their deck if they have them at all: when
    /// the deck is short, the discard pile is shuffled and put under it (the 2E wording;
    /// in 1E the deck runs out first, which comes to the same cards in the same places).
    /// Cards in play, set aside or revealed are in neither pile, so they are never
    /// shuffled in. Returns how many cards the deck has (at most `n` are promised).
    pub fn ensure_deck(&mut self, p: PlayerId, n: usize) -> usize {
        let st = &mut *self.st;
        let pl = &mut st.players[p.idx()];
        if pl.deck.len() < n && !pl.discard.is_empty() {
            pl.discard.shuffle(&mut st.rng);
            // The deck's top is its last element: the old deck stays on top. Swapping
            // keeps both piles' allocations (this runs at every reshuffle of a simulation).
            pl.discard.extend_from_slice(&pl.deck);
            std::mem::swap(&mut pl.deck, &mut pl.discard);
            pl.discard.clear();
            self.emit(|| Event::Shuffled { player: p });
        }
        self.st.player(p).deck.len().min(n)
    }

    /// Removes the top card of `p`'s deck (shuffling if needed) and returns it, or None.
    /// The caller decides where it goes.
    pub fn take_top(&mut self, p: PlayerId) -> Option<CardId> {
        if self.ensure_deck(p, 1) > 0 {
            self.st.player_mut(p).deck.pop()
        } else {
            None
        }
    }

    /// `p` looks at the top `n` cards of their deck (after shuffling if it is short;
    /// fewer if there are not that many): returns them top first. They stay on the deck,
    /// where no shuffle can reach them, and only `p` learns what they are.
    pub fn look_at_top(&mut self, p: PlayerId, n: usize) -> Vec<CardId> {
        let k = self.ensure_deck(p, n);
        let cards: Vec<CardId> = self
            .st
            .player(p)
            .deck
            .iter()
            .rev()
            .take(k)
            .copied()
            .collect();
        if !cards.is_empty() {
            let seen = cards.clone();
            self.emit(|| Event::LookedAt {
                player: p,
                count: seen.len(),
                cards: Some(CardList::from_vec(seen)),
            });
        }
        cards
    }

    /// `p` draws up to `n` cards; returns how many were drawn.
    pub fn draw(&mut self, p: PlayerId, n: usize) -> usize {
        let start = self.st.player(p).hand.len();
        // One shuffle check for all `n`: drawing one by one would shuffle at the same
        // moment (when the deck runs out) and put the same cards in the same places.
        let k = self.ensure_deck(p, n);
        let pl = self.st.player_mut(p);
        let rest = pl.deck.len() - k;
        pl.hand.extend(pl.deck[rest..].iter().rev());
        pl.deck.truncate(rest);
        let hand = &self.st.player(p).hand;
        let drawn = hand.len() - start;
        if drawn > 0 && self.events.is_some() {
            let cards = CardList::from_slice(&hand[start..]);
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
        take_one(&mut self.st.player_mut(p).hand, card, "hand", p);
    }

    /// `p` discards `cards` from hand. Others learn how many and the new top of the
    /// discard pile, not each card (the 2E rule for discarding several cards).
    pub fn discard_from_hand(&mut self, p: PlayerId, cards: &[CardId]) {
        for c in cards {
            self.remove_from_hand(p, *c);
            self.st.player_mut(p).discard.push(*c);
        }
        if !cards.is_empty() {
            let top = self.st.player(p).discard.last().copied();
            self.emit(|| Event::Discarded {
                player: p,
                count: cards.len(),
                cards: Some(CardList::from_slice(cards)),
                top,
                private: true,
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

    /// `p` puts `cards` from hand onto their deck, the last one ending on top. `public`
    /// when the cards were revealed (Bureaucrat); otherwise others see only how many.
    pub fn topdeck_from_hand(&mut self, p: PlayerId, cards: &[CardId], public: bool) {
        for c in cards {
            self.remove_from_hand(p, *c);
            self.st.player_mut(p).deck.push(*c);
        }
        if !cards.is_empty() {
            self.emit(|| Event::TopDecked {
                player: p,
                count: cards.len(),
                cards: Some(CardList::from_slice(cards)),
                private: !public,
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

    // ----- set aside: cards revealed or set aside while an effect resolves --------------

    /// `p` reveals up to `n` cards from the top of their deck, one at a time (shuffling
    /// when the deck runs out), into their set-aside zone, where everyone sees them and
    /// no shuffle can reach them. Returns the cards revealed, in order.
    pub fn reveal_from_deck(&mut self, p: PlayerId, n: usize) -> Vec<CardId> {
        let mut cards = Vec::with_capacity(n);
        for _ in 0..n {
            match self.take_top(p) {
                Some(c) => cards.push(c),
                None => break,
            }
        }
        self.st.player_mut(p).aside.extend_from_slice(&cards);
        if !cards.is_empty() {
            self.reveal(p, &cards);
        }
        cards
    }

    /// `p` sets `card` aside from their hand, face up.
    pub fn set_aside_from_hand(&mut self, p: PlayerId, card: CardId) {
        self.remove_from_hand(p, card);
        self.st.player_mut(p).aside.push(card);
        self.emit(|| Event::SetAside {
            player: p,
            cards: vec![card],
        });
    }

    /// Moves `cards` out of `p`'s set-aside zone to `to`. They were seen, so the move is
    /// public.
    pub fn from_aside(&mut self, p: PlayerId, cards: &[CardId], to: To) {
        if cards.is_empty() {
            return;
        }
        for c in cards {
            take_one(&mut self.st.player_mut(p).aside, *c, "set-aside zone", p);
            match to {
                To::Hand => self.st.player_mut(p).hand.push(*c),
                To::Discard => self.st.player_mut(p).discard.push(*c),
                To::Deck => self.st.player_mut(p).deck.push(*c),
                To::Trash => self.st.trash.push(*c),
            }
        }
        let (player, cards) = (p, cards.to_vec());
        let top = self.st.player(p).discard.last().copied();
        self.emit(|| match to {
            To::Hand => Event::PutInHand { player, cards },
            To::Discard => Event::Discarded {
                player,
                count: cards.len(),
                cards: Some(CardList::from_vec(cards)),
                top,
                private: false,
            },
            To::Deck => Event::TopDecked {
                player,
                count: cards.len(),
                cards: Some(CardList::from_vec(cards)),
                private: false,
            },
            To::Trash => Event::Trashed { player, cards },
        });
    }

    /// Everything in `p`'s set-aside zone, to `to`.
    pub fn all_from_aside(&mut self, p: PlayerId, to: To) {
        let cards = self.st.player(p).aside.clone();
        self.from_aside(p, &cards, to);
    }

    // ----- cards that move themselves ---------------------------------------------------------

    /// Whether the card of `play` is still in play (it may have trashed itself during an
    /// earlier resolution of the same play, e.g. the first of Throne Room's two).
    pub fn still_in_play(&self, play: &Play) -> bool {
        !self.st.turn.left_play.contains(&play.id)
    }

    /// Trashes the card of `play` from play, if it is still there. Returns whether it
    /// did: Feast under Throne Room is trashed once; Mining Village pays only then.
    pub fn trash_from_play(&mut self, play: &Play) -> bool {
        if !self.still_in_play(play) {
            return false;
        }
        let p = self.current();
        take_one(
            &mut self.st.player_mut(p).in_play,
            play.card,
            "in-play zone",
            p,
        );
        self.st.turn.left_play.push(play.id);
        self.st.trash.push(play.card);
        self.emit(|| Event::Trashed {
            player: p,
            cards: vec![play.card],
        });
        true
    }

    // ----- other moves -------------------------------------------------------------------

    /// `p` puts their whole deck into their discard pile without looking at it
    /// (Chancellor). Its order is kept, so nothing more is learnt than its top card, which
    /// now lies face up on the discard pile for everyone to see (the event says which).
    pub fn deck_to_discard(&mut self, p: PlayerId) {
        let pl = self.st.player_mut(p);
        let count = pl.deck.len();
        let mut deck = std::mem::take(&mut pl.deck);
        pl.discard.append(&mut deck);
        let top = pl.discard.last().copied();
        if count > 0 {
            self.emit(|| Event::DeckDiscarded {
                player: p,
                count,
                top,
            });
        }
    }

    /// Moves `cards` (the top ones, looked at) from the top of `p`'s deck: `cards` must be
    /// exactly the top `cards.len()` cards, in any order. Used after `look_at_top`.
    pub fn take_from_top(&mut self, p: PlayerId, cards: &[CardId]) {
        let deck = &mut self.st.player_mut(p).deck;
        let split = deck.len() - cards.len();
        let mut top = deck.split_off(split);
        for c in cards {
            take_one(&mut top, *c, "top of the deck", p);
        }
    }

    /// `p` puts `card` from their discard pile onto their deck (Harbinger). Others see
    /// that one card moved, not which.
    pub fn discard_to_deck(&mut self, p: PlayerId, card: CardId) {
        let lowest = crate::rules::harbinger_takes_the_lowest_copy(self.st);
        let pl = self.st.player_mut(p);
        // Copies are identical, so which one moves changes only what others see: only
        // the pile's top is public, and taking the lowest copy changes the top only when
        // the card was nowhere else — so the top never tells which card moved when it
        // could have come from below (rules 2; rules 1 took the copy nearest the top).
        let found = if lowest {
            pl.discard.iter().position(|c| *c == card)
        } else {
            pl.discard.iter().rposition(|c| *c == card)
        };
        let i = found.unwrap_or_else(|| panic!("{card} not in player {p}'s discard pile"));
        pl.discard.remove(i);
        pl.deck.push(card);
        self.emit(|| Event::TopDecked {
            player: p,
            count: 1,
            cards: Some(CardList::from_slice(&[card])),
            private: true,
        });
    }

    /// `p` gains `card` from the trash (Thief) to their discard pile. Returns false if
    /// the trash holds none.
    pub fn gain_from_trash(&mut self, p: PlayerId, card: CardId) -> bool {
        let Some(i) = self.st.trash.iter().rposition(|c| *c == card) else {
            return false;
        };
        self.st.trash.remove(i);
        self.st.player_mut(p).discard.push(card);
        self.emit(|| Event::GainedFromTrash { player: p, card });
        true
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

    /// Whether `v` revealed a Reaction that makes them unaffected by this play.
    pub fn is_immune(&self, play: &Play, v: PlayerId) -> bool {
        play.immune & (1 << v.0) != 0
    }

    /// Runs `f` for each other player, in turn order from the attacker's left, skipping
    /// those who made themselves unaffected by this Attack (see `turn::resolve`).
    pub fn each_victim(
        &mut self,
        play: &Play,
        mut f: impl FnMut(&mut Ctx<'a>, PlayerId) -> Res,
    ) -> Res {
        let me = self.current();
        for v in self.st.others(me) {
            if !self.is_immune(play, v) {
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

    // ----- [cards2] looked-at cards leave the top of the deck (Sentry) ------------------

    /// Moves the cards `p` looked at on top of their deck (see `look_at_top`), all at
    /// once after every decision about them is made: `trash` to the trash (public),
    /// `discard` to the discard pile (others see how many and the new top, as for a
    /// discard from hand), and `back` onto the deck again, `back[0]` ending on top (others
    /// see only how many: the order is secret). Together they must be exactly the top
    /// cards of the deck.
    pub fn sort_looked_at(
        &mut self,
        p: PlayerId,
        trash: &[CardId],
        discard: &[CardId],
        back: &[CardId],
    ) {
        self.take_from_top(p, &[trash, discard, back].concat());
        if !trash.is_empty() {
            self.st.trash.extend_from_slice(trash);
            self.emit(|| Event::Trashed {
                player: p,
                cards: trash.to_vec(),
            });
        }
        if !discard.is_empty() {
            self.st.player_mut(p).discard.extend_from_slice(discard);
            let top = self.st.player(p).discard.last().copied();
            self.emit(|| Event::Discarded {
                player: p,
                count: discard.len(),
                cards: Some(CardList::from_slice(discard)),
                top,
                private: true,
            });
        }
        if !back.is_empty() {
            self.st.player_mut(p).deck.extend(back.iter().rev());
            self.emit(|| Event::TopDecked {
                player: p,
                count: back.len(),
                cards: Some(CardList::from_slice(back)),
                private: true,
            });
        }
    }
    // ----- end [cards2] -----------------------------------------------------------------

    // ----- [i9b] a pile chosen for another player (Swindler) ---------------------------

    /// Like `choose_pile`, with `ask.about` said in the request: the chooser picks the
    /// card another player gains (Swindler).
    pub fn choose_pile_about(
        &mut self,
        ask: Ask,
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
        match self.choose(ask.request(Prompt::ChoosePile { options, optional }))? {
            Reply::Pile(c) => Ok(c),
            r => unreachable!("validated reply {r:?}"),
        }
    }
    // ----- end [i9b] --------------------------------------------------------------------

    // ----- [i9c] cards put into the deck unseen (Scout, Patrol, Secret Passage); a card
    // trashed from the Supply (Lurker)

    /// Puts `cards` from `p`'s set-aside zone back onto their deck, `cards[0]` ending on
    /// top (Scout, Patrol). Everyone saw them revealed, but the order is the player's
    /// secret: others see only how many went back.
    pub fn aside_to_deck_secretly(&mut self, p: PlayerId, cards: &[CardId]) {
        if cards.is_empty() {
            return;
        }
        for c in cards.iter().rev() {
            take_one(&mut self.st.player_mut(p).aside, *c, "set-aside zone", p);
            self.st.player_mut(p).deck.push(*c);
        }
        self.emit(|| Event::TopDecked {
            player: p,
            count: cards.len(),
            cards: Some(CardList::from_slice(cards)),
            private: true,
        });
    }

    /// `p` puts `card` from hand into their deck with `above` cards over it (0: on top;
    /// the deck's size: at the bottom). Others see that one card went into the deck, not
    /// which.
    pub fn hand_into_deck(&mut self, p: PlayerId, card: CardId, above: usize) {
        self.remove_from_hand(p, card);
        let deck = &mut self.st.player_mut(p).deck;
        // The top is the last element: `above` cards end after it.
        let at = deck.len() - above;
        deck.insert(at, card);
        self.emit(|| Event::TopDecked {
            player: p,
            count: 1,
            cards: Some(CardList::from_slice(&[card])),
            private: true,
        });
    }

    /// `p` trashes one `card` from its Supply pile (Lurker). Returns false if the pile
    /// is empty.
    pub fn trash_from_supply(&mut self, p: PlayerId, card: CardId) -> bool {
        let Some(pile) = self.st.supply.iter_mut().find(|pile| pile.card == card) else {
            return false;
        };
        if pile.count == 0 {
            return false;
        }
        pile.count -= 1;
        self.st.trash.push(card);
        self.emit(|| Event::Trashed {
            player: p,
            cards: vec![card],
        });
        true
    }
    // ----- end [i9c] -------------------------------------------------------------------
}

/// Removes one `card` from `zone`. Panics if absent: callers pass cards they validated
/// or just put there.
fn take_one(zone: &mut Vec<CardId>, card: CardId, name: &str, p: PlayerId) {
    let i = zone
        .iter()
        .position(|c| *c == card)
        .unwrap_or_else(|| panic!("{card} not in player {p}'s {name}"));
    zone.remove(i);
}
