//! The durable [`RoomLog`]: rooms, seats, setups, seeds and replies in SQLite, through
//! `dominion-store` — and the way back: rebuilding rooms from it after a restart.
//!
//! Calls arrive from room tasks and write synchronously: a room does not broadcast the
//! result of a reply until `reply_accepted` has returned, i.e. until the reply is
//! committed (fsynced with the default `synchronous=FULL`). A write takes well under a
//! millisecond with WAL on an idle disk; `dominion_sqlite_write_seconds` measures it.
//!
//! Recovery replays each unfinished game's log through the engine and compares the state
//! hash stored with the last reply. A log that fails either way marks its room broken
//! with the reason; the other rooms reopen normally.

use crate::metrics::Metrics;
use crate::store::{LogError, RoomLog, RoomRecord, SeatRecord};
use crate::token::TokenHash;
use dominion_engine::{Game, GameRecord, PlayerId, Reply, Score, Setup};
use dominion_protocol::RoomSettings;
use dominion_store::{Durability, FinishedGame, GameRow, RoomRow, RoomStatus, SeatRow, Store};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

pub struct SqliteLog {
    store: Mutex<Store>,
    metrics: Arc<Metrics>,
}

/// A room read back from the store, ready to reopen.
pub struct Recovered {
    pub id: String,
    pub settings: RoomSettings,
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

/// The engine hash as stored: 16 hex digits.
pub fn hash_text(hash: u64) -> String {
    format!("{hash:016x}")
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
    pub fn open(
        data_dir: &Path,
        durability: Durability,
        metrics: Arc<Metrics>,
    ) -> Result<SqliteLog, dominion_store::StoreError> {
        Ok(SqliteLog {
            store: Mutex::new(Store::open(data_dir, durability)?),
            metrics,
        })
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock leaves a connection that SQLite keeps consistent
        // (an unfinished transaction rolls back): keep using it.
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one write, timing it for the metrics.
    fn write<T>(
        &self,
        f: impl FnOnce(&mut Store) -> dominion_store::Result<T>,
    ) -> Result<T, LogError> {
        let start = Instant::now();
        let out = f(&mut self.store()).map_err(log_err);
        self.metrics
            .sqlite_write
            .observe(start.elapsed().as_secs_f64());
        out
    }

    /// Every open or playing room, and every room whose game finished within
    /// `finished_ttl`, rebuilt; and the ones that could not be (now marked broken in the
    /// store), with the rooms broken before.
    pub fn recover(
        &self,
        finished_ttl: std::time::Duration,
    ) -> Result<(Vec<Recovered>, Vec<BrokenRoom>), LogError> {
        let since = now_secs().saturating_sub(finished_ttl.as_secs() as i64);
        let live = self.store().rooms_to_reopen(since).map_err(log_err)?;
        let mut ok = Vec::new();
        let mut broken = Vec::new();
        for (room, seats) in live {
            let game = self.store().game(&room.id).map_err(log_err)?;
            match rebuild(&room, &seats, game) {
                Ok(r) => ok.push(r),
                Err(reason) => {
                    tracing::error!(room = %room.id, %reason, "room cannot be recovered; marked broken");
                    self.write(|s| s.set_status(&room.id, RoomStatus::Broken, Some(&reason)))?;
                    broken.push(BrokenRoom {
                        id: room.id,
                        reason,
                    });
                }
            }
        }
        Ok((ok, broken))
    }

    /// A game's stored record (any state).
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, LogError> {
        self.store().game(id).map_err(log_err)
    }

    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>, LogError> {
        self.store().finished_games(limit).map_err(log_err)
    }

    pub fn mark_broken(&self, room: &str, reason: &str) -> Result<(), LogError> {
        self.write(|s| s.set_status(room, RoomStatus::Broken, Some(reason)))
    }

    pub fn integrity_check(&self) -> Result<String, LogError> {
        self.store().integrity_check().map_err(log_err)
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
            },
            (None, None) => SeatRecord::Open,
        })
        .collect();
    let game = match game {
        None => None,
        Some(row) => {
            let setup: Setup =
                serde_json::from_str(&row.setup).map_err(|e| format!("unreadable setup: {e}"))?;
            let replies = row
                .replies
                .iter()
                .enumerate()
                .map(|(i, (p, r))| {
                    serde_json::from_str::<Reply>(r)
                        .map(|r| (PlayerId(*p), r))
                        .map_err(|e| format!("unreadable reply {i}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let n = replies.len();
            let record = GameRecord {
                setup: setup.clone(),
                seed: row.seed,
                replies,
            };
            let game =
                Game::replay(&record).map_err(|e| format!("the log does not replay: {e}"))?;
            let hash = hash_text(game.state_hash());
            if hash != row.last_hash {
                return Err(format!(
                    "state hash after {n} replies is {hash}, the log says {}: the engine changed incompatibly",
                    row.last_hash
                ));
            }
            Some(RecoveredGame { setup, game })
        }
    };
    Ok(Recovered {
        id: room.id.clone(),
        settings,
        seats,
        game,
        finished: room.status == RoomStatus::Finished,
    })
}

impl RoomLog for SqliteLog {
    fn room_saved(&self, room: &RoomRecord) -> Result<(), LogError> {
        let row = RoomRow {
            id: room.id.clone(),
            settings: json(&room.settings)?,
            status: RoomStatus::Open,
            broken_reason: None,
            created_at: now_secs(),
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
                },
                SeatRecord::Bot { bot } => SeatRow {
                    seat: i as u8,
                    name: String::new(),
                    token_hash: None,
                    bot: Some(bot.clone()),
                },
                SeatRecord::Human { name, token_hash } => SeatRow {
                    seat: i as u8,
                    name: name.clone(),
                    token_hash: TokenHash::from_hex(token_hash).map(|h| h.0.to_vec()),
                    bot: None,
                },
            })
            .collect();
        self.write(|s| s.save_room(&row, &seats))
    }

    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        state_hash: u64,
    ) -> Result<(), LogError> {
        let hash = hash_text(state_hash);
        let setup = json(setup)?;
        self.write(|s| s.start_game(room, &setup, seed, &hash, now_secs()))
    }

    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        state_hash: u64,
    ) -> Result<(), LogError> {
        let reply = json(reply)?;
        self.write(|s| {
            s.append_reply(
                room,
                index,
                player.0,
                &reply,
                &hash_text(state_hash),
                now_secs(),
            )
        })
    }

    fn game_finished(&self, room: &str, scores: &[Score]) -> Result<(), LogError> {
        let scores = json(&scores)?;
        self.write(|s| s.finish_game(room, &scores, now_secs()))
    }

    fn room_closed(&self, room: &str) -> Result<(), LogError> {
        // A room that never started leaves nothing worth keeping; a started game stays
        // (finished ones are history, unfinished ones reopen on the next start).
        let started = self.store().game(room).map_err(log_err)?.is_some();
        if started {
            Ok(())
        } else {
            self.write(|s| s.delete_room(room))
        }
    }
}
