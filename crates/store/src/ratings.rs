//! Ratings (schema 8): each account's Glicko-2 rating per pool and every change with the
//! game that caused it.
//!
//! **Writing** happens only inside the games' writer, in the transaction that records a
//! game's end ([`crate::Write::FinishGame`] or [`crate::Write::AbandonGame`] with a
//! [`RatedOutcome`]): the players' current ratings are read (and, in PostgreSQL, locked),
//! the game is rated by `dominion-rating`, and `ratings` and `rating_changes` are written
//! before the same commit. So a crash leaves a game either ended and rated or neither,
//! and the primary key of `rating_changes` (room, account) with the check below rates a
//! game once even when its end is written again (a room re-sending it after a restart).
//! A fenced-out write is refused before any of this runs.
//!
//! **Reading** (profiles, the leaderboard, the end of a game) goes through [`Accounts`],
//! the connection the server's account API already uses.
//!
//! **Recomputing** ([`Accounts::recompute_ratings`]) replays every stored change from the
//! defaults, game by game in the order they were rated. `rating_changes` keeps the
//! ratings before and after but not the places (schema 8 has no column for them), so each
//! game's result is recovered as the one placing of its players that turns the stored
//! "before" ratings into the stored "after" ones — with Glicko-2 a player's new rating is
//! strictly increasing in their score, so exactly one placing fits.

use crate::accounts::V;
use crate::{Accounts, Result, StoreError};
use dominion_rating::{MAX_PLAYERS, Pool, Rating, rate_game};
use std::collections::HashMap;

/// How a game is to be rated, as the server knows it when the game ends: each seat's
/// place (1 is first; equal places tie). For an abandoned game the server places the
/// abandoners last. Who sat where, and so the pool, the store finds itself, in the same
/// transaction: a seat counts as an account's when `seat_accounts` links it and the
/// seat still has the name it was linked under (as profiles count games).
///
/// The game is rated only when every seat is an account's, no account twice: in pool
/// `bots` when every one is a bot account, else in `2p` or `3-4p` by the number of
/// players when none is (a bot account among people leaves the game unrated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedOutcome {
    /// (seat, place), one per seat.
    pub places: Vec<(u8, u32)>,
}

impl RatedOutcome {
    /// 2–4 seats, each once, places from 1 to the number of seats.
    fn check(&self, room: &str) -> Result<()> {
        let bad = |reason: String| {
            Err(StoreError::Outcome {
                room: room.to_string(),
                reason,
            })
        };
        let n = self.places.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return bad(format!("{n} players (a rated game has 2 to {MAX_PLAYERS})"));
        }
        for (i, (seat, place)) in self.places.iter().enumerate() {
            if self.places[..i].iter().any(|(s, _)| s == seat) {
                return bad(format!("seat {seat} is placed twice"));
            }
            if *place == 0 || *place as usize > n {
                return bad(format!("place {place} among {n} players"));
            }
        }
        Ok(())
    }
}

/// An account's rating in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub account_id: i64,
    pub pool: Pool,
    pub rating: Rating,
    /// Rated games in the pool (0: the default rating, never played).
    pub games: u64,
    /// When the last of them was rated (0 if none).
    pub last_game_at: i64,
}

/// One change of one account's rating, with the game that caused it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub room_id: String,
    pub account_id: i64,
    pub pool: Pool,
    pub before: Rating,
    pub after: Rating,
    pub at: i64,
}

/// A row of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    /// 1 + the number of players ranked strictly above (equal levels share a rank).
    pub rank: u64,
    pub name: String,
    pub bot: bool,
    pub row: RatingRow,
}

/// What [`Accounts::recompute_ratings`] found.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Recomputed {
    /// Every rating as replaying the changes gives it, by (account, pool).
    pub ratings: Vec<RatingRow>,
    /// Games whose stored rows no placing explains (an account deleted since, or rows
    /// changed by hand): left out of the replay.
    pub unexplained: Vec<String>,
}

// ---- writing, inside the games' writer's transaction ----

/// The account linked to a seat that still has the name it was linked under.
pub(crate) const SEAT_ACCOUNT_SQL: &str = "SELECT a.id, a.bot FROM seat_accounts sa
     JOIN seats s ON s.room_id = sa.room_id AND s.seat = sa.seat AND s.name = sa.name
     JOIN accounts a ON a.id = sa.account_id
     WHERE sa.room_id = ?1 AND sa.seat = ?2";

