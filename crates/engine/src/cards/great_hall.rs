//! Great Hall (1E): +1 Card, +1 Action. Worth 1 VP.
//!
//! An Action–Victory card: it is played like any Action and its VP is in
//! `score::card_vp`; every "Action card" test (Shanty Town, Ironworks, Throne Room)
//! sees it as one.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::score::player_vp;
    use crate::{Prompt, Purpose};

    #[test]
    fn plus_one_card_plus_one_action() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[GreatHall, Estate])
            .deck(P0, &[Silver, Gold])
            .start();
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![GreatHall]
            },
            "an Action card in hand"
        );
        g.play(GreatHall);
        assert_eq!(g.actions(), 1);
        assert_eq!(g.hand(P0), vec![Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.in_play(P0), vec![GreatHall]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!((g.coins(), g.buys()), (0, 1));
        g.end_actions();
        assert_eq!(g.req().purpose, Purpose::BuyPhase, "no Action left to play");
    }

    #[test]
    fn is_worth_one_vp_wherever_it_is() {
        let g = table(2)
            .edition(Edition::First)
            .hand(P0, &[GreatHall])
            .deck(P0, &[GreatHall])
            .discard(P0, &[GreatHall, Copper])
            .start();
        assert_eq!(player_vp(g.state().player(P0)), 3);
    }
}
