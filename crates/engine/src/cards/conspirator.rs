//! Conspirator: +$2. If you've played 3 or more Actions this turn (counting this), +1
//! Card and +1 Action.
//!
//! The count is read when this play resolves (`TurnState::actions_played`, which counts
//! every resolution, so Throne Room counts once and each play of the card it doubles
//! counts too): under Throne Room as the first Action, the first Conspirator play is
//! the 2nd Action (no bonus) and the second is the 3rd (bonus).

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_coins(2);
    if cx.st.turn.actions_played >= 3 {
        let p = cx.current();
        cx.draw(p, 1);
        cx.plus_actions(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Purpose;
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn first_or_second_action_gives_only_two_coins() {
        let mut g = table(2)
            .hand(P0, &[Village, Conspirator, Conspirator])
            .deck(P0, &[Estate, Gold, Silver])
            .start();
        g.play(Conspirator);
        assert_eq!((g.coins(), g.actions()), (2, 0));
        assert_eq!(g.hand(P0), vec![Village, Conspirator]);
        assert_eq!(g.deck(P0), vec![Estate, Gold, Silver]);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);

        let mut g = table(2)
            .hand(P0, &[Village, Conspirator, Conspirator])
            .deck(P0, &[Estate, Gold, Silver])
            .start();
        g.play(Village).play(Conspirator);
        assert_eq!((g.coins(), g.actions()), (2, 1), "the 2nd Action: no bonus");
        assert_eq!(g.hand(P0), vec![Estate, Conspirator]);
        g.play(Conspirator);
        assert_eq!(
            (g.coins(), g.actions()),
            (4, 1),
            "the 3rd Action: +1 Card +1 Action"
        );
        assert_eq!(g.hand(P0), vec![Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![Village, Conspirator, Conspirator]);
        assert_eq!(g.state().turn.actions_played, 3);
    }

    #[test]
    fn throne_room_first_play_is_the_second_action_second_play_the_third() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Conspirator])
            .deck(P0, &[Gold, Silver])
            .start();
        g.play(ThroneRoom).choose(P0, &[Conspirator]);
        // First play: 2nd Action, +$2 only. Second play: 3rd, +$2 +1 Card +1 Action.
        assert_eq!(g.coins(), 4);
        assert_eq!(g.actions(), 1);
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Conspirator]);
        assert_eq!(g.state().turn.actions_played, 3);
    }

    #[test]
    fn after_throne_room_on_another_card_the_count_is_already_three() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Village, Conspirator])
            .deck(P0, &[Copper, Copper, Gold])
            .start();
        g.play(ThroneRoom).choose(P0, &[Village]);
        assert_eq!(g.actions(), 4);
        g.play(Conspirator);
        assert_eq!(g.state().turn.actions_played, 4);
        assert_eq!((g.coins(), g.actions()), (2, 4));
        assert_eq!(g.hand(P0), vec![Copper, Copper, Gold]);
    }
}