/// The statements the rating of a game needs, on whichever backend's transaction.
pub(crate) trait RatingTx {
    /// Whether the room has any rating change already.
    fn room_rated(&mut self, room: &str) -> Result<bool>;
    /// The account sitting in `seat` of `room` and whether it is a bot account, if the
    /// seat is linked to one that still exists (in PostgreSQL it then stays until the
    /// commit).
    fn seat_account(&mut self, room: &str, seat: u8) -> Result<Option<(i64, bool)>>;
    /// The account's rating in `pool` and its games, locked until commit where the
    /// backend allows several writers (PostgreSQL); `None` if it has none.
    fn lock_rating(&mut self, account: i64, pool: &str, now: i64) -> Result<Option<(Rating, i64)>>;
    fn put_rating(
        &mut self,
        account: i64,
        pool: &str,
        r: Rating,
        games: i64,
        now: i64,
    ) -> Result<()>;
    fn put_change(
        &mut self,
        room: &str,
        account: i64,
        pool: &str,
        before: Rating,
        after: Rating,
        now: i64,
    ) -> Result<()>;
}

/// A rated game's pool and its players: `(account, place)`, in account order.
type RatedPlayers = (Pool, Vec<(i64, u32)>);

/// The pool a rated end of `room` counts in and its players `(account, place)` in
/// account order, or `None` if the end rates nothing (rated already, a seat without an
/// account, an account twice, bots and people mixed, no pool for that many players).
fn rated_players(
    tx: &mut impl RatingTx,
    room: &str,
    outcome: &RatedOutcome,
) -> Result<Option<RatedPlayers>> {
    if tx.room_rated(room)? {
        return Ok(None);
    }
    let mut players = Vec::with_capacity(outcome.places.len());
    let mut bots = 0;
    for (seat, place) in &outcome.places {
        let Some((account, bot)) = tx.seat_account(room, *seat)? else {
            return Ok(None);
        };
        if players.iter().any(|(a, _)| *a == account) {
            return Ok(None);
        }
        bots += usize::from(bot);
        players.push((account, *place));
    }
    let pool = if bots == players.len() {
        Pool::Bots
    } else if bots == 0 {
        match Pool::for_players(players.len()) {
            Some(pool) => pool,
            None => return Ok(None),
        }
    } else {
        return Ok(None);
    };
    // Accounts in id order: two PostgreSQL writers rating games with common players lock
    // their rows in one order.
    players.sort_unstable();
    Ok(Some((pool, players)))
}

/// Locks, in one order (pool, then account), the rating rows of every game `ends` will
/// rate, before the first of them is rated. [`apply`] locks each game's rows in account
/// order, but a batch rating two games would take the second game's rows after the
/// first's: two PostgreSQL transactions (two writers of one node, or two nodes) rating
/// games with common players could then each hold a row the other waits for. Locked here
/// first, every transaction takes the rows it shares with another in the same order, and
/// [`apply`]'s own locks find them held already. An end that [`apply`] will refuse is
/// skipped (it rates nothing); its players' rows may then have been created with the
/// defaults and no games, which every reader takes as no rating.
pub(crate) fn lock_in_order(
    tx: &mut impl RatingTx,
    ends: &[(&str, &RatedOutcome)],
    now: i64,
) -> Result<()> {
    let mut rows = Vec::new();
    for (room, outcome) in ends {
        if outcome.check(room).is_err() {
            continue;
        }
        if let Some((pool, players)) = rated_players(tx, room, outcome)? {
            rows.extend(players.iter().map(|(account, _)| (pool.as_str(), *account)));
        }
    }
    rows.sort_unstable();
    rows.dedup();
    for (pool, account) in rows {
        tx.lock_rating(account, pool, now)?;
    }
    Ok(())
}

/// Rates the game of `room` as `outcome` says, once: a room with rating changes already
/// is left alone, and so is a game that is not rated (see [`RatedOutcome`]): its end is
/// stored all the same. A malformed outcome refuses the write.
pub(crate) fn apply(
    tx: &mut impl RatingTx,
    room: &str,
    outcome: &RatedOutcome,
    now: i64,
) -> Result<()> {
    outcome.check(room)?;
    let Some((pool, players)) = rated_players(tx, room, outcome)? else {
        return Ok(());
    };
    let pool_name = pool.as_str();
    let mut before = Vec::with_capacity(players.len());
    for (account, place) in &players {
        let (r, games) = tx
            .lock_rating(*account, pool_name, now)?
            .unwrap_or((Rating::DEFAULT, 0));
        before.push((r, *place, games));
    }
    let input: Vec<(Rating, u32)> = before.iter().map(|(r, p, _)| (*r, *p)).collect();
    let after = rate_game(pool, &input).map_err(|e| StoreError::Outcome {
        room: room.to_string(),
        reason: e.to_string(),
    })?;
    for (((account, _), (old, _, games)), new) in players.iter().zip(&before).zip(after) {
        tx.put_rating(*account, pool_name, new, games + 1, now)?;
        tx.put_change(room, *account, pool_name, *old, new, now)?;
    }
    Ok(())
}

