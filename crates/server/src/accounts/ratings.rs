//! Ratings as the account pages show them (issue 25): a profile's rating and level chart
//! per pool, and the leaderboard (`GET /api/leaderboard`).
//!
//! Read through the accounts' own connection, like profiles. The ratings themselves are
//! written only by the games' writer, with each rated game's end (`dominion-store`,
//! `ratings`); nothing here writes.

use super::{Accounts, Refused, SignedIn, now_secs};
use crate::convert::to_wire::rating_pool;
use dominion_protocol as wire;
use dominion_rating::{Pool, level};
use dominion_store::LeaderRow;

/// Rows of a leaderboard page.
pub const PAGE_ROWS: u32 = 100;
/// A player is on a leaderboard for this long after their last rated game there.
pub const ACTIVE_FOR_SECS: i64 = 30 * 24 * 3600;
/// Points of a profile's level chart, per pool (the latest games).
pub const CHART_POINTS: u32 = 200;

fn row(r: &LeaderRow) -> wire::LeaderboardRow {
    wire::LeaderboardRow {
        rank: r.rank,
        name: r.name.clone(),
        level: r.row.rating.level(),
        rating: r.row.rating.rating,
        deviation: r.row.rating.deviation,
        games: r.row.games,
        bot: r.bot,
    }
}

impl Accounts {
    /// The account's level in the automatch pool `pool`, for pairing: the rated pool's
    /// (`practice` pairs by the two-player level), the default 19.78 with no games.
    pub async fn match_level(&self, account: i64, pool: wire::MatchPool) -> Result<f64, Refused> {
        let pool = match pool {
            wire::MatchPool::TwoPlayers | wire::MatchPool::Practice => Pool::TwoPlayer,
            wire::MatchPool::ThreeFourPlayers => Pool::Multiplayer,
            wire::MatchPool::Bots => Pool::Bots,
        };
        let row = self.db(move |s| s.rating(account, pool)).await?;
        Ok(row.rating.level())
    }

    /// The account's levels in the pools `2p`, `3-4p` and `bots` (the default 19.78
    /// where it has no game), in that order: what a seat it takes shows in the lobby.
    /// One read when a seat is taken, never per lobby list.
    pub async fn levels_of(&self, account: i64) -> Result<[f64; 3], Refused> {
        self.db(move |s| {
            Ok([
                s.rating(account, Pool::TwoPlayer)?.rating.level(),
                s.rating(account, Pool::Multiplayer)?.rating.level(),
                s.rating(account, Pool::Bots)?.rating.level(),
            ])
        })
        .await
    }

    /// The account's rating in every pool it has a rated game in, each with the level
    /// after each of its latest games (oldest first), for its profile.
    pub async fn ratings_of(&self, account: i64) -> Result<Vec<wire::PoolRating>, Refused> {
        let found = self
            .db(move |s| {
                let mut out = Vec::new();
                for pool in Pool::ALL {
                    let r = s.rating(account, pool)?;
                    if r.games > 0 {
                        out.push((r, s.rating_history(account, pool, CHART_POINTS)?));
                    }
                }
                Ok(out)
            })
            .await?;
        Ok(found
            .into_iter()
            .map(|(r, history)| wire::PoolRating {
                pool: rating_pool(r.pool),
                level: r.rating.level(),
                rating: r.rating.rating,
                deviation: r.rating.deviation,
                games: r.games,
                history: history
                    .into_iter()
                    .map(|c| wire::RatingPoint {
                        at: c.at,
                        level: level(c.after.rating, c.after.deviation),
                        room: c.room_id,
                    })
                    .collect(),
            })
            .collect())
    }

    /// Page `page` (from 1) of `pool`'s leaderboard; with `who`, their own row and their
    /// friends' (the accounts they follow) too.
    pub async fn leaderboard(
        &self,
        pool: Pool,
        page: u32,
        who: Option<&SignedIn>,
    ) -> Result<wire::Leaderboard, Refused> {
        let page = page.max(1);
        let since = now_secs() - ACTIVE_FOR_SECS;
        let offset = u64::from(page - 1) * u64::from(PAGE_ROWS);
        let me = who.map(|w| w.account.id);
        let (total, rows, mine, friends) = self
            .db(move |s| {
                let (total, rows) = s.leaderboard(pool, since, offset, PAGE_ROWS)?;
                let (mine, friends) = match me {
                    Some(id) => (
                        s.leaderboard_row(id, pool, since)?,
                        Some(s.leaderboard_followed(id, pool, since)?),
                    ),
                    None => (None, None),
                };
                Ok((total, rows, mine, friends))
            })
            .await?;
        let pages = total.div_ceil(u64::from(PAGE_ROWS)).max(1);
        Ok(wire::Leaderboard {
            pool: rating_pool(pool),
            page,
            pages: u32::try_from(pages).unwrap_or(u32::MAX),
            total,
            rows: rows.iter().map(row).collect(),
            me: mine.as_ref().map(row),
            friends: friends.map(|f| f.iter().map(row).collect()),
        })
    }
}
