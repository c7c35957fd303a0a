//! The complete state of a game: every zone, the turn, and the seeded RNG.
//!
//! `State` is plain data (Clone + serde) so the engine can snapshot it at the start of a
//! turn and so a canonical serialization can be hashed to check a replay.
//!
//! **Intrigue's mechanisms, each in one place.** [`State::cost`] applies this turn's
//! reduction (Bridge) everywhere: buying, every "up to" and "exactly" gain, Swindler,
//! Saboteur, Upgrade; the view carries each pile's cost now. Two-type cards are every
//! type at all times (`Types` is a bit set): pile sizes, scoring (Duke counts Duchies),
//! Ironworks and Tribute read every type. Masquerade's passing is simultaneous: each
//! passer chooses while every chosen card is still in its hand, then all move at once,
//! with no event naming them; `State::passes` keeps who passed what, outside the serialization and the digest, so
//! outsiders' knowledge (and the VP they see) can undo passes they did not see.
//! `TurnState::actions_played` counts every resolution (Conspirator), `copper_bonus` is
//! Coppersmith's; Secret Passage asks a `choose_number` (how many cards above).

use crate::card::{CardId, Edition};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table, 0-based, in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One Supply pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    pub card: CardId,
    pub count: u32,
}

/// One player's zones. Vectors whose top matters keep the top at the end.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub hand: Vec<CardId>,
    /// Draw pile; the top card is the last element.
    pub deck: Vec<CardId>,
    /// Discard pile; the top card is the last element.
    pub discard: Vec<CardId>,
    pub in_play: Vec<CardId>,
    /// Cards revealed or set aside by an effect in progress; never shuffled in.
    pub aside: Vec<CardId>,
    /// Turns this player has taken (counting the current one), for the tie-break.
    pub turns: u32,
}

/// A copy of `zone` with the same room: a snapshot's zones then grow no more often
/// than the game's own (setup gives them room for a typical game).
fn zone_copy(zone: &Vec<CardId>) -> Vec<CardId> {
    let mut copy = Vec::with_capacity(zone.capacity());
    copy.extend_from_slice(zone);
    copy
}

/// `clone_from` copies zone by zone into the existing vectors, reusing their
/// allocations: a recorded game snapshots its state this way at every phase decision
/// (the derived `clone_from` would allocate every zone anew).
impl Clone for PlayerState {
    fn clone(&self) -> Self {
        let PlayerState {
            hand,
            deck,
            discard,
            in_play,
            aside,
            turns,
        } = self;
        PlayerState {
            hand: zone_copy(hand),
            deck: zone_copy(deck),
            discard: zone_copy(discard),
            in_play: zone_copy(in_play),
            aside: zone_copy(aside),
            turns: *turns,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        let PlayerState {
            hand,
            deck,
            discard,
            in_play,
            aside,
            turns,
        } = src;
        self.hand.clone_from(hand);
        self.deck.clone_from(deck);
        self.discard.clone_from(discard);
        self.in_play.clone_from(in_play);
        self.aside.clone_from(aside);
        self.turns = *turns;
    }
}

impl PlayerState {
    /// Every card the player has, in any of their zones.
    pub fn all_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.hand
            .iter()
            .chain(&self.deck)
            .chain(&self.discard)
            .chain(&self.in_play)
            .chain(&self.aside)
            .copied()
    }
    pub fn count_owned(&self, card: CardId) -> usize {
        // Zone by zone: bots ask this at most of their buys, and a plain loop per slice
        // is cheaper than the chained iterator of `all_cards`.
        [
            &self.hand,
            &self.deck,
            &self.discard,
            &self.in_play,
            &self.aside,
        ]
        .into_iter()
        .map(|zone| zone.iter().filter(|c| **c == card).count())
        .sum()
    }
    pub fn card_count(&self) -> usize {
        self.hand.len()
            + self.deck.len()
            + self.discard.len()
            + self.in_play.len()
            + self.aside.len()
    }
}

/// Where the current turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Action,
    Buy,
    Cleanup,
}

/// Counters that live for one turn and are reset at its start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub phase: Phase,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    /// Once a card is bought, no more Treasures may be played.
    pub bought: bool,
    /// Action plays resolved this turn (each play of a Throne-Roomed card counts).
    pub actions_played: u32,
    /// Merchant plays this turn: each gives +$1 on the first Silver played.
    pub merchants: u32,
    pub silver_played: bool,
    /// How much every card costs less this turn (Bridge).
    pub cost_reduction: u32,
    /// Extra coins each Copper played this turn produces (Coppersmith). Omitted from the
    /// serialization while 0, so states that never had one hash as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub copper_bonus: u32,
    /// Cards put into play this turn that have left play since (Feast trashing itself),
    /// by their play number (see `Play::id`). A card played twice by Throne Room reads
    /// this to know whether its second resolution may still move it. Omitted from the
    /// serialization while empty, so states that never had one hash as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_play: Vec<u32>,
}

