//! Nobles: Choose one: +3 Cards; or +2 Actions. Worth 2 VP.
//!
//! An Action–Victory card; its VP is in `score::card_vp`.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Mode;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let chosen = cx.choose_modes(
        p,
        CardId::Nobles,
        vec![Mode::PlusThreeCards, Mode::PlusTwoActions],
        1,
        1,
    )?;
    for m in chosen {
        match m {
            Mode::PlusThreeCards => {
                cx.draw(p, 3);
            }
            Mode::PlusTwoActions => cx.plus_actions(2),
            m => unreachable!("validated mode {m:?}"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::score::player_vp;
    use crate::{Mode, Prompt, Purpose, Reply, Request};

    fn ask() -> Request {
        Request {
            player: P0,
            card: Some(Nobles),
            about: None,
            purpose: Purpose::ChooseModes,
            prompt: Prompt::ChooseModes {
                options: vec![Mode::PlusThreeCards, Mode::PlusTwoActions],
                min: 1,
                max: 1,
            },
        }
    }

    #[test]
    fn three_cards() {
        let mut g = table(2)
            .hand(P0, &[Nobles, Village])
            .deck(P0, &[Copper, Silver, Gold, Estate])
            .start();
        g.play(Nobles);
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::Modes(vec![Mode::PlusThreeCards]));
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold, Village]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.actions(), 0);
        assert_eq!(g.in_play(P0), vec![Nobles]);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn two_actions() {
        let mut g = table(2)
            .hand(P0, &[Nobles, Village])
            .deck(P0, &[Copper])
            .start();
        g.play(Nobles);
        assert_eq!(g.req(), &ask());
        assert!(
            g.reply(
                P0,
                Reply::Modes(vec![Mode::PlusThreeCards, Mode::PlusTwoActions])
            )
            .is_err(),
            "one only"
        );
        g.ok(P0, Reply::Modes(vec![Mode::PlusTwoActions]));
        assert_eq!(g.actions(), 2);
        assert_eq!(g.hand(P0), vec![Village]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Village]
            }
        );
    }

    #[test]
    fn is_playable_as_an_action_and_worth_two_vp() {
        let g = table(2).hand(P0, &[Nobles, Nobles]).start();
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Nobles]
            }
        );
        assert_eq!(player_vp(g.state().player(P0)), 4);
    }
}
