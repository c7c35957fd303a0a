//! Turns the plan and the game state into a buy (or a gain): every card gets a rank,
//! lower is better, `None` when the bot does not want it now.
//!
//! The same ranking answers Workshop-like gains, so what the bot gains and what it buys
//! never disagree. Endgame rules live here: taking a game-ending card when that wins,
//! never one that ends the game in a loss (the reference bots' `may_gain`), Duchy
//! dancing as Provinces run low, and three-pile care (the greening thresholds read how
//! near a pile ending is; a pile is not brought within one gain of ending while behind).
//! The penultimate-Province rule is not applied: measured, it lost games (see `rank`).

use super::plan::{Engine, Plan};
use super::roles::role;
use crate::card::CardId::{self, *};
use crate::card::Types;
use crate::view::Observation;
use std::cell::OnceCell;

/// What a buy depends on, read once per decision. The counts that need a pass over
/// every card are read on first use only: most decisions never need them.
pub struct Status<'o, 'a> {
    obs: &'o Observation<'a>,
    left: OnceCell<u32>,
    /// Provinces left at which Duchies come before Gold, and before Silver.
    pub duchy_gold: u32,
    pub duchy_silver: u32,
    pub estate: u32,
    pub players: usize,
    deck: OnceCell<Deck>,
    lead: OnceCell<i32>,
    /// Cards left in each card's Supply pile (0 without one; 255 stands for more), by
    /// `CardId`: one pass over the few piles serves every card a buy ranks, where
    /// `Observation::supply_count` searches the Supply each time.
    piles: [u8; 128],
}

impl<'o, 'a> Status<'o, 'a> {
    pub fn read(obs: &'o Observation<'a>) -> Status<'o, 'a> {
        let players = obs.num_players();
        // More players empty the Province pile sooner per own turn: start greening
        // earlier.
        let extra = (players as u32).saturating_sub(2);
        // Every card has at most one pile (setup), so this is `supply_count` for each.
        let mut piles = [0u8; 128];
        for (card, n) in obs.supply() {
            piles[card as usize] = u8::try_from(n).unwrap_or(u8::MAX);
        }
        Status {
            obs,
            left: OnceCell::new(),
            duchy_gold: 4 + extra,
            duchy_silver: 6 + extra,
            estate: 2 + extra / 2,
            players,
            deck: OnceCell::new(),
            lead: OnceCell::new(),
            piles,
        }
    }

    fn deck(&self) -> &Deck {
        self.deck.get_or_init(|| {
            let mut d = Deck {
                counts: [0; 128],
                money: 0,
                treasures: 0,
            };
            // Zone by zone: a plain loop per slice (a playout buys thousands of times).
            for zone in self.obs.owned_zones() {
                for &c in zone {
                    d.counts[c as usize] = d.counts[c as usize].saturating_add(1);
                    d.money += crate::view::money_of(c);
                    d.treasures += usize::from(c.is_treasure());
                }
            }
            d
        })
    }
    /// How far the game is from its end, in Provinces: the Provinces left, or fewer
    /// when a three-pile ending is nearer (the cards left in the piles that would
    /// end it). Every greening threshold reads this, so the bot greens for a pile
    /// ending as it does for a Province ending.
    pub fn left(&self) -> u32 {
        *self
            .left
            .get_or_init(|| self.obs.supply_count(Province).min(pile_gap(self.obs)))
    }
    /// Cards left in `card`'s Supply pile (0 without one): `Observation::supply_count`,
    /// but 255 for any count above (the ranks only tell 0, 1 and 2 apart from more).
    pub fn supply_count(&self, card: CardId) -> u32 {
        u32::from(self.piles[card as usize])
    }
    /// The deck's money as bots.md measures it.
    pub fn money(&self) -> u32 {
        self.deck().money
    }
    /// Treasure cards owned.
    pub fn treasures(&self) -> usize {
        self.deck().treasures
    }
    /// Copies of `card` owned (one pass over the deck serves every card).
    pub fn owned(&self, card: CardId) -> usize {
        usize::from(self.deck().counts[card as usize])
    }
    /// Dukes the other players are known to own (see [`Observation::owned_by`]).
    pub fn opponent_dukes(&self) -> usize {
        let me = self.obs.me();
        (0..self.players as u8)
            .map(crate::state::PlayerId)
            .filter(|p| *p != me)
            .map(|p| self.obs.owned_by(p, Duke).unwrap_or(0))
            .sum()
    }
    /// Witches the other players are known to own (see [`Observation::owned_by`]).
    pub fn opponent_witches(&self) -> usize {
        let me = self.obs.me();
        (0..self.players as u8)
            .map(crate::state::PlayerId)
            .filter(|p| *p != me)
            .map(|p| self.obs.owned_by(p, Witch).unwrap_or(0))
            .sum()
    }
    /// Own VP minus the best opponent's.
    pub fn lead(&self) -> i32 {
        *self.lead.get_or_init(|| {
            let obs = self.obs;
            let me = obs.me();
            let best_other = (0..self.players as u8)
                .map(crate::state::PlayerId)
                .filter(|p| *p != me)
                .map(|p| obs.vp(p))
                .max()
                .unwrap_or(0);
            obs.vp(me) - best_other
        })
    }
}