impl TurnState {
    pub fn new() -> TurnState {
        TurnState {
            phase: Phase::Action,
            actions: 1,
            buys: 1,
            coins: 0,
            bought: false,
            actions_played: 0,
            merchants: 0,
            silver_played: false,
            cost_reduction: 0,
            copper_bonus: 0,
            left_play: Vec::new(),
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for TurnState {
    fn default() -> Self {
        TurnState::new()
    }
}

/// Everything that decides what happens next, except the players' future replies.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub edition: Edition,
    /// Supply piles in a fixed order: basic cards, then the kingdom by cost and name.
    pub supply: Vec<Pile>,
    pub trash: Vec<CardId>,
    pub players: Vec<PlayerState>,
    pub current: PlayerId,
    pub turn: TurnState,
    /// Turns taken so far by all players together.
    pub turn_count: u32,
    pub game_over: bool,
    pub rng: ChaCha8Rng,
    /// Every Masquerade pass so far, in order. Only the passer and the receiver learn
    /// the card, so what the others know of a player's cards is their true cards with
    /// these passes undone; `view::Observation::knowledge` reads this to say so. It
    /// decides nothing in the game: it is left out of the serialization and the digest
    /// (so no stored game's hash moves), and a replay rebuilds it.
    #[serde(skip)]
    pub passes: Vec<SecretPass>,
    /// The rules version this game is played under ([`crate::RULES_VERSION`] for new
    /// games; a stored game keeps the one it was played under). Version 1 skipped phase
    /// moves with one legal answer, offered each *kind* of Reaction once per Attack and
    /// took Harbinger's card from the top of the discard pile; see `crate::rules`. Left
    /// out of the serialization and the digest, like `passes`: stored hashes never move.
    #[serde(skip, default = "crate::rules::current")]
    pub rules: u32,
}

/// One card passed by Masquerade, known only to `from` and `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretPass {
    pub from: PlayerId,
    pub to: PlayerId,
    pub card: CardId,
}

/// `clone_from` reuses the existing allocations (see `PlayerState`'s).
impl Clone for State {
    fn clone(&self) -> Self {
        let State {
            edition,
            supply,
            trash,
            players,
            current,
            turn,
            turn_count,
            game_over,
            rng,
            passes,
            rules,
        } = self;
        State {
            edition: *edition,
            supply: supply.clone(),
            trash: trash.clone(),
            players: players.clone(),
            current: *current,
            turn: turn.clone(),
            turn_count: *turn_count,
            game_over: *game_over,
            rng: rng.clone(),
            passes: passes.clone(),
            rules: *rules,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        let State {
            edition,
            supply,
            trash,
            players,
            current,
            turn,
            turn_count,
            game_over,
            rng,
            passes,
            rules,
        } = src;
        self.edition = *edition;
        self.supply.clone_from(supply);
        self.trash.clone_from(trash);
        self.players.clone_from(players);
        self.current = *current;
        self.turn.clone_from(turn);
        self.turn_count = *turn_count;
        self.game_over = *game_over;
        self.rng.clone_from(rng);
        self.passes.clone_from(passes);
        self.rules = *rules;
    }
}

impl State {
    pub fn num_players(&self) -> usize {
        self.players.len()
    }
    pub fn player(&self, p: PlayerId) -> &PlayerState {
        &self.players[p.idx()]
    }
    pub fn player_mut(&mut self, p: PlayerId) -> &mut PlayerState {
        &mut self.players[p.idx()]
    }
    pub fn pile(&self, card: CardId) -> Option<&Pile> {
        self.supply.iter().find(|p| p.card == card)
    }
    /// Cards left in the Supply pile of `card` (0 if it has no pile).
    pub fn supply_count(&self, card: CardId) -> u32 {
        self.pile(card).map_or(0, |p| p.count)
    }
    /// What `card` costs now, after reductions, never below 0.
    pub fn cost(&self, card: CardId) -> u32 {
        (card.base_cost() as u32).saturating_sub(self.turn.cost_reduction)
    }
    /// The other players in turn order, starting with the one to `p`'s left.
    pub fn others(&self, p: PlayerId) -> impl Iterator<Item = PlayerId> + use<> {
        let n = self.num_players() as u8;
        (1..n).map(move |i| PlayerId((p.0 + i) % n))
    }
    pub fn empty_piles(&self) -> usize {
        // A sum rather than a filtered count: it vectorizes (checked every turn).
        self.supply.iter().map(|p| usize::from(p.count == 0)).sum()
    }
    /// Empty piles that end the game: 3, or 4 with 5–6 players.
    pub fn piles_to_end(&self) -> usize {
        if self.num_players() >= 5 { 4 } else { 3 }
    }
    /// Whether no player can ever do anything again: nobody owns a Treasure or an
    /// Action, and nothing left in the Supply costs $0. Every later turn would then be
    /// empty and no pile could ever run out, so the game ends (the rulebooks have no
    /// such case; it ends rather than turning forever, and is scored as usual).
    pub fn stuck(&self) -> bool {
        let can_act = |c: CardId| c.is_treasure() || c.is_action();
        self.supply
            .iter()
            .all(|p| p.count == 0 || self.cost(p.card) > 0)
            && self.players.iter().all(|pl| !pl.all_cards().any(can_act))
    }

    /// Turns per player after which a game ends whatever else holds. Real games take
    /// 15 to 40; this only stops games no one will ever end — bots whose lists buy
    /// nothing they can afford after trashing their money — from running forever.
    pub const TURN_LIMIT_PER_PLAYER: u32 = 250;

    /// Whether the end condition holds now (checked at the end of each turn): Provinces
    /// gone, 3 (with 5–6 players 4) empty piles, or the turn limit.
    pub fn end_condition(&self) -> bool {
        self.supply_count(CardId::Province) == 0
            || self.empty_piles() >= self.piles_to_end()
            || self.turn_count >= Self::TURN_LIMIT_PER_PLAYER * self.num_players() as u32
    }
}
