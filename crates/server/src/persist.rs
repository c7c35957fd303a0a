//! The durable [`RoomLog`]: rooms, seats, setups, seeds and replies in SQLite, through
//! `dominion-store` — and the way back: rebuilding rooms from it after a restart.
//!
//! **Group commit.** Rooms never touch SQLite themselves. Each step becomes a
//! [`Write`] sent to one dedicated writer thread (a `std::thread`, so no fsync ever runs
//! on the async runtime's workers), which owns the only writing connection. The thread
//! takes every write waiting — the replies of many rooms, room saves, starts, ends — and
//! commits them in one transaction with cached statements, then answers each room's
//! [`Commit`]. One fsync (with the default `synchronous=FULL`) thus covers as many
//! replies as arrived while the previous one ran: the busier the server, the larger the
//! batches. A room does not broadcast the result of a reply until its commit has been
//! answered, so an acknowledged reply is on disk; meanwhile the other rooms play on.
//! `dominion_sqlite_write_seconds` measures each batch.
//!
//! **Failures.** Each write runs in its own savepoint: a refused one (out of order, no
//! such game) is rolled back alone and fails only its room. If the transaction itself
//! cannot commit (I/O error, full disk, a lock held elsewhere too long), nothing of it is
//! stored; the writer then retries each of its writes alone, once, so that only the
//! rooms whose own writes fail are marked broken — a full disk fails them all, one bad
//! write fails one room. A single write is not retried (its failure is its own).
//!
//! **Reads** (recovery, the history API) use a second connection: with WAL, readers see
//! every committed batch and never wait for the writer.
//!
//! **Formats.** Setups and replies are stored in the published wire format, with the
//! engine's rules version beside them; games of older releases decode by the format
//! they were stored in (see [`crate::record`]).
//!
//! **Verification.** After every reply the store keeps the engine's state digest
//! (`Game::digest`, format in docs/storage.md) as `d1:` and 16 hex digits. Recovery
//! replays each unfinished game's log and compares the digest stored with the last
//! reply. Games stored by the first release carry the JSON `state_hash` instead (16 hex
//! digits, no prefix); those are checked with `state_hash`, so an upgrade keeps them. A
//! log that fails either way marks its room broken with the reason; the others reopen.

use crate::metrics::Metrics;
use crate::record;
use crate::store::{Commit, LogError, RoomLog, RoomRecord, SeatRecord};
use crate::token::TokenHash;
use dominion_engine::{Game, Kingdom, PlayerId, Reply, Score, Setup};
use dominion_protocol::RoomSettings;
use dominion_store::{
    Durability, FinishedGame, GameRow, Reader, RoomRow, RoomStatus, SeatRow, Store, StoreError,
    Write,
};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::oneshot;

/// Most writes in one transaction: a bound on the time one batch holds the rooms in it.
const MAX_BATCH: usize = 1024;

/// The prefix of a stored state digest (format version 1, docs/storage.md).
const DIGEST_PREFIX: &str = "d1:";

pub struct SqliteLog {
    /// To the writer thread. Each room has at most one write in flight (it awaits each),
    /// so this holds at most one job per room: no further bound is needed.
    writer: mpsc::Sender<Job>,
    reader: Mutex<Reader>,
}

/// One write and who waits for it.
struct Job {
    write: Write,
    done: Done,
}

enum Done {
    /// A room task, awaiting its [`Commit`].
    Async(oneshot::Sender<Result<(), LogError>>),
    /// Start-up code outside any room (recovery), blocking until the commit.
    Blocking(mpsc::SyncSender<Result<(), LogError>>),
}

impl Done {
    fn send(self, result: Result<(), LogError>) {
        // A receiver that went away (a room task ended) needs no answer.
        match self {
            Done::Async(tx) => {
                let _ = tx.send(result);
            }
            Done::Blocking(tx) => {
                let _ = tx.send(result);
            }
        }
    }
}

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot start the store's writer thread: {0}")]
    Thread(std::io::Error),
}

