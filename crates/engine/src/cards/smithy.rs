//! Smithy: +3 Cards.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 3);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn draws_three() {
        let mut g = table(2)
            .hand(P0, &[Smithy, Estate])
            .deck(P0, &[Gold, Copper, Silver, Duchy])
            .start();
        g.play(Smithy);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Duchy]);
        assert_eq!(g.in_play(P0), vec![Smithy]);
        assert_eq!(g.actions(), 0);
    }
}