/// The fewest cards whose gaining would empty enough piles to end the game.
fn pile_gap(obs: &Observation) -> u32 {
    let need = obs.piles_to_end().saturating_sub(obs.empty_piles());
    // The `need` smallest non-empty piles, kept sorted in a small array (each new one
    // inserted in place: the same four as a sort after each would keep).
    let mut low = [u32::MAX; 4];
    for (_, n) in obs.supply() {
        if n > 0 && n < low[3] {
            let mut i = 3;
            while i > 0 && low[i - 1] > n {
                low[i] = low[i - 1];
                i -= 1;
            }
            low[i] = n;
        }
    }
    low[..need.min(4)].iter().map(|n| (*n).min(99)).sum()
}

/// Counts read in one pass over the bot's cards.
struct Deck {
    counts: [u8; 128],
    money: u32,
    treasures: usize,
}

/// Whether gaining `card` is allowed: it does not end the game, or the bot then wins.
pub fn may_gain(obs: &Observation, card: CardId) -> bool {
    !obs.gain_would_end_game(card) || obs.wins_after_gaining(card)
}

/// Whether taking the last-but-one card of a pile would leave the game one gain from
/// ending while the bot is behind: the opponent could then end it and win.
fn opens_three_pile(obs: &Observation, st: &Status, card: CardId, left: u32) -> bool {
    card != Province && left == 2 && obs.empty_piles() + 1 >= obs.piles_to_end() && st.lead() < 0
}

/// Whether the plan can want `card` at all: the cheap test that spares most kingdom
/// cards the rest of [`rank`] (a buy looks at every affordable pile).
fn relevant(plan: &Plan, card: CardId) -> bool {
    matches!(
        card,
        Province | Gold | Silver | Copper | Harem | Moat | GreatHall | Mill
    ) || card.types() == Types::VICTORY
        || Some(card) == plan.main
        || Some(card) == plan.gardens
        || plan
            .engine
            .is_some_and(|e| card == e.village || card == e.draw)
        || plan.support.iter().any(|(c, _)| *c == card)
}

/// The rank of gaining `card` now (lower is better), or None if unwanted.
pub fn rank(obs: &Observation, plan: &Plan, st: &Status, card: CardId) -> Option<u16> {
    let left = st.supply_count(card);
    if left == 0 {
        return None;
    }
    if left == 1 && obs.gain_would_end_game(card) {
        // It ends the game: the best move if the bot then wins, else never.
        return obs.wins_after_gaining(card).then_some(0);
    }
    if !relevant(plan, card) || opens_three_pile(obs, st, card, left) {
        return None;
    }
    if plan.gardens.is_some() {
        return gardens_rank(obs, plan, st, card);
    }
    let owned = || st.owned(card);
    if let Some(e) = plan.engine
        && (card == e.village || card == e.draw)
    {
        return engine_rank(st, e, card);
    }
    let r = match card {
        Province => {
            // The penultimate-Province rule (skip it when the opponent could then take
            // the last and win) was measured and lost games against every reference
            // bot: they take the penultimate one themselves. Provinces are bought.
            if !(st.money() >= plan.province_money || st.left() <= st.duchy_silver) {
                return None;
            }
            10
        }
        c if c.types() == Types::VICTORY || c == GreatHall || c == Mill => {
            return victory_rank(obs, plan, st, c);
        }
        Gold => 40,
        // After everything else, but always wanted.
        Silver => 60,
        Harem if st.left() <= st.duchy_silver => 39,
        Harem => 42,
        // Against Witches a Moat or two pays (measured: against Militia it does not).
        // No Witch in the kingdom: no one can own one (spares the count of every hand).
        Moat if plan.key & (1u128 << Witch as u8) != 0
            && st.owned(Moat) < st.opponent_witches().min(2) =>
        {
            53
        }
        c if Some(c) == plan.main => {
            let n = owned();
            if n >= plan.main_copies(st.treasures()) || st.left() <= st.duchy_gold {
                return None;
            }
            if (role(c).early && n == 0) || obs.cost(c) >= obs.cost(Gold) {
                // A main card priced like Gold (Nobles, Artisan, Adventurer) competes
                // with Gold at the same coins: ranked after it, it was never bought
                // (a Nobles kingdom played like one with no useful card).
                35
            } else {
                50
            }
        }
        c => {
            let (i, max) = plan
                .support
                .iter()
                .enumerate()
                .find(|(_, (s, _))| *s == c)
                .map(|(i, (_, m))| (i as u16, *m))?;
            if owned() >= max as usize || st.left() <= st.duchy_gold {
                return None;
            }
            // Laboratory beats a Silver at $5; the rest just edge it.
            if c == Laboratory { 52 } else { 55 + i }
        }
    };
    Some(r)
}

