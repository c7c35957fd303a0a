//! Tests of the standard bot's choices (exact positions, exact replies) and a
//! random-kingdom soak.

use crate::bots::by_name;
use crate::card::{CardId, Edition};
use crate::game::Game;
use crate::setup::{Kingdom, Setup};
use crate::state::PlayerId;

#[test]
#[ignore = "debug print"]
fn debug_print_games() {
    let kingdom = std::env::var("STD_K").unwrap_or("intrigue_1e/victory_dance".into());
    let opp = std::env::var("STD_OPP").unwrap_or("duke".into());
    for seed in 0..6 {
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended(kingdom.clone()),
            edition: Edition::First,
        };
        let mut g = Game::new_unrecorded(&setup, seed).unwrap();
        let mut agents = vec![by_name("standard", 1).unwrap(), by_name(&opp, 2).unwrap()];
        g.play_out(&mut agents);
        for p in 0..2u8 {
            let pl = g.state().player(PlayerId(p));
            let mut counts: Vec<(CardId, usize)> = CardId::all()
                .map(|c| (c, pl.count_owned(c)))
                .filter(|(_, n)| *n > 0)
                .collect();
            counts.sort_by_key(|(c, _)| *c);
            println!(
                "seed {seed} p{p} vp {} turns {} {:?}",
                crate::score::player_vp(pl),
                pl.turns,
                counts
            );
        }
        let piles: Vec<_> = g
            .state()
            .supply
            .iter()
            .filter(|p| p.count < 3)
            .map(|p| (p.card, p.count))
            .collect();
        println!("  low piles {piles:?}");
    }
}
