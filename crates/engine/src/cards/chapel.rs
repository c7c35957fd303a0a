//! Chapel: Trash up to 4 cards from your hand.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let chosen = cx.choose_from_hand(p, CardId::Chapel, Purpose::Trash, |_| true, 0, 4)?;
    cx.trash_from_hand(p, &chosen);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{InvalidReply, Prompt, Purpose, Reply, Zone};

    #[test]
    fn trashes_up_to_four_and_chapel_itself_is_already_in_play() {
        let mut g = table(2)
            .hand(P0, &[Chapel, Estate, Estate, Copper, Copper, Copper])
            .start();
        g.play(Chapel);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Chapel), Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Copper, Copper, Estate, Estate],
                min: 0,
                max: 4
            }
        );
        assert_eq!(
            g.reply(
                P0,
                Reply::Cards(vec![Estate, Estate, Copper, Copper, Copper])
            ),
            Err(InvalidReply::WrongCount {
                got: 5,
                min: 0,
                max: 4
            })
        );
        g.choose(P0, &[Estate, Estate, Copper, Copper]);
        assert_eq!(g.trash(), vec![Copper, Copper, Estate, Estate]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.in_play(P0), vec![Chapel]);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_fewer_than_four_cards_may_trash_all_or_none() {
        let mut g = table(2).hand(P0, &[Chapel, Estate, Copper]).start();
        g.play(Chapel);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate],
                min: 0,
                max: 2
            }
        );
        g.choose(P0, &[Estate, Copper]);
        assert_eq!(g.trash(), vec![Copper, Estate]);
        assert_eq!(g.hand(P0), vec![]);

        let mut g = table(2).hand(P0, &[Chapel, Estate]).start();
        g.play(Chapel).choose(P0, &[]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P0), vec![Estate]);
    }
}