/// SQLite: the batch's transaction, which holds the only write lock.
impl RatingTx for &rusqlite::Transaction<'_> {
    fn room_rated(&mut self, room: &str) -> Result<bool> {
        use rusqlite::OptionalExtension;
        Ok(self
            .prepare_cached("SELECT 1 FROM rating_changes WHERE room_id = ?1 LIMIT 1")?
            .query_row([room], |_| Ok(()))
            .optional()?
            .is_some())
    }

    fn seat_account(&mut self, room: &str, seat: u8) -> Result<Option<(i64, bool)>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .prepare_cached(SEAT_ACCOUNT_SQL)?
            .query_row(rusqlite::params![room, seat], |r| {
                Ok((r.get(0)?, r.get::<_, i64>(1)? != 0))
            })
            .optional()?)
    }

    fn lock_rating(
        &mut self,
        account: i64,
        pool: &str,
        _now: i64,
    ) -> Result<Option<(Rating, i64)>> {
        use rusqlite::OptionalExtension;
        // SQLite has one writer at a time (`BEGIN IMMEDIATE`): reading is locking.
        Ok(self
            .prepare_cached(
                "SELECT rating, deviation, volatility, games FROM ratings
                 WHERE account_id = ?1 AND pool = ?2",
            )?
            .query_row(rusqlite::params![account, pool], |r| {
                Ok((
                    Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                    },
                    r.get(3)?,
                ))
            })
            .optional()?)
    }

    fn put_rating(
        &mut self,
        account: i64,
        pool: &str,
        r: Rating,
        games: i64,
        now: i64,
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, last_game_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = excluded.games, last_game_at = excluded.last_game_at",
        )?
        .execute(rusqlite::params![
            account,
            pool,
            r.rating,
            r.deviation,
            r.volatility,
            games,
            now
        ])?;
        Ok(())
    }

    fn put_change(
        &mut self,
        room: &str,
        account: i64,
        pool: &str,
        before: Rating,
        after: Rating,
        now: i64,
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO rating_changes (room_id, account_id, pool, rating_before,
                deviation_before, volatility_before, rating_after, deviation_after,
                volatility_after, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(rusqlite::params![
            room,
            account,
            pool,
            before.rating,
            before.deviation,
            before.volatility,
            after.rating,
            after.deviation,
            after.volatility,
            now
        ])?;
        Ok(())
    }
}

// ---- reading, through the accounts' connection ----

/// The ranking key: the level is `max(0, 50 + 7.5 × (μ − 2φ))`, increasing in
/// `rating − 2 × deviation`, which SQL can order by.
const KEY: &str = "(r.rating - 2 * r.deviation)";

/// Leaderboard rows of the accounts `which` picks (a condition on `r`, with `?1` free
/// for it), each with its rank among everyone on the board of pool `?2` active since
/// `?3`, then `tail` (an order and a limit).
fn ranked_rows(which: &str, tail: &str) -> String {
    format!(
        "SELECT r.rating, r.deviation, r.volatility, r.games, r.last_game_at,
                r.account_id, a.name, a.bot,
                1 + (SELECT COUNT(*) FROM ratings o JOIN accounts b ON b.id = o.account_id
                     WHERE o.pool = r.pool AND o.games > 0 AND o.last_game_at >= ?3
                       AND b.banned_at IS NULL
                       AND (o.rating - 2 * o.deviation) > {KEY})
         FROM ratings r JOIN accounts a ON a.id = r.account_id
         WHERE {which} AND r.pool = ?2 AND r.games > 0
           AND r.last_game_at >= ?3 AND a.banned_at IS NULL
         {tail}"
    )
}

fn rating_row(account_id: i64, pool: Pool, r: &[V]) -> RatingRow {
    RatingRow {
        account_id,
        pool,
        rating: Rating {
            rating: r[0].float(),
            deviation: r[1].float(),
            volatility: r[2].float(),
        },
        games: r[3].int().unwrap_or_default().max(0) as u64,
        last_game_at: r[4].int().unwrap_or_default(),
    }
}

