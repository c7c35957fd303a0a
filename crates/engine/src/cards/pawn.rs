//! Pawn: Choose two: +1 Card; +1 Action; +1 Buy; +$1. (The choices must be different.)
//!
//! Both choices are asked for in one question, before either is done (the rulebook: you
//! may not take +1 Card and pick the second option after seeing the card). They are then
//! done in the order given; none depends on another.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Mode;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let options = vec![
        Mode::PlusCard,
        Mode::PlusAction,
        Mode::PlusBuy,
        Mode::PlusCoin,
    ];
    for m in cx.choose_modes(p, CardId::Pawn, options, 2, 2)? {
        match m {
            Mode::PlusCard => {
                cx.draw(p, 1);
            }
            Mode::PlusAction => cx.plus_actions(1),
            Mode::PlusBuy => cx.plus_buys(1),
            Mode::PlusCoin => cx.plus_coins(1),
            m => unreachable!("validated mode {m:?}"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{InvalidReply, Mode, Prompt, Purpose, Reply, Request};

    fn ask() -> Request {
        Request {
            player: P0,
            card: Some(Pawn),
            about: None,
            purpose: Purpose::ChooseModes,
            prompt: Prompt::ChooseModes {
                options: vec![
                    Mode::PlusCard,
                    Mode::PlusAction,
                    Mode::PlusBuy,
                    Mode::PlusCoin,
                ],
                min: 2,
                max: 2,
            },
        }
    }

    #[test]
    fn both_choices_are_made_before_either_is_done() {
        let mut g = table(2)
            .hand(P0, &[Pawn, Village])
            .deck(P0, &[Gold, Copper])
            .start();
        g.play(Pawn);
        assert_eq!(g.req(), &ask());
        assert_eq!(g.hand(P0), vec![Village], "nothing drawn before choosing");
        g.ok(P0, Reply::Modes(vec![Mode::PlusCard, Mode::PlusAction]));
        assert_eq!(g.hand(P0), vec![Gold, Village]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!((g.actions(), g.buys(), g.coins()), (1, 1, 0));
        assert_eq!(g.in_play(P0), vec![Pawn]);
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Village]
            }
        );
    }

    #[test]
    fn buy_and_coin() {
        let mut g = table(2).hand(P0, &[Pawn]).deck(P0, &[Gold]).start();
        g.play(Pawn)
            .ok(P0, Reply::Modes(vec![Mode::PlusCoin, Mode::PlusBuy]));
        assert_eq!((g.actions(), g.buys(), g.coins()), (0, 2, 1));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn the_two_choices_must_be_different_and_exactly_two() {
        let mut g = table(2).hand(P0, &[Pawn]).deck(P0, &[Gold]).start();
        g.play(Pawn);
        assert!(
            g.reply(P0, Reply::Modes(vec![Mode::PlusCoin, Mode::PlusCoin]))
                .is_err()
        );
        assert!(matches!(
            g.reply(P0, Reply::Modes(vec![Mode::PlusCoin])),
            Err(InvalidReply::WrongCount { .. })
        ));
        assert!(
            g.reply(
                P0,
                Reply::Modes(vec![Mode::PlusCoin, Mode::PlusBuy, Mode::PlusCard])
            )
            .is_err()
        );
        assert!(
            g.reply(P0, Reply::Modes(vec![Mode::PlusTwoCards, Mode::PlusBuy]))
                .is_err()
        );
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::Modes(vec![Mode::PlusCard, Mode::PlusCoin]));
        assert_eq!((g.coins(), g.hand(P0)), (1, vec![Gold]));
    }

    #[test]
    fn with_an_empty_deck_plus_card_draws_nothing() {
        let mut g = table(2).hand(P0, &[Pawn]).start();
        g.play(Pawn)
            .ok(P0, Reply::Modes(vec![Mode::PlusCard, Mode::PlusBuy]));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!((g.actions(), g.buys(), g.coins()), (0, 2, 0));
    }
}
