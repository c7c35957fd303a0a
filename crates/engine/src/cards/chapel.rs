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
    use crate::{InvalidReply, Prompt, Zone};

    #[test]
    fn trashes_up_to_four() {
        let mut g = table(2)
            .hand(P0, &[Chapel, Estate, Estate, Copper, Copper, Copper])
            .start();
        g.play(Chapel);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Copper, Copper, Estate, Estate],
                min: 0,
                max: 4
            }
        );
        assert_eq!(
            g.reply(
                P0,
                crate::Reply::Cards(vec![Estate, Estate, Copper, Copper, Copper])
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
    }
}
