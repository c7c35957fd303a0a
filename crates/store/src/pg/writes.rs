//! Each write's statements, described once: which statement, its parameters, and what
//! its answer must be for the write to stand.
//!
//! Two paths run them: the pipelined one ([`super::pipeline`]) sends every statement of
//! a batch before the first answer is in and only checks the answers, and the blocking
//! one ([`super::apply`], with a savepoint per write, or without for a batch that rates a
//! game) runs them one by one and stops at the first that does not stand, with the
//! error that says why. Both take the statements from [`parts`], so they cannot drift
//! apart: the same statements in the same order with the same parameters, and the same
//! rule for when a write stands ([`Expect::check`]).

use super::Statements;
use crate::snapshots::pg as snapshots;
use crate::{Fence, MAX_TAKEN_BACK, Result, StoreError, Write};
use postgres::types::ToSql;
use postgres::{Row, Statement};

/// A parameter, owned where it is computed from the write (a number widened, a seed
/// formatted), else borrowed from it.
pub(super) type Param<'a> = Box<dyn ToSql + Sync + 'a>;

/// A statement: one prepared on the connection, or a text sent unprepared (a snapshot's,
/// rare enough not to be kept prepared).
#[derive(Clone, Copy)]
pub(super) enum Sql<'a> {
    Prepared(&'a Statement),
    Text(&'static str),
}

/// One statement of a write.
pub(super) struct Part<'a> {
    pub sql: Sql<'a>,
    pub params: Vec<Param<'a>>,
    pub expect: Expect,
}

impl Part<'_> {
    /// The parameters as the clients take them.
    pub fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params.iter().map(|p| &**p as _).collect()
    }
}

/// A statement's answer: rows changed, or the rows it returned ([`Expect::rows`]).
pub(super) enum Answer {
    Count(u64),
    Rows(Vec<Row>),
}

/// What a statement's answer must be for its write to stand, with what a refusal says.
#[derive(Clone, Copy, Debug)]
pub(super) enum Expect {
    Anything,
    /// At least one row changed; else the write is refused as `Missing` says.
    Changed(Missing),
    /// Exactly one row changed: reply `seq` of a rewritten record.
    Rewritten {
        seq: u64,
    },
    /// Replies taken back after `keep`: some, and at most [`MAX_TAKEN_BACK`].
    TakenBack {
        keep: u64,
    },
    /// One row holding a count of `n`: the replies stored, for a rewritten record of `n`.
    Count(i64),
    /// A reply appended as number `seq`: one row with the expected number and whether
    /// the game's row was there (`append_reply`).
    Reply(u64),
}

/// What is missing when a statement that must change a row changes none.
#[derive(Clone, Copy, Debug)]
pub(super) enum Missing {
    Room,
    Game,
    /// A snapshot of reply `upto`, which the game does not hold.
    Snapshot {
        upto: u64,
    },
    /// A claim under `token`, not newer than the room's (the current one is read by
    /// the blocking path, which reports it).
    Fence {
        token: i64,
    },
}

impl Expect {
    /// Whether the statement returns rows (`query`) rather than a count (`execute`).
    pub fn rows(self) -> bool {
        matches!(self, Expect::Count(_) | Expect::Reply(_))
    }

