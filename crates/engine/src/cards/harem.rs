//! Harem: Treasure worth $2. Worth 2 VP.
//!
//! A Treasure–Victory card: played in the Buy phase like any Treasure; its VP is in
//! `score::card_vp`.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_coins(2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::score::player_vp;
    use crate::{Prompt, Reply};

    #[test]
    fn is_played_as_a_treasure_for_two_coins() {
        let mut g = table(2).hand(P0, &[Harem, Estate]).start();
        // No Action in hand: on to the Buy phase, where Harem is a Treasure.
        g.end_actions();
        let Prompt::BuyPhase { treasures, .. } = g.prompt().clone() else {
            panic!("{:?}", g.prompt())
        };
        assert_eq!(treasures, vec![Harem]);
        g.play(Harem);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.in_play(P0), vec![Harem]);
        assert_eq!(g.hand(P0), vec![Estate]);
        assert_eq!(g.discard(P0), vec![]);
    }

    #[test]
    fn play_all_treasures_plays_it_too() {
        let mut g = table(2).hand(P0, &[Harem, Copper, Estate]).start();
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 3);
        assert_eq!(g.in_play(P0), vec![Harem, Copper]);
        assert_eq!(g.hand(P0), vec![Estate]);
    }

    #[test]
    fn is_not_an_action() {
        let g = table(2).hand(P0, &[Harem, Village]).start();
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Village]
            }
        );
    }

    #[test]
    fn is_worth_two_vp() {
        let g = table(2)
            .hand(P0, &[Harem])
            .deck(P0, &[Harem, Copper])
            .start();
        assert_eq!(player_vp(g.state().player(P0)), 4);
    }
}
