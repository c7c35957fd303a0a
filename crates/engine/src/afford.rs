//! Which Supply piles a budget reaches, without looking up a cost per pile.
//!
//! Once per game, a bit per pile for each budget, so a Buy-phase request visits only the
//! piles it can afford. Invariant: printed costs never change, and the Supply's piles are
//! never added, removed or reordered after setup (a Supply of another length, or a
//! budget past the table, takes the plain scan). Cost reductions (Bridge) enter through
//! the budget: coins + reduction.

use crate::card::{CARD_COUNT, CardId};
use crate::state::{Pile, State};

/// Budgets the table covers (0 to `BUDGETS - 1`); a larger one takes the plain scan.
const BUDGETS: usize = 16;

/// For each budget, the Supply piles whose printed cost is within it, one bit per pile
/// index. Printed costs never change and the Supply's order is fixed at setup, so a
/// game works this out once; a Buy-phase request (the question a simulation asks most)
/// then visits only the piles it can afford instead of every pile.
#[derive(Clone, Debug)]
pub(crate) struct Affordable {
    upto: [u64; BUDGETS],
    /// How many piles the table was made for; any other Supply takes the plain scan.
    piles: usize,
    /// Each card's pile index (`NO_PILE` for a card not in the Supply): a Buy answered
    /// at the Action phase (`crate::combined`) finds its pile without a scan.
    index: [u8; CARD_COUNT],
}

const NO_PILE: u8 = u8::MAX;

/// The Buy phase's budget for printed costs: the coins plus this turn's cost reduction
/// (Bridge), as `State::cost` takes it off each card.
pub(crate) fn budget(st: &State) -> u32 {
    st.turn.coins + st.turn.cost_reduction
}

/// Whether a Buy phase with `budget` offers `pile`: cards left, printed cost within it.
pub(crate) fn affords(pile: &Pile, budget: u32) -> bool {
    pile.count > 0 && u32::from(pile.card.base_cost()) <= budget
}

impl Affordable {
    pub(crate) fn new(supply: &[Pile]) -> Affordable {
        // The piles costing exactly each amount, then each budget takes in the ones below.
        let mut upto = [0u64; BUDGETS];
        if supply.len() <= 64 {
            for (i, pile) in supply.iter().enumerate() {
                if let Some(mask) = upto.get_mut(usize::from(pile.card.base_cost())) {
                    *mask |= 1 << i;
                }
            }
            for b in 1..BUDGETS {
                upto[b] |= upto[b - 1];
            }
        }
        let mut index = [NO_PILE; CARD_COUNT];
        if supply.len() <= 64 {
            for (i, pile) in supply.iter().enumerate() {
                index[pile.card as usize] = i as u8;
            }
        }
        Affordable {
            index,
            upto,
            piles: if supply.len() <= 64 {
                supply.len()
            } else {
                usize::MAX
            },
        }
    }

    /// The Supply pile of `card`, if it has one (`State::pile` without the scan).
    pub(crate) fn pile<'s>(&self, supply: &'s [Pile], card: CardId) -> Option<&'s Pile> {
        if supply.len() != self.piles {
            return supply.iter().find(|p| p.card == card);
        }
        supply.get(usize::from(self.index[card as usize]))
    }

    /// Appends to `out`, in Supply order, the card of every pile with cards left whose
    /// printed cost is at most `budget`.
    pub(crate) fn fill(&self, supply: &[Pile], budget: u32, out: &mut Vec<CardId>) {
        if supply.len() != self.piles || budget as usize >= BUDGETS {
            out.extend(supply.iter().filter(|p| affords(p, budget)).map(|p| p.card));
            return;
        }
        let mut bits = self.upto[budget as usize];
        while bits != 0 {
            let pile = supply[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if pile.count > 0 {
                out.push(pile.card);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardId::*;

    fn pile(card: CardId, count: u32) -> Pile {
        Pile { card, count }
    }

    #[test]
    fn a_budget_reaches_the_nonempty_piles_it_affords_in_supply_order() {
        let supply = [
            pile(Copper, 46),
            pile(Province, 8),
            pile(Silver, 0),
            pile(Curse, 10),
            pile(Village, 10),
            pile(Gold, 30),
        ];
        let afford = Affordable::new(&supply);
        let at = |budget| {
            let mut v = Vec::new();
            afford.fill(&supply, budget, &mut v);
            v
        };
        assert_eq!(at(0), vec![Copper, Curse]);
        assert_eq!(at(3), vec![Copper, Curse, Village]);
        assert_eq!(at(6), vec![Copper, Curse, Village, Gold]);
        assert_eq!(at(8), vec![Copper, Province, Curse, Village, Gold]);
        // Past the table, and for a Supply it was not made for, the plain scan answers.
        assert_eq!(at(40), vec![Copper, Province, Curse, Village, Gold]);
        let mut v = Vec::new();
        afford.fill(&supply[..2], 8, &mut v);
        assert_eq!(v, vec![Copper, Province]);
    }
}
