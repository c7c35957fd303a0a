//! A game's record as the store keeps it: how its setup and replies are encoded, under
//! which rules it is played, and the way back to engine values.
//!
//! **Why a format of its own.** A stored game must outlive the engine that wrote it. The
//! engine's own serde derives follow its types, which change with every card and
//! mechanism; the wire types of `dominion-protocol` are published, versioned and in the
//! JSON Schema. So a game is stored in the wire format (record format 2): the setup as a
//! [`wire::GameSetup`] whose kingdom is the ten cards as drawn, each reply as a
//! [`wire::Reply`] — the very JSON a client sends. Games stored by 0.1.0 and before are
//! in record format 1, the engine serde of that release; `v1` keeps a frozen copy of
//! that format's shapes, so those games decode whatever the engine's types become.
//! Adding a field to an engine type thus changes nothing stored. A database written by
//! each earlier release (`crates/server/tests/fixtures/`) is reopened and played to the
//! end by a test.
//!
//! **Rules.** Every game also stores the engine's [`RULES_VERSION`]; a game stored under
//! rules this engine does not play is refused with a reason (the room is marked broken)
//! rather than replayed into a different game. docs/storage.md describes both numbers.

use crate::convert::{from_wire, to_wire};
use dominion_engine::{CardId, Edition, Game, GameRecord, PlayerId, Reply, Setup};
use dominion_engine::{RULES_VERSION, SUPPORTED_RULES};
use dominion_protocol as wire;
use dominion_store::{GameRow, RecordVersion};

/// The record format this build writes.
pub const RECORD_FORMAT: u32 = 2;

/// What this build stores with each new game.
pub const CURRENT: RecordVersion = RecordVersion {
    format: RECORD_FORMAT,
    rules: RULES_VERSION,
};

/// A started game's setup as stored: players, edition and the kingdom as drawn.
pub fn encode_setup(players: u8, edition: Edition, kingdom: &[CardId]) -> String {
    json(&to_wire::game_setup(players, edition, kingdom))
}

/// An accepted reply as stored: the wire reply.
pub fn encode_reply(reply: &Reply) -> String {
    json(&to_wire::reply(reply))
}

/// A finished game's scores as stored: wire score lines.
pub fn encode_scores(scores: &[dominion_engine::Score]) -> String {
    json(&scores.iter().map(to_wire::score_line).collect::<Vec<_>>())
}