fn change_row(r: &[V]) -> Option<RatingChange> {
    Some(RatingChange {
        room_id: r[0].text()?,
        account_id: r[1].int()?,
        pool: r[2].text()?.parse().ok()?,
        before: Rating {
            rating: r[3].float(),
            deviation: r[4].float(),
            volatility: r[5].float(),
        },
        after: Rating {
            rating: r[6].float(),
            deviation: r[7].float(),
            volatility: r[8].float(),
        },
        at: r[9].int().unwrap_or_default(),
    })
}

const CHANGE_COLUMNS: &str = "room_id, account_id, pool, rating_before, deviation_before,
    volatility_before, rating_after, deviation_after, volatility_after, at";

impl Accounts {
    /// The account's rating in `pool`: the default (1500 / 350 / 0.06, no games) if it
    /// has not played there.
    pub fn rating(&mut self, account_id: i64, pool: Pool) -> Result<RatingRow> {
        let row = self.one(
            "SELECT rating, deviation, volatility, games, last_game_at FROM ratings
             WHERE account_id = ?1 AND pool = ?2",
            &[account_id.into(), pool.as_str().into()],
        )?;
        Ok(match row {
            Some(r) => rating_row(account_id, pool, &r),
            None => RatingRow {
                account_id,
                pool,
                rating: Rating::DEFAULT,
                games: 0,
                last_game_at: 0,
            },
        })
    }