    /// Ok if `answer` lets the write of `room` stand; else the refusal.
    pub fn check(self, room: &str, answer: &Answer) -> Result<()> {
        let room = || room.to_string();
        let rewrite = |reason: String| StoreError::Rewrite {
            room: room(),
            reason,
        };
        match (self, answer) {
            (Expect::Anything, _) => Ok(()),
            (Expect::Changed(_), Answer::Count(n)) if *n > 0 => Ok(()),
            (Expect::Changed(missing), Answer::Count(_)) => Err(match missing {
                Missing::Room => StoreError::NoRoom(room()),
                Missing::Game => StoreError::NoGame(room()),
                Missing::Snapshot { upto } => crate::snapshots::refused(&room(), upto),
                Missing::Fence { token } => StoreError::Fenced {
                    room: room(),
                    token,
                    current: None,
                },
            }),
            (Expect::Rewritten { seq }, Answer::Count(n)) => match n {
                1 => Ok(()),
                _ => Err(rewrite(format!("reply {seq} is missing from the log"))),
            },
            (Expect::TakenBack { keep }, Answer::Count(n)) => {
                match *n > 0 && *n as usize <= MAX_TAKEN_BACK {
                    true => Ok(()),
                    false => Err(rewrite(format!("taking back {n} replies after {keep}"))),
                }
            }
            (Expect::Count(want), Answer::Rows(rows)) => {
                let stored = one(rows)?.try_get::<_, i64>(0)?;
                match stored == want {
                    true => Ok(()),
                    false => Err(rewrite(format!("{want} replies given for {stored} stored"))),
                }
            }
            (Expect::Reply(seq), Answer::Rows(rows)) => {
                let row = one(rows)?;
                let (next, game): (i64, bool) = (row.try_get(0)?, row.try_get(1)?);
                if next as u64 != seq {
                    return Err(StoreError::OutOfOrder {
                        room: room(),
                        expected: next as u64,
                        got: seq,
                    });
                }
                match game {
                    true => Ok(()),
                    false => Err(StoreError::NoGame(room())),
                }
            }
            (expect, _) => Err(StoreError::Runtime(std::io::Error::other(format!(
                "{expect:?}: a statement answered rows for a count or a count for rows"
            )))),
        }
    }
}

/// The single row a statement must return (as `query_one` requires).
fn one(rows: &[Row]) -> Result<&Row> {
    match rows {
        [row] => Ok(row),
        _ => Err(StoreError::Runtime(std::io::Error::other(format!(
            "a statement answered {} rows instead of one",
            rows.len()
        )))),
    }
}

