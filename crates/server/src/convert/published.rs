//! A published game record (`GET /api/games/{id}`, [`wire::GameRecord`]) back into the
//! engine's [`GameRecord`]: the one way from a downloaded game to a replayable one, for
//! the server's analysis and for `dominion-sim analyse` (which depends on this crate
//! for it rather than keeping a second copy of the wire-to-engine conversions).

use crate::convert::from_wire;
use dominion_engine::{GameRecord, PlayerId, SUPPORTED_RULES};
use dominion_protocol as wire;

/// The engine record of a published game, checked: a record format this build reads,
/// rules this engine plays, a setup and replies it accepts, seats in range. Whether the
/// replies replay is for the caller to find (`Game::replay`).
pub fn engine_record(record: &wire::GameRecord) -> Result<GameRecord, String> {
    if record.format != wire::GAME_RECORD_FORMAT {
        return Err(format!(
            "the record is in format {}; this build reads format {}",
            record.format,
            wire::GAME_RECORD_FORMAT
        ));
    }
    if !SUPPORTED_RULES.contains(&record.rules_version) {
        return Err(format!(
            "the game was played under rules version {}; this build plays versions {}–{}",
            record.rules_version,
            SUPPORTED_RULES.start(),
            SUPPORTED_RULES.end()
        ));
    }
    let seed = record
        .seed
        .parse::<u64>()
        .map_err(|_| format!("the seed {:?} is not a whole number", record.seed))?;
    let setup = from_wire::game_setup(&record.setup)
        .map_err(|r| format!("setup refused: {}", r.message))?;
    let replies = record
        .replies
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n.seat >= setup.players {
                return Err(format!(
                    "reply {i} is from seat {}, of {} players",
                    n.seat, setup.players
                ));
            }
            from_wire::reply(&n.reply)
                .map(|r| (PlayerId(n.seat), r))
                .map_err(|r| format!("reply {i} refused: {}", r.message))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GameRecord {
        setup,
        seed,
        replies,
        rules: record.rules_version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::to_wire;
    use dominion_engine::{Edition, Game, Kingdom, Setup, bots::by_name};

    /// A finished bot game, published as the server publishes it.
    fn published(seed: u64) -> (GameRecord, wire::GameRecord) {
        let setup = Setup {
            players: 2,
            edition: Edition::Second,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
        };
        let mut g = Game::new(&setup, seed).unwrap();
        let mut agents = vec![
            by_name("standard", 1).unwrap(),
            by_name("big_money", 2).unwrap(),
        ];
        g.play_out(&mut agents);
        let record = g.record();
        let wire = wire::GameRecord {
            format: wire::GAME_RECORD_FORMAT,
            room: "r1".into(),
            outcome: wire::GameOutcome::Finished,
            rules_version: record.rules,
            started_at: 0,
            finished_at: 1,
            seed: record.seed.to_string(),
            setup: to_wire::game_setup(2, Edition::Second, g.kingdom()),
            kingdom: g.kingdom().iter().map(|c| c.key().to_string()).collect(),
            seats: vec![],
            replies: to_wire::numbered_replies(&g),
            scores: None,
        };
        (record, wire)
    }

    #[test]
    fn a_published_record_replays_as_the_game_it_was() {
        let (record, wire) = published(u64::MAX - 3);
        let back = engine_record(&wire).unwrap();
        assert_eq!(back.replies, record.replies);
        assert_eq!(back.seed, record.seed);
        let (a, b) = (Game::replay(&back).unwrap(), Game::replay(&record).unwrap());
        assert_eq!(a.scores(), b.scores());
    }

    #[test]
    fn what_cannot_be_replayed_is_refused_with_the_reason() {
        let (_, wire) = published(3);
        let mut bad = wire.clone();
        bad.rules_version = 999;
        assert!(
            engine_record(&bad)
                .unwrap_err()
                .contains("rules version 999")
        );
        let mut bad = wire.clone();
        bad.seed = "x".into();
        assert!(engine_record(&bad).unwrap_err().contains("seed"));
        let mut bad = wire.clone();
        bad.format = 99;
        assert!(engine_record(&bad).unwrap_err().contains("format 99"));
        let mut bad = wire;
        bad.replies[0].seat = 7;
        assert!(engine_record(&bad).unwrap_err().contains("seat 7"));
    }
}