    /// The account's last `limit` rating changes in `pool`, oldest first (a chart's
    /// points).
    pub fn rating_history(
        &mut self,
        account_id: i64,
        pool: Pool,
        limit: u32,
    ) -> Result<Vec<RatingChange>> {
        let sql = format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE account_id = ?1 AND pool = ?2
             ORDER BY at DESC, room_id DESC LIMIT ?3"
        );
        let mut rows: Vec<RatingChange> = self
            .rows(
                &sql,
                &[
                    account_id.into(),
                    pool.as_str().into(),
                    i64::from(limit).into(),
                ],
            )?
            .iter()
            .filter_map(|r| change_row(r))
            .collect();
        rows.reverse();
        Ok(rows)
    }

    /// The rating changes one game made (none if it was not rated), by account.
    pub fn room_rating_changes(&mut self, room_id: &str) -> Result<Vec<RatingChange>> {
        let sql = format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE room_id = ?1 ORDER BY account_id"
        );
        Ok(self
            .rows(&sql, &[room_id.into()])?
            .iter()
            .filter_map(|r| change_row(r))
            .collect())
    }

    /// One page of the leaderboard of `pool`: accounts not banned with a rated game there
    /// at or after `active_since`, best level first (ties by more games, then name), and
    /// how many such accounts there are in all.
    pub fn leaderboard(
        &mut self,
        pool: Pool,
        active_since: i64,
        offset: u64,
        limit: u32,
    ) -> Result<(u64, Vec<LeaderRow>)> {
        let total = self
            .one(
                "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.pool = ?1 AND r.games > 0 AND r.last_game_at >= ?2
                   AND a.banned_at IS NULL",
                &[pool.as_str().into(), active_since.into()],
            )?
            .and_then(|r| r[0].int())
            .unwrap_or_default()
            .max(0) as u64;
        let sql = format!(
            "SELECT r.rating, r.deviation, r.volatility, r.games, r.last_game_at,
                    r.account_id, a.name, a.bot,
                    RANK() OVER (ORDER BY {KEY} DESC) AS rank
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.pool = ?1 AND r.games > 0 AND r.last_game_at >= ?2
               AND a.banned_at IS NULL
             ORDER BY {KEY} DESC, r.games DESC, a.folded
             LIMIT ?3 OFFSET ?4"
        );
        let rows = self
            .rows(
                &sql,
                &[
                    pool.as_str().into(),
                    active_since.into(),
                    i64::from(limit).into(),
                    (offset.min(i64::MAX as u64) as i64).into(),
                ],
            )?
            .iter()
            .map(|r| leader_row(pool, r))
            .collect();
        Ok((total, rows))
    }

    /// The account's row of the leaderboard of `pool`, with its rank, if it is on it.
    pub fn leaderboard_row(
        &mut self,
        account_id: i64,
        pool: Pool,
        active_since: i64,
    ) -> Result<Option<LeaderRow>> {
        let sql = ranked_rows("r.account_id = ?1", "");
        Ok(self
            .one(
                &sql,
                &[account_id.into(), pool.as_str().into(), active_since.into()],
            )?
            .map(|r| leader_row(pool, &r)))
    }

    /// The leaderboard rows (with their ranks) of the accounts `account_id` follows, best
    /// first.
    pub fn leaderboard_followed(
        &mut self,
        account_id: i64,
        pool: Pool,
        active_since: i64,
    ) -> Result<Vec<LeaderRow>> {
        let sql = ranked_rows(
            "r.account_id IN (SELECT followed_id FROM follows WHERE account_id = ?1)",
            &format!("ORDER BY {KEY} DESC, a.folded LIMIT 100"),
        );
        Ok(self
            .rows(
                &sql,
                &[account_id.into(), pool.as_str().into(), active_since.into()],
            )?
            .iter()
            .map(|r| leader_row(pool, r))
            .collect())
    }

    /// Every stored rating (tests and checks compare it with [`Self::recompute_ratings`]).
    pub fn all_ratings(&mut self) -> Result<Vec<RatingRow>> {
        let rows = self.rows(
            "SELECT rating, deviation, volatility, games, last_game_at, account_id, pool
             FROM ratings WHERE games > 0 ORDER BY account_id, pool",
            &[],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let pool = r[6].text()?.parse().ok()?;
                Some(rating_row(r[5].int()?, pool, r))
            })
            .collect())
    }

    /// Replays every stored rating change from the default ratings, game by game in the
    /// order they were rated (time; within one second — bots on the ladder finish games
    /// that fast — the order in which the stored ratings follow on from each other, then
    /// room id: [`in_rated_order`]), and returns the ratings that gives;
    /// nothing is written. Equal to the stored ratings unless something other than the
    /// games' writer changed them. See the module's doc for how each game's result is
    /// recovered.
    pub fn recompute_ratings(&mut self) -> Result<Recomputed> {
        let sql =
            format!("SELECT {CHANGE_COLUMNS} FROM rating_changes ORDER BY at, room_id, account_id");
        let changes: Vec<RatingChange> = self
            .rows(&sql, &[])?
            .iter()
            .filter_map(|r| change_row(r))
            .collect();
        let mut current: HashMap<(i64, Pool), RatingRow> = HashMap::new();
        let mut unexplained = Vec::new();
        for game in in_rated_order(changes.chunk_by(|a, b| a.room_id == b.room_id).collect()) {
            let pool = game[0].pool;
            let Some(places) = infer_places(game) else {
                unexplained.push(game[0].room_id.clone());
                continue;
            };
            let input: Vec<(Rating, u32)> = game
                .iter()
                .zip(&places)
                .map(|(c, p)| {
                    let r = current
                        .get(&(c.account_id, pool))
                        .map_or(Rating::DEFAULT, |r| r.rating);
                    (r, *p)
                })
                .collect();
            let Ok(after) = rate_game(pool, &input) else {
                unexplained.push(game[0].room_id.clone());
                continue;
            };
            for (c, new) in game.iter().zip(after) {
                let row = current
                    .entry((c.account_id, pool))
                    .or_insert_with(|| RatingRow {
                        account_id: c.account_id,
                        pool,
                        rating: Rating::DEFAULT,
                        games: 0,
                        last_game_at: 0,
                    });
                row.rating = new;
                row.games += 1;
                row.last_game_at = c.at;
            }
        }
        let mut ratings: Vec<RatingRow> = current.into_values().collect();
        ratings.sort_by_key(|r| (r.account_id, r.pool));
        Ok(Recomputed {
            ratings,
            unexplained,
        })
    }
}

/// Whether two stored ratings are the same to a millionth of each value.
fn fits(a: Rating, b: Rating) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-6 * x.abs().max(1.0);
    close(a.rating, b.rating)
        && close(a.deviation, b.deviation)
        && close(a.volatility, b.volatility)
}

/// Games (each its rows, in time order) in the order they were rated. `at` is in whole
/// seconds, so games rated within one second are put in the order their stored ratings
/// chain: next is the first (by room id) whose every player's rating before is the one
/// the games so far left them with; if none is, the first.
fn in_rated_order(games: Vec<&[RatingChange]>) -> Vec<&[RatingChange]> {
    let mut left: HashMap<(i64, Pool), Rating> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    let mut rest = games.as_slice();
    while let Some(first) = rest.first() {
        let at = first[0].at;
        let n = rest.iter().take_while(|g| g[0].at == at).count();
        let mut batch = rest[..n].to_vec();
        rest = &rest[n..];
        while !batch.is_empty() {
            let follows = |g: &&[RatingChange]| {
                g.iter().all(|c| {
                    let had = left.get(&(c.account_id, c.pool)).copied();
                    fits(c.before, had.unwrap_or(Rating::DEFAULT))
                })
            };
            let next = batch.remove(batch.iter().position(follows).unwrap_or(0));
            for c in next {
                left.insert((c.account_id, c.pool), c.after);
            }
            out.push(next);
        }
    }
    out
}