/// A room read back from the store, ready to reopen.
pub struct Recovered {
    pub id: String,
    pub settings: RoomSettings,
    /// The host's seat, if the room had one.
    pub host: Option<u8>,
    pub seats: Vec<SeatRecord>,
    /// The game rebuilt by replaying its log, if it had started.
    pub game: Option<RecoveredGame>,
    /// The store recorded the game's end (the room reopens only so its players can still
    /// learn the result).
    pub finished: bool,
}

pub struct RecoveredGame {
    pub setup: Setup,
    pub game: Game,
}

/// A room that could not be reopened, and why.
#[derive(Debug)]
pub struct BrokenRoom {
    pub id: String,
    pub reason: String,
}

/// A state digest as stored: `d1:` and 16 hex digits.
pub fn digest_text(digest: u64) -> String {
    format!("{DIGEST_PREFIX}{digest:016x}")
}

/// The first release's JSON state hash as it stored it: 16 hex digits.
pub fn legacy_hash_text(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Checks a replayed game against the hash stored after its last reply: a digest, or
/// the first release's JSON state hash.
fn verify(game: &Game, stored: &str, replies: usize) -> Result<(), String> {
    let (kind, actual) = if stored.starts_with(DIGEST_PREFIX) {
        ("state digest", digest_text(game.digest()))
    } else if stored.len() == 16 && stored.bytes().all(|b| b.is_ascii_hexdigit()) {
        ("state hash", legacy_hash_text(game.state_hash()))
    } else {
        return Err(format!(
            "the log's state hash {stored:?} is in no format this server knows"
        ));
    };
    if actual == stored {
        Ok(())
    } else {
        Err(format!(
            "{kind} after {replies} replies is {actual}, the log says {stored}: the engine changed incompatibly"
        ))
    }
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn log_err(e: impl std::fmt::Display) -> LogError {
    LogError(e.to_string())
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, LogError> {
    serde_json::to_string(v).map_err(log_err)
}

impl SqliteLog {
    /// Opens the store (checking that it can be written: see `Store::open`), a reading
    /// connection beside it, and starts the writer thread.
    pub fn open(
        data_dir: &Path,
        durability: Durability,
        metrics: Arc<Metrics>,
    ) -> Result<SqliteLog, OpenError> {
        let store = Store::open(data_dir, durability)?;
        let reader = Reader::open(data_dir)?;
        let (writer, jobs) = mpsc::channel();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_loop(store, jobs, &metrics))
            .map_err(OpenError::Thread)?;
        Ok(SqliteLog {
            writer,
            reader: Mutex::new(reader),
        })
    }

    fn reader(&self) -> MutexGuard<'_, Reader> {
        // A panic while holding the lock leaves a connection that SQLite keeps consistent:
        // keep using it.
        self.reader.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `write` to the writer thread.
    fn submit(&self, write: Write) -> Commit {
        let (tx, rx) = oneshot::channel();
        match self.writer.send(Job {
            write,
            done: Done::Async(tx),
        }) {
            Ok(()) => Commit::waiting(rx),
            Err(_) => Commit::ready(Err(LogError("the store's writer has stopped".into()))),
        }
    }

    /// Hands `write` to the writer thread and blocks until it is committed: for start-up
    /// code, never for rooms.
    fn submit_blocking(&self, write: Write) -> Result<(), LogError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.writer
            .send(Job {
                write,
                done: Done::Blocking(tx),
            })
            .map_err(|_| LogError("the store's writer has stopped".into()))?;
        rx.recv()
            .map_err(|_| LogError("the store's writer has stopped".into()))?
    }

    /// Every open or playing room, and every room whose game finished within
    /// `finished_ttl`, rebuilt; and the ones that could not be (now marked broken in the
    /// store), with the rooms broken before.
    pub fn recover(
        &self,
        finished_ttl: std::time::Duration,
    ) -> Result<(Vec<Recovered>, Vec<BrokenRoom>), LogError> {
        let since = now_secs().saturating_sub(finished_ttl.as_secs() as i64);
        let live = self
            .reader()
            .view()
            .rooms_to_reopen(since)
            .map_err(log_err)?;
        let mut ok = Vec::new();
        let mut broken = Vec::new();
        for (room, seats) in live {
            let game = self.reader().view().game(&room.id).map_err(log_err)?;
            let format = game.as_ref().map(|g| g.version.format);
            match rebuild(&room, &seats, game) {
                Ok(r) => {
                    if let (Some(format), Some(g)) = (format, &r.game)
                        && format != record::RECORD_FORMAT
                    {
                        self.rewrite(&room.id, &g.game)?;
                        tracing::info!(
                            room = %room.id,
                            from = format,
                            to = record::RECORD_FORMAT,
                            "game record re-encoded"
                        );
                    }
                    ok.push(r)
                }
                Err(reason) => {
                    tracing::error!(room = %room.id, %reason, "room cannot be recovered; marked broken");
                    self.mark_broken(&room.id, &reason)?;
                    broken.push(BrokenRoom {
                        id: room.id,
                        reason,
                    });
                }
            }
        }
        Ok((ok, broken))
    }

    /// Re-encodes a reopened game stored in an older record format in the current one,
    /// from its replay (which was just checked against the stored digest), so that the
    /// replies it gets from now on are in the same format as the ones before.
    fn rewrite(&self, room: &str, game: &Game) -> Result<(), LogError> {
        let setup = game.setup();
        self.submit_blocking(Write::RewriteRecord {
            room_id: room.to_string(),
            format: record::RECORD_FORMAT,
            setup: record::encode_setup(setup.players, setup.edition, game.kingdom()),
            replies: game
                .replies()
                .iter()
                .map(|(_, r)| record::encode_reply(r))
                .collect(),
            scores: game
                .is_over()
                .then(|| record::encode_scores(&game.scores())),
        })
    }

    /// A game's stored record (any state).
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, LogError> {
        self.reader().view().game(id).map_err(log_err)
    }

    /// A game's stored record with its room's seats.
    pub fn game_and_seats(&self, id: &str) -> Result<Option<(GameRow, Vec<SeatRow>)>, LogError> {
        let reader = self.reader();
        let Some(game) = reader.view().game(id).map_err(log_err)? else {
            return Ok(None);
        };
        let seats = reader
            .view()
            .room(id)
            .map_err(log_err)?
            .map(|(_, seats)| seats)
            .unwrap_or_default();
        Ok(Some((game, seats)))
    }

    /// Ended games (finished or abandoned), newest first.
    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>, LogError> {
        self.reader().view().finished_games(limit).map_err(log_err)
    }

    /// Marks a room broken, waiting for the commit (start-up code only).
    pub fn mark_broken(&self, room: &str, reason: &str) -> Result<(), LogError> {
        self.submit_blocking(Write::SetStatus {
            id: room.to_string(),
            status: RoomStatus::Broken,
            reason: Some(reason.to_string()),
        })
    }

    pub fn integrity_check(&self) -> Result<String, LogError> {
        self.reader().view().integrity_check().map_err(log_err)
    }
}

/// The writer thread: takes every job waiting (up to [`MAX_BATCH`]), commits them in one
/// transaction, answers each; until every sender is gone.
fn write_loop(mut store: Store, jobs: mpsc::Receiver<Job>, metrics: &Metrics) {
    let mut writes = Vec::new();
    let mut waiting = Vec::new();
    while let Ok(first) = jobs.recv() {
        let mut next = Some(first);
        while let Some(job) = next {
            writes.push(job.write);
            waiting.push(job.done);
            next = if writes.len() < MAX_BATCH {
                jobs.try_recv().ok()
            } else {
                None
            };
        }
        let start = Instant::now();
        let results = commit(&mut store, &writes);
        metrics.sqlite_write.observe(start.elapsed().as_secs_f64());
        for (done, result) in waiting.drain(..).zip(results) {
            done.send(result);
        }
        writes.clear();
    }
}

/// One group commit, with the retry described in the module docs.
fn commit(store: &mut Store, writes: &[Write]) -> Vec<Result<(), LogError>> {
    match store.write_batch(writes) {
        Ok(results) => results.into_iter().map(|r| r.map_err(log_err)).collect(),
        Err(e) if writes.len() == 1 => vec![Err(log_err(e))],
        Err(e) => {
            tracing::warn!(
                writes = writes.len(),
                "a group commit failed ({e}); retrying each write alone"
            );
            writes
                .iter()
                .map(|w| {
                    let r = store.write(w.clone()).map_err(log_err);
                    if let Err(e) = &r {
                        tracing::error!(room = %w.room(), "a write failed alone too: {e}");
                    }
                    r
                })
                .collect()
        }
    }
}

/// Parses a stored room and replays its game.
fn rebuild(room: &RoomRow, seats: &[SeatRow], game: Option<GameRow>) -> Result<Recovered, String> {
    let settings: RoomSettings = serde_json::from_str(&room.settings)
        .map_err(|e| format!("unreadable room settings: {e}"))?;
    let seats = seats
        .iter()
        .map(|s| match (&s.bot, &s.token_hash) {
            (Some(bot), _) => SeatRecord::Bot { bot: bot.clone() },
            (None, Some(hash)) => SeatRecord::Human {
                name: s.name.clone(),
                token_hash: <[u8; 32]>::try_from(hash.as_slice())
                    .map(|h| TokenHash(h).to_hex())
                    .unwrap_or_default(),
                last_command: s.last_command,
            },
            (None, None) => SeatRecord::Open,
        })
        .collect();
    let game = match game {
        None => None,
        Some(row) => {
            let record = record::decode(&row)?;
            let n = record.replies.len();
            let game =
                Game::replay(&record).map_err(|e| format!("the log does not replay: {e}"))?;
            verify(&game, &row.last_hash, n)?;
            Some(RecoveredGame {
                setup: record.setup,
                game,
            })
        }
    };
    Ok(Recovered {
        id: room.id.clone(),
        settings,
        host: room.host,
        seats,
        game,
        finished: room.status == RoomStatus::Finished,
    })
}

impl RoomLog for SqliteLog {
    fn room_saved(&self, room: &RoomRecord) -> Commit {
        let settings = match json(&room.settings) {
            Ok(s) => s,
            Err(e) => return Commit::ready(Err(e)),
        };
        let row = RoomRow {
            id: room.id.clone(),
            settings,
            status: RoomStatus::Open,
            broken_reason: None,
            created_at: now_secs(),
            host: room.host,
        };
        let seats: Vec<SeatRow> = room
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                SeatRecord::Open => SeatRow {
                    seat: i as u8,
                    name: String::new(),
                    token_hash: None,
                    bot: None,
                    last_command: 0,
                },
                SeatRecord::Bot { bot } => SeatRow {
                    seat: i as u8,
                    name: String::new(),
                    token_hash: None,
                    bot: Some(bot.clone()),
                    last_command: 0,
                },
                SeatRecord::Human {
                    name,
                    token_hash,
                    last_command,
                } => SeatRow {
                    seat: i as u8,
                    name: name.clone(),
                    token_hash: TokenHash::from_hex(token_hash).map(|h| h.0.to_vec()),
                    bot: None,
                    last_command: *last_command,
                },
            })
            .collect();
        self.submit(Write::SaveRoom { room: row, seats })
    }

    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        digest: u64,
        command: Option<(u8, u64)>,
    ) -> Commit {
        let Kingdom::Cards(kingdom) = &setup.kingdom else {
            return Commit::ready(Err(LogError(
                "a started game is stored with its kingdom as drawn".into(),
            )));
        };
        self.submit(Write::StartGame {
            room_id: room.to_string(),
            setup: record::encode_setup(setup.players, setup.edition, kingdom),
            version: record::CURRENT,
            seed,
            hash: digest_text(digest),
            now: now_secs(),
            command,
        })
    }

    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        digest: u64,
        command: Option<u64>,
    ) -> Commit {
        self.submit(Write::AppendReply {
            room_id: room.to_string(),
            seq: index,
            player: player.0,
            reply: record::encode_reply(reply),
            hash: digest_text(digest),
            now: now_secs(),
            command,
        })
    }

    fn replies_taken_back(&self, room: &str, keep: u64, digest: u64) -> Commit {
        self.submit(Write::TruncateReplies {
            room_id: room.to_string(),
            keep,
            hash: digest_text(digest),
        })
    }

    fn game_finished(&self, room: &str, scores: &[Score]) -> Commit {
        self.submit(Write::FinishGame {
            room_id: room.to_string(),
            scores: record::encode_scores(scores),
            now: now_secs(),
        })
    }

    fn game_abandoned(&self, room: &str) -> Commit {
        self.submit(Write::AbandonGame {
            room_id: room.to_string(),
            now: now_secs(),
        })
    }

    fn room_closed(&self, room: &str) -> Commit {
        // A room that never started leaves nothing worth keeping; a started game stays
        // (finished ones are history, unfinished ones reopen on the next start). The
        // store decides, in the same transaction.
        self.submit(Write::CloseRoom {
            id: room.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::{Edition, Kingdom};

    fn game() -> Game {
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        Game::new(&setup, 7).unwrap()
    }

    fn reply(room: &str, seq: u64) -> Write {
        Write::AppendReply {
            room_id: room.into(),
            seq,
            player: 0,
            reply: "{}".into(),
            hash: digest_text(seq),
            now: 1,
            command: None,
        }
    }

    #[test]
    fn a_group_commit_fails_only_the_writes_that_fail() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), Durability::Full).unwrap();
        for id in ["a", "b"] {
            let room = RoomRow {
                id: id.into(),
                settings: "{}".into(),
                status: RoomStatus::Open,
                broken_reason: None,
                created_at: 1,
                host: None,
            };
            store.save_room(&room, &[]).unwrap();
            store
                .start_game(id, "{}", record::CURRENT, 1, "d1:0", 1)
                .unwrap();
        }
        // One room's write is refused (a gap in its log): the other two commit.
        let results = commit(&mut store, &[reply("a", 0), reply("b", 5), reply("b", 0)]);
        assert!(results[0].is_ok() && results[2].is_ok(), "{results:?}");
        assert!(results[1].is_err(), "{results:?}");
        // The transaction cannot be had (another process holds the write lock): every
        // write is retried alone, fails alone too, and none is reported stored.
        store.set_busy_timeout(std::time::Duration::ZERO).unwrap();
        let lock = rusqlite::Connection::open(store.path().unwrap()).unwrap();
        lock.execute_batch("BEGIN IMMEDIATE").unwrap();
        let results = commit(&mut store, &[reply("a", 1), reply("b", 1)]);
        assert!(results.iter().all(Result::is_err), "{results:?}");
        lock.execute_batch("ROLLBACK").unwrap();
        let reader = Reader::open(dir.path()).unwrap();
        for id in ["a", "b"] {
            assert_eq!(reader.view().game(id).unwrap().unwrap().replies.len(), 1);
        }
        // Once the lock is gone the same writes commit together.
        let results = commit(&mut store, &[reply("a", 1), reply("b", 1)]);
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    }

    #[test]
    fn digests_are_stored_with_their_format_version() {
        assert_eq!(digest_text(0xd1ff_ddcf_e5fa_8f10), "d1:d1ffddcfe5fa8f10");
        assert_eq!(legacy_hash_text(0xab), "00000000000000ab");
    }

    #[test]
    fn a_replay_is_checked_against_a_digest_or_a_first_release_hash() {
        let g = game();
        assert_eq!(verify(&g, &digest_text(g.digest()), 0), Ok(()));
        assert_eq!(verify(&g, &legacy_hash_text(g.state_hash()), 0), Ok(()));
        let wrong = verify(&g, &digest_text(g.digest() ^ 1), 0).unwrap_err();
        assert!(wrong.contains("state digest after 0 replies"), "{wrong}");
        let wrong = verify(&g, &legacy_hash_text(g.state_hash() ^ 1), 0).unwrap_err();
        assert!(wrong.contains("state hash after 0 replies"), "{wrong}");
        // A first-release hash is never mistaken for a digest of the same number.
        assert!(verify(&g, &legacy_hash_text(g.digest()), 0).is_err());
        let unknown = verify(&g, "d9:0000000000000000", 0).unwrap_err();
        assert!(unknown.contains("no format"), "{unknown}");
    }
}
