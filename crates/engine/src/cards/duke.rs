//! Duke: Victory card worth 1 VP per Duchy you have.
//!
//! It does nothing when played (it cannot be); its worth is computed at scoring in
//! `score::card_vp`, counting the Duchies among all the owner's cards wherever they are.
//! Only these tests live here.

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::score::{player_vp, vp_after_gaining};
    use crate::state::PlayerState;

    #[test]
    fn one_vp_per_duchy_in_every_zone() {
        let pl = PlayerState {
            hand: vec![Duke, Duchy],
            deck: vec![Duchy, Copper],
            discard: vec![Duke, Duchy],
            in_play: vec![Duchy],
            ..PlayerState::default()
        };
        // 4 Duchies: each Duke is worth 4, each Duchy 3.
        assert_eq!(player_vp(&pl), 2 * 4 + 4 * 3);
        assert_eq!(vp_after_gaining(&pl, Duchy), 2 * 5 + 5 * 3);
    }

    #[test]
    fn without_duchies_a_duke_is_worth_nothing() {
        let pl = PlayerState {
            hand: vec![Duke, Estate, Province],
            ..PlayerState::default()
        };
        assert_eq!(player_vp(&pl), 1 + 6);
    }

    #[test]
    fn is_not_playable() {
        use crate::Prompt;
        use crate::cards::testkit::*;
        let g = table(2).hand(P0, &[Duke, Village]).start();
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Village]
            }
        );
    }
}