fn leader_row(pool: Pool, r: &[V]) -> LeaderRow {
    LeaderRow {
        rank: r[8].int().unwrap_or_default().max(1) as u64,
        name: r[6].text().unwrap_or_default(),
        bot: r[7].int().unwrap_or_default() != 0,
        row: rating_row(r[5].int().unwrap_or_default(), pool, r),
    }
}

/// The placing of a game's players that turns their stored ratings before into the ones
/// after (to a millionth of each), if one does. Every assignment of places 1..=n is tried
/// (at most 4⁴): only the order matters to the pairs' scores.
fn infer_places(game: &[RatingChange]) -> Option<Vec<u32>> {
    let n = game.len();
    if !(2..=MAX_PLAYERS).contains(&n) || game.iter().any(|c| c.pool != game[0].pool) {
        return None;
    }
    let mut places = vec![1u32; n];
    loop {
        let input: Vec<(Rating, u32)> = game
            .iter()
            .zip(&places)
            .map(|(c, p)| (c.before, *p))
            .collect();
        if let Ok(after) = rate_game(game[0].pool, &input)
            && after.iter().zip(game).all(|(a, c)| fits(*a, c.after))
        {
            return Some(places);
        }
        // The next assignment, counting in base n.
        let mut i = 0;
        loop {
            if i == n {
                return None;
            }
            if places[i] < n as u32 {
                places[i] += 1;
                break;
            }
            places[i] = 1;
            i += 1;
        }
    }
}

// ---- reading a game's changes through the games' reader ----

const SEAT_CHANGES_SQL: &str = "SELECT rc.room_id, rc.account_id, rc.pool, rc.rating_before,
        rc.deviation_before, rc.volatility_before, rc.rating_after, rc.deviation_after,
        rc.volatility_after, rc.at, sa.seat
     FROM rating_changes rc
     JOIN seat_accounts sa ON sa.room_id = rc.room_id AND sa.account_id = rc.account_id
     WHERE rc.room_id = ?1 ORDER BY sa.seat";

impl crate::ReadView<'_> {
    /// The rating changes one game's end made, with the seat each was for (none if the
    /// game was not rated): what the room tells its players once the end is committed.
    pub fn room_rating_changes(&self, room_id: &str) -> Result<Vec<(u8, RatingChange)>> {
        let rating = |r: [f64; 3]| Rating {
            rating: r[0],
            deviation: r[1],
            volatility: r[2],
        };
        self.on(
            |c| {
                let mut st = c.prepare_cached(SEAT_CHANGES_SQL)?;
                let rows = st.query_map([room_id], |r| {
                    Ok((
                        r.get::<_, i64>(10)?,
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, String>(2)?,
                        [r.get(3)?, r.get(4)?, r.get(5)?],
                        [r.get(6)?, r.get(7)?, r.get(8)?],
                        r.get::<_, i64>(9)?,
                    ))
                })?;
                let mut out = Vec::new();
                for row in rows {
                    let (seat, room_id, account_id, pool, before, after, at) = row?;
                    if let Ok(pool) = pool.parse() {
                        out.push((
                            seat as u8,
                            RatingChange {
                                room_id,
                                account_id,
                                pool,
                                before: rating(before),
                                after: rating(after),
                                at,
                            },
                        ));
                    }
                }
                Ok(out)
            },
            |c| {
                let sql = crate::accounts::dollar(SEAT_CHANGES_SQL);
                Ok(c.query(sql.as_str(), &[&room_id])?
                    .iter()
                    .filter_map(|r| {
                        Some((
                            r.get::<_, i64>(10) as u8,
                            RatingChange {
                                room_id: r.get(0),
                                account_id: r.get(1),
                                pool: r.get::<_, String>(2).parse().ok()?,
                                before: rating([r.get(3), r.get(4), r.get(5)]),
                                after: rating([r.get(6), r.get(7), r.get(8)]),
                                at: r.get(9),
                            },
                        ))
                    })
                    .collect())
            },
        )
    }
}
