//! Coppersmith (1E): Copper produces an extra $1 this turn.
//!
//! Each play adds 1 to the turn's copper bonus (basic.rs reads it when a Copper is
//! played), so several plays stack and Throne Room makes each Copper worth $3. Coppers
//! played before it are not paid again: the bonus is for Coppers played from now on.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.st.turn.copper_bonus += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Purpose, Reply};

    #[test]
    fn each_copper_gives_one_more() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Coppersmith, Copper, Copper, Silver])
            .start();
        g.play(Coppersmith);
        assert_eq!(g.coins(), 0, "no coins by itself");
        assert_eq!(g.state().turn.copper_bonus, 1);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 2 + 2 + 2);
        assert_eq!(g.in_play(P0), vec![Coppersmith, Copper, Copper, Silver]);
        assert_eq!(g.hand(P0), vec![]);
    }

    #[test]
    fn two_coppersmiths_stack() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Village, Coppersmith, Coppersmith, Copper, Copper])
            .deck(P0, &[Estate])
            .start();
        g.play(Village).play(Coppersmith).play(Coppersmith);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 3 + 3);
    }

    #[test]
    fn throne_room_makes_each_copper_worth_three() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Coppersmith, Copper, Copper, Copper])
            .start();
        // 1E Throne Room with one Action in hand: forced, not asked.
        g.play(ThroneRoom);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Coppersmith]);
        assert_eq!(g.state().turn.copper_bonus, 2);
        g.play(Copper);
        assert_eq!(g.coins(), 3);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 9);
    }

    #[test]
    fn the_bonus_lasts_only_this_turn() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Coppersmith])
            .deck(P0, &[Copper; 5])
            .hand(P1, &[Copper])
            .start();
        g.play(Coppersmith).ok(P0, Reply::EndPhase);
        assert_eq!(g.state().current, P1);
        assert_eq!(g.state().turn.copper_bonus, 0);
        g.play(Copper);
        assert_eq!(g.coins(), 1);
    }
}