/// Boxes parameters (each `ToSql + Sync`, borrowed from the write or owned).
macro_rules! params {
    ($($p:expr),* $(,)?) => { vec![$(Box::new($p) as Param<'_>),*] };
}

/// A part on a prepared statement.
fn part<'a>(statement: &'a Statement, params: Vec<Param<'a>>, expect: Expect) -> Part<'a> {
    Part {
        sql: Sql::Prepared(statement),
        params,
        expect,
    }
}

/// The statements of `w` (written under `fence`, if any), in order. A game's rating
/// (`FinishGame` or `AbandonGame` with `rated`) reads before it writes, so it is not
/// among them: the blocking path applies it after them (`crate::ratings::apply`).
pub(super) fn parts<'a>(
    st: &'a Statements,
    fence: Option<&'a Fence>,
    w: &'a Write,
) -> Vec<Part<'a>> {
    use Expect::{Anything, Changed};
    // An ended game is replayed if ever reopened: its snapshots are done with.
    let truncate_snapshots = |room_id: &'a String, keep: u64| Part {
        sql: Sql::Text(snapshots::TRUNCATE),
        params: params![room_id, keep as i64],
        expect: Anything,
    };
    match w {
        Write::SaveRoom { room, seats } => {
            let mut parts = vec![
                part(
                    &st.upsert_room,
                    params![
                        &room.id,
                        &room.settings,
                        room.status.as_str(),
                        &room.broken_reason,
                        room.created_at,
                        room.host.map(i64::from),
                    ],
                    Anything,
                ),
                part(&st.delete_seats, params![&room.id], Anything),
            ];
            parts.extend(seats.iter().map(|s| {
                part(
                    &st.insert_seat,
                    params![
                        &room.id,
                        i64::from(s.seat),
                        &s.name,
                        &s.token_hash,
                        &s.bot,
                        s.last_command as i64,
                    ],
                    Anything,
                )
            }));
            parts
        }
        Write::CloseRoom { id } => vec![
            part(&st.close_seats, params![id], Anything),
            part(&st.close_room, params![id], Anything),
        ],
        Write::SetStatus { id, status, reason } => vec![part(
            &st.set_status,
            params![id, status.as_str(), reason],
            Changed(Missing::Room),
        )],
        Write::StartGame {
            room_id,
            setup,
            version,
            seed,
            hash,
            now,
            command,
        } => {
            let mut parts = vec![
                part(
                    &st.insert_game,
                    params![
                        room_id,
                        setup,
                        seed.to_string(),
                        hash,
                        now,
                        i64::from(version.format),
                        i64::from(version.rules),
                    ],
                    Anything,
                ),
                part(&st.mark_playing, params![room_id], Anything),
            ];
            if let Some((seat, id)) = command {
                // Raises the starting seat's last command id (never lowers it).
                parts.push(part(
                    &st.note_command,
                    params![room_id, i64::from(*seat), *id as i64],
                    Anything,
                ));
            }
            parts
        }
        Write::AppendReply {
            room_id,
            seq,
            player,
            reply,
            hash,
            now,
            command,
        } => vec![part(
            match st.legacy {
                true => &st.append_reply_legacy,
                false => &st.append_reply,
            },
            params![
                room_id,
                *seq as i64,
                i64::from(*player),
                reply,
                hash,
                now,
                fence.map(|f| f.node.as_str()),
                fence.map(|f| f.token),
                command.map(|id| id as i64),
            ],
            Expect::Reply(*seq),
        )],
        Write::FinishGame {
            room_id,
            scores,
            now,
            rated: _,
        } => vec![
            part(
                &st.finish_game,
                params![room_id, scores, now],
                Changed(Missing::Game),
            ),
            part(&st.mark_finished, params![room_id], Anything),
            truncate_snapshots(room_id, 0),
        ],
        Write::AbandonGame {
            room_id,
            now,
            rated: _,
        } => vec![
            part(
                &st.abandon_game,
                params![room_id, now],
                Changed(Missing::Game),
            ),
            part(&st.mark_abandoned, params![room_id], Anything),
            truncate_snapshots(room_id, 0),
        ],
        Write::TruncateReplies {
            room_id,
            keep,
            hash,
        } => vec![
            part(
                &st.truncate_hash,
                params![room_id, hash],
                Changed(Missing::Game),
            ),
            part(
                &st.keep_taken_back_commands,
                params![room_id, *keep as i64],
                Anything,
            ),
            part(
                &st.truncate_replies,
                params![room_id, *keep as i64],
                Expect::TakenBack { keep: *keep },
            ),
            truncate_snapshots(room_id, *keep),
        ],
        Write::RewriteRecord {
            room_id,
            format,
            setup,
            replies,
            scores,
        } => {
            let mut parts = vec![
                part(
                    &st.count_replies,
                    params![room_id],
                    Expect::Count(replies.len() as i64),
                ),
                part(
                    &st.rewrite_game,
                    params![room_id, i64::from(*format), setup, scores],
                    Changed(Missing::Game),
                ),
            ];
            parts.extend(replies.iter().enumerate().map(|(seq, reply)| {
                part(
                    &st.rewrite_reply,
                    params![room_id, seq as i64, reply],
                    Expect::Rewritten { seq: seq as u64 },
                )
            }));
            parts
        }
        Write::SaveSnapshot {
            room_id,
            snapshot,
            now,
        } => vec![Part {
            sql: Sql::Text(snapshots::SAVE),
            params: params![
                room_id,
                snapshot.upto as i64,
                i64::from(snapshot.format),
                i64::from(snapshot.rules),
                &snapshot.digest,
                &snapshot.body,
                now,
            ],
            expect: Changed(Missing::Snapshot {
                upto: snapshot.upto,
            }),
        }],
        Write::Claim {
            room_id,
            node,
            token,
            now,
        } => vec![
            part(
                &st.claim,
                params![room_id, token, node, now],
                Changed(Missing::Fence { token: *token }),
            ),
            part(
                &st.insert_claim,
                params![room_id, token, node, now],
                Anything,
            ),
        ],
    }
}
