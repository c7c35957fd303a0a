//! Woodcutter (1E only): +1 Buy, +$2.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_buys(1);
    cx.plus_coins(2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Prompt, Reply};

    #[test]
    fn one_buy_and_two_coins_and_nothing_else() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Woodcutter, Copper, Estate])
            .deck(P0, &[Gold])
            .discard(P0, &[Silver])
            .start();
        g.play(Woodcutter);
        assert_eq!((g.actions(), g.buys(), g.coins()), (0, 2, 2));
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard(P0), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![Woodcutter]);
        assert_eq!(g.aside(P0), vec![]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        // The +$2 and the extra Buy are usable: two Coppers with $3 ($2 + the Copper).
        g.ok(P0, Reply::Play(Copper))
            .ok(P0, Reply::Buy(Copper))
            .ok(P0, Reply::Buy(Silver));
        assert_eq!(g.supply(Silver), 39);
        assert_eq!(g.supply(Copper), 60 - 14 - 1);
    }
}