/// An engine's draw card and village, kept in step: a draw card while they are no
/// more than the villages (the first before Gold, the rest just after it), a village
/// while fewer than the draw cards; none once Duchies beat Gold. Measured: more draw
/// cards per village, more copies, or either before Gold lost games.
fn engine_rank(st: &Status, e: Engine, card: CardId) -> Option<u16> {
    if st.left() <= st.duchy_gold {
        return None;
    }
    let (villages, draws) = (st.owned(e.village), st.owned(e.draw));
    if card == e.draw {
        if draws > villages || draws >= ENGINE_MAX {
            return None;
        }
        Some(if draws == 0 { 35 } else { 42 })
    } else {
        if villages >= draws.max(1) || villages >= ENGINE_MAX {
            return None;
        }
        Some(46)
    }
}

/// The most copies of each engine card.
const ENGINE_MAX: usize = 3;

/// Victory cards by the VP they are worth to the bot now: any of them once the game
/// is about to end, those worth 2+ (Duchy, a Duke with Duchies, Gardens in a big deck)
/// when Provinces run low, 3+ a little earlier. Against a Duke player Duchies are
/// also denied to them: taken over Silver whenever affordable.
fn victory_rank(obs: &Observation, plan: &Plan, st: &Status, c: CardId) -> Option<u16> {
    let duke_war = c == Duchy && plan.duke && st.opponent_dukes() > 0;
    if st.left() > st.duchy_silver && !duke_war && !plan.duke_plan {
        return None; // early: no Victory card is wanted (checked first: it is cheap)
    }
    // The Duke plan (plan.rs): the `duke` reference line once the deck has money 14.
    if plan.duke_plan && st.money() >= 14 {
        match c {
            Duchy => return Some(9),
            Duke if obs.supply_count(Duchy) == 0 => return Some(9),
            Estate if obs.supply_count(Duke) <= 3 => return Some(39),
            _ => {}
        }
    }
    let vp = victory_vp(obs, plan, st, c);
    let worth = 10u16.saturating_sub(vp as u16);
    if st.left() <= st.estate || (st.left() <= st.duchy_gold && vp >= 2) {
        Some(20 + worth)
    } else if (st.left() <= st.duchy_silver && vp >= 3) || duke_war {
        Some(45)
    } else {
        None
    }
}

/// VP one more `c` would be worth to the bot now.
fn victory_vp(obs: &Observation, plan: &Plan, st: &Status, c: CardId) -> u32 {
    match c {
        Estate | GreatHall | Mill => 1,
        Duchy if plan.duke => 3 + st.owned(Duke) as u32,
        Duchy => 3,
        Province => 6,
        Duke => st.owned(Duchy) as u32,
        Gardens => (obs.card_count(obs.me()) as u32 + 1) / 10,
        _ => 0,
    }
}

/// The Gardens plan (bots.md's `workshop_gardens`, with the chosen gainer): gainers
/// first, Gardens once enough gainers, then Estates, Silver, Copper.
fn gardens_rank(_obs: &Observation, plan: &Plan, st: &Status, card: CardId) -> Option<u16> {
    let gainer = plan.gardens?;
    let r = match card {
        Gardens if st.owned(gainer) > 8 => 10,
        Province => 12,
        c if c == gainer => 20,
        Gardens => 25,
        Duchy => 28,
        Estate => 30,
        Silver => 40,
        Copper => 50,
        _ => return None,
    };
    Some(r)
}

/// The best card among `options` (a buy or a gain), by rank.
pub fn best(
    obs: &Observation,
    plan: &Plan,
    st: &Status,
    options: impl Iterator<Item = CardId>,
) -> Option<CardId> {
    options
        .filter_map(|c| {
            let r = rank(obs, plan, st, c)?;
            Some((r, std::cmp::Reverse(obs.cost(c)), c))
        })
        .min()
        .map(|(_, _, c)| c)
}

/// What to buy with `coins` (None: buy nothing).
pub fn buy(obs: &Observation, plan: &Plan, buyable: &[CardId]) -> Option<CardId> {
    let st = Status::read(obs);
    best(obs, plan, &st, buyable.iter().copied())
}

/// What it would buy with `coins` from the whole Supply (put-back and trash choices
/// compare this before and after losing a Treasure).
pub fn best_with(obs: &Observation, plan: &Plan, st: &Status, coins: u32) -> Option<CardId> {
    best(
        obs,
        plan,
        st,
        obs.supply_cards().filter(|c| obs.cost(*c) <= coins),
    )
}