/// Stored scores in `format`.
pub fn decode_scores(format: u32, text: &str) -> Result<Vec<wire::ScoreLine>, String> {
    match format {
        1 => serde_json::from_str::<Vec<v1::Score>>(text)
            .map(|s| s.into_iter().map(v1::Score::into_wire).collect())
            .map_err(|e| format!("unreadable scores: {e}")),
        2 => serde_json::from_str(text).map_err(|e| format!("unreadable scores: {e}")),
        other => Err(unknown_format(other)),
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    // Plain structs of strings and numbers: serializing cannot fail.
    serde_json::to_string(v).expect("wire values serialize")
}

/// The engine record of a stored game, decoded by its format, refused if its rules are
/// not ones this engine plays.
pub fn decode(row: &GameRow) -> Result<GameRecord, String> {
    if !SUPPORTED_RULES.contains(&row.version.rules) {
        return Err(format!(
            "the game was played under rules version {}; this server plays versions {}–{}",
            row.version.rules,
            SUPPORTED_RULES.start(),
            SUPPORTED_RULES.end()
        ));
    }
    let setup = decode_setup(row.version.format, &row.setup)?;
    let replies = row
        .replies
        .iter()
        .enumerate()
        .map(|(i, (p, r))| {
            decode_reply(row.version.format, r)
                .map(|r| (PlayerId(*p), r))
                .map_err(|e| format!("unreadable reply {i}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GameRecord {
        setup,
        seed: row.seed,
        replies,
        rules: row.version.rules,
    })
}

/// A stored setup in `format`.
pub fn decode_setup(format: u32, text: &str) -> Result<Setup, String> {
    let wire: wire::GameSetup = match format {
        1 => serde_json::from_str::<v1::Setup>(text)
            .map(v1::Setup::into_wire)
            .map_err(|e| format!("unreadable setup: {e}"))?,
        2 => serde_json::from_str(text).map_err(|e| format!("unreadable setup: {e}"))?,
        other => return Err(unknown_format(other)),
    };
    from_wire::game_setup(&wire).map_err(|r| format!("setup refused: {}", r.message))
}

/// A stored reply in `format`.
pub fn decode_reply(format: u32, text: &str) -> Result<Reply, String> {
    let wire: wire::Reply = match format {
        1 => serde_json::from_str::<v1::Reply>(text)
            .map_err(|e| e.to_string())?
            .into_wire(),
        2 => serde_json::from_str(text).map_err(|e| e.to_string())?,
        other => return Err(unknown_format(other)),
    };
    from_wire::reply(&wire).map_err(|r| r.message)
}

fn unknown_format(format: u32) -> String {
    format!("the game is stored in record format {format}, which this server does not know")
}

/// The published record of an ended game (`GET /api/games/{id}`), rebuilt by replaying
/// it: the replay gives the decision numbers and proves the record is whole.
pub fn published(
    row: &GameRow,
    seats: &[dominion_store::SeatRow],
) -> Result<wire::GameRecord, String> {
    let record = decode(row)?;
    let game = Game::replay(&record).map_err(|e| format!("the record does not replay: {e}"))?;
    let finished_at = row
        .finished_at
        .ok_or_else(|| "the game is not over".to_string())?;
    let outcome = outcome(row.abandoned);
    Ok(wire::GameRecord {
        format: wire::GAME_RECORD_FORMAT,
        room: row.room_id.clone(),
        outcome,
        rules_version: row.version.rules,
        started_at: row.started_at,
        finished_at,
        seed: row.seed.to_string(),
        setup: to_wire::game_setup(record.setup.players, record.setup.edition, game.kingdom()),
        kingdom: game.kingdom().iter().map(|c| c.key().to_string()).collect(),
        seats: record_seats(seats),
        replies: to_wire::numbered_replies(&game),
        scores: (!row.abandoned && game.is_over())
            .then(|| game.scores().iter().map(to_wire::score_line).collect()),
    })
}

/// An ended game as `/api/games` lists it.
pub fn summary(g: &dominion_store::FinishedGame) -> Result<wire::GameSummary, String> {
    let setup = decode_setup(g.version.format, &g.setup)?;
    let kingdom = match &setup.kingdom {
        dominion_engine::Kingdom::Cards(cards) => cards.clone(),
        _ => return Err("a stored setup without its drawn kingdom".into()),
    };
    Ok(wire::GameSummary {
        room: g.room_id.clone(),
        outcome: outcome(g.abandoned),
        finished_at: g.finished_at,
        setup: to_wire::game_setup(setup.players, setup.edition, &kingdom),
        scores: g
            .scores
            .as_deref()
            .map(|s| decode_scores(g.version.format, s))
            .transpose()?,
        seats: record_seats(&g.seats),
    })
}

fn outcome(abandoned: bool) -> wire::GameOutcome {
    if abandoned {
        wire::GameOutcome::Abandoned
    } else {
        wire::GameOutcome::Finished
    }
}

fn record_seats(seats: &[dominion_store::SeatRow]) -> Vec<wire::RecordSeat> {
    seats
        .iter()
        .map(|s| wire::RecordSeat {
            seat: s.seat,
            name: s.name.clone(),
            bot: s.bot.clone(),
        })
        .collect()
}

/// Why a replay step cannot be given.
#[derive(Debug, PartialEq, Eq)]
pub enum StepError {
    /// The game is still being played: nothing of it is published.
    NotOver,
    /// `n` is past the last step (the record has `steps` replies).
    OutOfRange { steps: u32 },
    /// A seat the game does not have.
    NoSuchSeat { players: u8 },
    /// The record cannot be read or does not replay.
    Unreadable(String),
}

/// Step `n` of an ended game's replay (`GET /api/games/{id}/steps/{n}`): the engine
/// replays the stored record's first `n` replies from its setup and seed — the replay
/// viewer has no rules of its own — and the projection shows the result to `viewer`.
///
/// Cost: every call replays `n` replies from the start (nothing is cached). A record
/// holds at most a few thousand replies (a game of 250 turns per player is the engine's
/// bound; real games take a few hundred) and one reply replays in microseconds, so a
/// step costs at most a few milliseconds; `n` above the record's length is refused
/// before anything is replayed.
pub fn replay_step(
    row: &GameRow,
    n: u32,
    viewer: to_wire::StepViewer,
    since: Option<u64>,
) -> Result<wire::ReplayStep, StepError> {
    if row.finished_at.is_none() {
        return Err(StepError::NotOver);
    }
    let steps = u32::try_from(row.replies.len()).unwrap_or(u32::MAX);
    if n > steps {
        return Err(StepError::OutOfRange { steps });
    }
    let record = decode(row).map_err(StepError::Unreadable)?;
    if let to_wire::StepViewer::Player(p) = viewer
        && p.0 >= record.setup.players
    {
        return Err(StepError::NoSuchSeat {
            players: record.setup.players,
        });
    }
    let mut game = Game::new_under(&record.setup, record.seed, record.rules)
        .map_err(|e| StepError::Unreadable(format!("the setup is refused: {e}")))?;
    let mut step_first = 0;
    for (index, (p, r)) in record.replies.iter().take(n as usize).enumerate() {
        step_first = game.events().len() as u64;
        game.answer(*p, r.clone()).map_err(|e| {
            StepError::Unreadable(format!("reply {index} was refused on replay: {e}"))
        })?;
    }
    Ok(to_wire::replay_step(
        &row.room_id,
        &game,
        n,
        steps,
        step_first,
        since,
        viewer,
    ))
}

/// Record format 1: the engine's serde of releases up to 0.1.0, frozen here as it was
/// (externally tagged `{"type": …, "value": …}`, cards and modes by key), so that games
/// stored then decode whatever the engine's types become.
mod v1 {
    use dominion_protocol as wire;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Setup {
        players: u8,
        kingdom: Kingdom,
        #[serde(default)]
        edition: wire::Edition,
    }

    #[derive(Deserialize)]
    #[serde(tag = "type", content = "value", rename_all = "snake_case")]
    enum Kingdom {
        Cards(Vec<String>),
        Recommended(String),
        Random,
        RandomFrom(wire::CardPool),
        RandomDraw {
            pool: wire::CardPool,
            sets: Vec<wire::CardSet>,
        },
    }

    impl Setup {
        pub fn into_wire(self) -> wire::GameSetup {
            let kingdom = match self.kingdom {
                Kingdom::Cards(cards) => wire::KingdomChoice::Cards { cards },
                Kingdom::Recommended(id) => wire::KingdomChoice::Recommended { id },
                Kingdom::Random => wire::KingdomChoice::Random {
                    pool: None,
                    sets: None,
                },
                Kingdom::RandomFrom(pool) => wire::KingdomChoice::Random {
                    pool: Some(pool),
                    sets: None,
                },
                Kingdom::RandomDraw { pool, sets } => wire::KingdomChoice::Random {
                    pool: Some(pool),
                    sets: Some(sets),
                },
            };
            wire::GameSetup {
                players: self.players,
                kingdom,
                edition: self.edition,
            }
        }
    }

    #[derive(Deserialize)]
    pub struct Score {
        player: u8,
        vp: i32,
        turns: u32,
        winner: bool,
    }

    impl Score {
        pub fn into_wire(self) -> wire::ScoreLine {
            wire::ScoreLine {
                seat: self.player,
                vp: self.vp,
                turns: self.turns,
                winner: self.winner,
            }
        }
    }

    #[derive(Deserialize)]
    #[serde(tag = "type", content = "value", rename_all = "snake_case")]
    pub enum Reply {
        Play(String),
        PlayAllTreasures,
        Buy(String),
        EndPhase,
        Cards(Vec<String>),
        Pile(Option<String>),
        Modes(Vec<wire::Mode>),
        YesNo(bool),
        Name(String),
        Number(u32),
    }

    impl Reply {
        pub fn into_wire(self) -> wire::Reply {
            match self {
                Reply::Play(card) => wire::Reply::Play { card },
                Reply::PlayAllTreasures => wire::Reply::PlayAllTreasures {},
                Reply::Buy(card) => wire::Reply::Buy { card },
                Reply::EndPhase => wire::Reply::EndPhase {},
                Reply::Cards(cards) => wire::Reply::Cards { cards },
                Reply::Pile(card) => wire::Reply::Pile { card },
                Reply::Modes(modes) => wire::Reply::Modes { modes },
                Reply::YesNo(yes) => wire::Reply::YesNo { yes },
                Reply::Name(card) => wire::Reply::Name { card },
                Reply::Number(number) => wire::Reply::Number { number },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::{Kingdom, Mode, bots};

    /// Record format 1 as release 0.1.0 wrote it (taken from the committed fixture).
    #[test]
    fn format_1_decodes_as_the_first_releases_wrote_it() {
        let setup = decode_setup(
            1,
            r#"{"players":4,"kingdom":{"type":"cards","value":["pawn","shanty_town","steward","swindler","conspirator","ironworks","saboteur","trading_post","tribute","harem"]},"edition":"1e"}"#,
        )
        .unwrap();
        assert_eq!(setup.players, 4);
        assert_eq!(setup.edition, Edition::First);
        assert!(matches!(&setup.kingdom, Kingdom::Cards(c) if c.len() == 10));
        let recommended = decode_setup(
            1,
            r#"{"players":2,"kingdom":{"type":"recommended","value":"base_2e/first_game"},"edition":"2e"}"#,
        )
        .unwrap();
        assert_eq!(
            recommended.kingdom,
            Kingdom::Recommended("base_2e/first_game".into())
        );
        let card = |k: &str| k.parse::<CardId>().unwrap();
        for (text, reply) in [
            (
                r#"{"type":"play","value":"copper"}"#,
                Reply::Play(card("copper")),
            ),
            (r#"{"type":"play_all_treasures"}"#, Reply::PlayAllTreasures),
            (
                r#"{"type":"buy","value":"silver"}"#,
                Reply::Buy(card("silver")),
            ),
            (r#"{"type":"end_phase"}"#, Reply::EndPhase),
            (
                r#"{"type":"cards","value":["estate","copper"]}"#,
                Reply::Cards(vec![card("estate"), card("copper")]),
            ),
            (r#"{"type":"pile","value":null}"#, Reply::Pile(None)),
            (
                r#"{"type":"modes","value":["plus_three_cards"]}"#,
                Reply::Modes(vec![Mode::PlusThreeCards]),
            ),
            (r#"{"type":"yes_no","value":true}"#, Reply::YesNo(true)),
            (
                r#"{"type":"name","value":"gold"}"#,
                Reply::Name(card("gold")),
            ),
            (r#"{"type":"number","value":3}"#, Reply::Number(3)),
        ] {
            assert_eq!(decode_reply(1, text), Ok(reply), "{text}");
        }
        assert!(decode_reply(1, r#"{"type":"play","value":"dragon"}"#).is_err());
        let scores = decode_scores(
            1,
            r#"[{"player":0,"vp":39,"turns":17,"winner":true},{"player":1,"vp":24,"turns":16,"winner":false}]"#,
        )
        .unwrap();
        assert_eq!(
            (
                scores[1].seat,
                scores[1].vp,
                scores[1].turns,
                scores[1].winner
            ),
            (1, 24, 16, false)
        );
    }

    #[test]
    fn format_2_is_the_wire_and_round_trips_every_reply_of_a_game() {
        let setup = Setup {
            players: 3,
            kingdom: Kingdom::Recommended("base_intrigue_2e/underlings".into()),
            edition: Edition::Second,
        };
        let mut game = Game::new(&setup, 11).unwrap();
        let mut agents: Vec<_> = ["minion", "masquerade", "big_money"]
            .iter()
            .enumerate()
            .map(|(i, b)| bots::by_name(b, i as u64).unwrap())
            .collect();
        game.play_out(&mut agents);
        let text = encode_setup(3, Edition::Second, game.kingdom());
        assert!(
            text.contains(r#""kingdom":{"type":"cards","cards":["#),
            "{text}"
        );
        let decoded = decode_setup(2, &text).unwrap();
        assert_eq!(decoded.kingdom, Kingdom::Cards(game.kingdom().to_vec()));
        for (_, r) in game.replies() {
            let text = encode_reply(r);
            assert_eq!(decode_reply(2, &text).as_ref(), Ok(r), "{text}");
        }
        let scores = encode_scores(&game.scores());
        assert!(scores.starts_with(r#"[{"seat":0,"vp":"#), "{scores}");
        assert_eq!(decode_scores(2, &scores).unwrap().len(), 3);
        assert_eq!(
            encode_reply(&Reply::Play("copper".parse().unwrap())),
            r#"{"type":"play","card":"copper"}"#
        );
    }

    #[test]
    fn unknown_formats_and_rules_are_refused_with_a_reason() {
        let row = |format, rules| {
            GameRow {
            room_id: "r".into(),
            setup: r#"{"players":2,"kingdom":{"type":"recommended","id":"base_2e/first_game"},"edition":"2e"}"#.into(),
            version: RecordVersion { format, rules },
            seed: 1,
            replies: vec![],
            last_hash: String::new(),
            started_at: 0,
            finished_at: None,
            scores: None,
            abandoned: false,
        }
        };
        assert!(decode(&row(2, RULES_VERSION)).is_ok());
        let e = decode(&row(3, RULES_VERSION)).unwrap_err();
        assert!(e.contains("record format 3"), "{e}");
        let e = decode(&row(2, RULES_VERSION + 1)).unwrap_err();
        assert!(
            e.contains(&format!("rules version {}", RULES_VERSION + 1)),
            "{e}"
        );
        let e = decode(&row(2, 0)).unwrap_err();
        assert!(e.contains("rules version 0"), "{e}");
    }
}
