//! Gardens (Victory): worth 1 VP per 10 cards you have (round down). Its worth is in
//! `score::card_vp`; it has no effect when played (it cannot be).

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::setup::pile_size;
    use crate::{Reply, Score};

    #[test]
    fn is_a_victory_pile_of_8_with_two_players_else_12() {
        assert!(Gardens.is_victory() && Gardens.is_kingdom());
        assert_eq!(pile_size(Gardens, 2), 8);
        for players in 3..=6 {
            assert_eq!(pile_size(Gardens, players), 12);
        }
    }

    #[test]
    fn scores_one_vp_per_full_ten_cards_at_the_end() {
        // Player 0 ends the game by buying the last Province: 39 cards → 3 VP per Gardens.
        let mut g = table(2)
            .hand(P0, &[Gold, Gold, Silver])
            .deck(P0, &[Copper; 30])
            .discard(P0, &[Gardens, Gardens, Estate, Copper, Copper])
            .supply(Province, 1)
            .start();
        g.ok(P0, Reply::PlayAllTreasures)
            .ok(P0, Reply::Buy(Province));
        assert!(g.is_over());
        // 3 + 30 + 5 + the Province = 39 cards: Gardens 3 each, Estate 1, Province 6.
        assert_eq!(g.state().player(P0).card_count(), 39);
        let s: &Score = &g.scores()[0];
        assert_eq!(s.vp, 2 * 3 + 1 + 6);
    }
}
