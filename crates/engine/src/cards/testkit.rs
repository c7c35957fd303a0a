//! Per-card test helpers: build an exact state, script the decisions, assert the zones.

use crate::afford::Affordable;
use crate::card::{CardId, Edition};
use crate::ctx::{Answers, Ctx};
use crate::decision::{Prompt, Reply, Request};
use crate::event::{Event, Viewer};
use crate::game::Game;
use crate::setup::{self, Kingdom, Setup};
use crate::state::{Pile, PlayerId, PlayerState, State, TurnState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub const P0: PlayerId = PlayerId(0);
pub const P1: PlayerId = PlayerId(1);
pub const P2: PlayerId = PlayerId(2);
pub const P3: PlayerId = PlayerId(3);

/// An exact starting position: every implemented card has a Supply pile of its usual
/// size; each player's zones are as given (decks listed top card first).
pub struct Table {
    setup: Setup,
    st: State,
}

pub fn table(players: u8) -> Table {
    let setup = Setup {
        players,
        kingdom: Kingdom::Random,
        edition: Edition::Second,
    };
    let supply = CardId::all()
        .map(|card| Pile {
            card,
            count: setup::pile_size(card, players),
        })
        .collect();
    let st = State {
        edition: Edition::Second,
        supply,
        trash: vec![],
        players: (0..players).map(|_| PlayerState::default()).collect(),
        current: P0,
        turn: TurnState::new(),
        turn_count: 1,
        game_over: false,
        rng: ChaCha8Rng::seed_from_u64(1),
        passes: Vec::new(),
        rules: crate::RULES_VERSION,
    };
    Table { setup, st }
}

impl Table {
    /// Plays under an earlier rules version (see `crate::rules`).
    pub fn rules(mut self, rules: u32) -> Table {
        self.st.rules = rules;
        self
    }
    pub fn edition(mut self, e: Edition) -> Table {
        self.st.edition = e;
        self.setup.edition = e;
        self
    }
    pub fn hand(mut self, p: PlayerId, cards: &[CardId]) -> Table {
        self.st.player_mut(p).hand = cards.to_vec();
        self
    }
    /// `cards[0]` is the top of the deck.
    pub fn deck(mut self, p: PlayerId, cards: &[CardId]) -> Table {
        self.st.player_mut(p).deck = cards.iter().rev().copied().collect();
        self
    }
    pub fn discard(mut self, p: PlayerId, cards: &[CardId]) -> Table {
        self.st.player_mut(p).discard = cards.to_vec();
        self
    }
    pub fn supply(mut self, card: CardId, count: u32) -> Table {
        self.st
            .supply
            .iter_mut()
            .find(|p| p.card == card)
            .unwrap()
            .count = count;
        self
    }
    /// Whose turn it starts (player 0 unless said): attacks from another seat check
    /// that "turn order from the attacker's left" really is.
    pub fn current(mut self, p: PlayerId) -> Table {
        self.st.current = p;
        self
    }
    /// Cards in `p`'s set-aside zone.
    pub fn aside(mut self, p: PlayerId, cards: &[CardId]) -> Table {
        self.st.player_mut(p).aside = cards.to_vec();
        self
    }
    pub fn trash(mut self, cards: &[CardId]) -> Table {
        self.st.trash = cards.to_vec();
        self
    }
    pub fn turns(mut self, p: PlayerId, turns: u32) -> Table {
        self.st.player_mut(p).turns = turns;
        self
    }
    /// Keeps only the basic piles and `cards` in the Supply: a kingdom of exactly these
    /// cards (bots plan from the Supply's cards).
    pub fn kingdom(mut self, cards: &[CardId]) -> Table {
        self.st
            .supply
            .retain(|p| !p.card.is_kingdom() || cards.contains(&p.card));
        self
    }
    /// Empties the Supply piles of every card whose printed cost is at most `cost`.
    pub fn empty_piles_costing_up_to(mut self, cost: u8) -> Table {
        for pile in &mut self.st.supply {
            if pile.card.base_cost() <= cost {
                pile.count = 0;
            }
        }
        self
    }
    /// Runs `f` on a `Ctx` over this exact state, outside any turn: for the card-moving
    /// rules no existing card shows alone (a shuffled discard goes under the deck). Any
    /// question `f` asks suspends. Returns `f`'s result, the state after, and the events.
    pub fn with_ctx<T>(mut self, f: impl FnOnce(&mut Ctx) -> T) -> (T, State, Vec<Event>) {
        let mut events = Vec::new();
        let afford = Affordable::new(&self.st.supply);
        let (mut spare, mut suspended) = (Vec::new(), None);
        let out = f(&mut Ctx {
            st: &mut self.st,
            answers: Answers::Log {
                replies: &[],
                pos: 0,
            },
            events: Some(&mut events),
            asked: false,
            resumed: crate::ctx::Resumed::No,
            spare: &mut spare,
            afford: &afford,
            suspended: &mut suspended,
        });
        (out, self.st, events)
    }
    /// Starts the current player's turn (player 0's unless `current` said otherwise)
    /// and runs to the first decision.
    pub fn start(mut self) -> Game {
        let p = self.st.current;
        self.st.player_mut(p).turns += 1;
        Game::from_state_for_tests(&self.setup, self.st)
    }
}

/// Sorted copy, for comparing zones as multisets.
pub fn sorted(cards: &[CardId]) -> Vec<CardId> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

/// Every card whose printed cost is at most `cost`, in Supply order: what "gain a card
/// costing up to $`cost`" offers from the testkit's full Supply.
pub fn costing_up_to(cost: u8) -> Vec<CardId> {
    CardId::all().filter(|c| c.base_cost() <= cost).collect()
}

pub trait GameExt {
    fn ok(&mut self, p: PlayerId, r: Reply) -> &mut Self;
    fn play(&mut self, card: CardId) -> &mut Self;
    /// Checks that the Action phase is asked with nothing left to play (asked from rules
    /// 2 all the same, see `crate::rules`) and ends it.
    fn end_actions(&mut self) -> &mut Self;
    fn choose(&mut self, p: PlayerId, cards: &[CardId]) -> &mut Self;
    fn req(&self) -> &Request;
    fn prompt(&self) -> &Prompt;
    fn hand(&self, p: PlayerId) -> Vec<CardId>;
    /// Deck, top card first.
    fn deck(&self, p: PlayerId) -> Vec<CardId>;
    fn discard(&self, p: PlayerId) -> Vec<CardId>;
    fn in_play(&self, p: PlayerId) -> Vec<CardId>;
    /// The set-aside / revealed zone, in order.
    fn aside(&self, p: PlayerId) -> Vec<CardId>;
    /// The discard pile in order, bottom first (the last is the top card).
    fn discard_pile(&self, p: PlayerId) -> Vec<CardId>;
    fn trash(&self) -> Vec<CardId>;
    fn coins(&self) -> u32;
    fn actions(&self) -> u32;
    fn buys(&self) -> u32;
    fn supply(&self, c: CardId) -> u32;
    /// The events recorded since the `n`th (`g.events().len()` taken earlier).
    fn events_since(&self, n: usize) -> Vec<Event>;
}

impl GameExt for Game {
    /// Answers `r`. A Buy-phase move (a Treasure, all Treasures, a buy) given while an
    /// Action phase with nothing to play is asked first ends that Action phase, as the
    /// browser does by itself: a scripted player "moves on to buying". (From rules 2 such
    /// a phase is asked; see `crate::rules`.)
    fn ok(&mut self, p: PlayerId, r: Reply) -> &mut Self {
        let buy_move = matches!(r, Reply::PlayAllTreasures | Reply::Buy(_))
            || matches!(r, Reply::Play(c) if !c.is_action());
        if buy_move
            && let Some(Request {
                player,
                prompt: Prompt::ActionPhase { playable },
                ..
            }) = self.pending()
            && *player == p
            && playable.is_empty()
        {
            self.ok(p, Reply::EndPhase);
        }
        if let Err(e) = self.reply(p, r.clone()) {
            panic!(
                "reply {r:?} by {p} refused: {e}; pending {:?}",
                self.pending()
            );
        }
        self
    }
    fn end_actions(&mut self) -> &mut Self {
        let p = self.view(Viewer::Spectator).current;
        assert_eq!(
            self.prompt(),
            &Prompt::ActionPhase { playable: vec![] },
            "an Action phase with nothing to play"
        );
        self.ok(p, Reply::EndPhase)
    }
    fn play(&mut self, card: CardId) -> &mut Self {
        let p = self.view(Viewer::Spectator).current;
        self.ok(p, Reply::Play(card))
    }
    fn choose(&mut self, p: PlayerId, cards: &[CardId]) -> &mut Self {
        self.ok(p, Reply::Cards(cards.to_vec()))
    }
    fn req(&self) -> &Request {
        self.pending().expect("a pending decision")
    }
    fn prompt(&self) -> &Prompt {
        &self.req().prompt
    }
    fn hand(&self, p: PlayerId) -> Vec<CardId> {
        sorted(&self.state().player(p).hand)
    }
    fn deck(&self, p: PlayerId) -> Vec<CardId> {
        self.state().player(p).deck.iter().rev().copied().collect()
    }
    fn discard(&self, p: PlayerId) -> Vec<CardId> {
        sorted(&self.state().player(p).discard)
    }
    fn in_play(&self, p: PlayerId) -> Vec<CardId> {
        self.state().player(p).in_play.clone()
    }
    fn aside(&self, p: PlayerId) -> Vec<CardId> {
        self.state().player(p).aside.clone()
    }
    fn discard_pile(&self, p: PlayerId) -> Vec<CardId> {
        self.state().player(p).discard.clone()
    }
    fn trash(&self) -> Vec<CardId> {
        sorted(&self.state().trash)
    }
    fn coins(&self) -> u32 {
        self.state().turn.coins
    }
    fn actions(&self) -> u32 {
        self.state().turn.actions
    }
    fn buys(&self) -> u32 {
        self.state().turn.buys
    }
    fn supply(&self, c: CardId) -> u32 {
        self.state().supply_count(c)
    }
    fn events_since(&self, n: usize) -> Vec<Event> {
        self.events()[n..].to_vec()
    }
}
