//! Game reviews (schema 9): the analysis of each ended game, stored once — its version,
//! its status, each decision's review as it is made (so a restart resumes where it
//! stopped) and the final result.
//!
//! On a connection of its own ([`Analyses`], the same kind as [`Accounts`]): the server's
//! analysis workers write a row every few hundred milliseconds, which must neither wait
//! behind the games' batches nor hold them up. The reviews are JSON text the server
//! writes and this module never parses, like replies.
//!
//! **One computer per game.** Several nodes sharing PostgreSQL may each be asked for the
//! same game's review. A node computes only under a *lease*: [`Analyses::claim`] takes
//! the game's row for `lease_ms` when nobody holds it (or the holder's lease has run
//! out), in one conditional `UPDATE` — PostgreSQL re-checks its condition after waiting
//! for a concurrent claim's row lock, SQLite runs it under its write lock — so two
//! nodes cannot both hold it. Each decision is stored under the lease
//! ([`Analyses::save_decision`] extends it in the same transaction, and refuses to
//! write once another node holds it), so a node paused past its lease cannot write
//! into a review another node took over. A node that died leaves a lease that runs out;
//! the next claim resumes from the decisions stored.
//!
//! **Versions.** A stored analysis of another version than the claimer's is started
//! again: its decisions are deleted and the row reset in the claim's transaction.

use crate::accounts::{Accounts, V};
use crate::{Database, Result};

/// How far an analysis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Being computed, or interrupted (its lease tells whether anyone holds it).
    Running,
    /// Complete: `result` holds it.
    Done,
    /// The game cannot be reviewed (`error` says why); not tried again at this version.
    Failed,
}

impl AnalysisStatus {
    fn parse(s: &str) -> AnalysisStatus {
        match s {
            "done" => AnalysisStatus::Done,
            "failed" => AnalysisStatus::Failed,
            _ => AnalysisStatus::Running,
        }
    }
}

/// A game's analysis as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisRow {
    pub room_id: String,
    pub version: u32,
    pub status: AnalysisStatus,
    /// The number of decisions to review, once the computer knows it.
    pub total: Option<u32>,
    /// Decisions reviewed and stored at `version`.
    pub done: u32,
    /// The final result (JSON), when done.
    pub result: Option<String>,
    pub error: Option<String>,
    /// Who holds the lease, until when (Unix milliseconds).
    pub lease_node: Option<String>,
    pub lease_until: Option<i64>,
}

/// What a claim got.
#[derive(Clone, Debug, PartialEq)]
pub enum Claim {
    /// The caller holds the lease: compute, starting after these stored decisions
    /// (reply index, review JSON), in index order.
    Claimed(Vec<(u32, String)>),
    /// Another node holds it until `until` (Unix milliseconds).
    Held { node: String, until: i64 },
    /// Already complete at this version.
    Done,
    /// Failed at this version.
    Failed,
}

/// The analyses' own connection (see the module's doc). Blocking: keep it off the async
/// workers.
pub struct Analyses(Accounts);

impl Analyses {
    /// Opens a connection. Open the [`crate::Store`] first: it brings the schema up to
    /// date.
    pub fn open(database: &Database) -> Result<Analyses> {
        Accounts::open(database).map(Analyses)
    }

    /// The stored analysis of `room_id`, of any version.
    pub fn analysis(&mut self, room_id: &str) -> Result<Option<AnalysisRow>> {
        let Some(r) = self.0.one(
            "SELECT a.room_id, a.version, a.status, a.total, a.result, a.error, a.lease_node,
                    a.lease_until,
                    (SELECT COUNT(*) FROM analysis_decisions d
                      WHERE d.room_id = a.room_id AND d.version = a.version)
               FROM analyses a WHERE a.room_id = ?1",
            &[room_id.into()],
        )?
        else {
            return Ok(None);
        };
        Ok(Some(AnalysisRow {
            room_id: r[0].text().unwrap_or_default(),
            version: r[1].int().unwrap_or_default() as u32,
            status: AnalysisStatus::parse(&r[2].text().unwrap_or_default()),
            total: r[3].int().map(|t| t as u32),
            result: r[4].text(),
            error: r[5].text(),
            lease_node: r[6].text(),
            lease_until: r[7].int(),
            done: r[8].int().unwrap_or_default() as u32,
        }))
    }

    /// Takes `room_id`'s analysis at `version` for `node` until `now_ms + lease_ms`,
    /// unless another node holds it or it is over (see the module's doc). A stored
    /// analysis of another version is reset first. A node that holds the lease already
    /// gets it again (renewed).
    pub fn claim(
        &mut self,
        room_id: &str,
        version: u32,
        node: &str,
        now_ms: i64,
        lease_ms: i64,
    ) -> Result<Claim> {
        let v = i64::from(version);
        let now_s = now_ms / 1000;
        self.0.transaction(|a| {
            a.exec(
                "INSERT INTO analyses (room_id, version, status, created_at, updated_at)
                 VALUES (?1, ?2, 'running', ?3, ?3) ON CONFLICT (room_id) DO NOTHING",
                &[room_id.into(), v.into(), now_s.into()],
            )?;
            a.exec(
                "UPDATE analyses SET version = ?2, status = 'running', total = NULL,
                        result = NULL, error = NULL, lease_node = NULL, lease_until = NULL,
                        updated_at = ?3
                  WHERE room_id = ?1 AND version <> ?2",
                &[room_id.into(), v.into(), now_s.into()],
            )?;
            a.exec(
                "DELETE FROM analysis_decisions WHERE room_id = ?1 AND version <> ?2",
                &[room_id.into(), v.into()],
            )?;
            let took = a.exec(
                "UPDATE analyses SET lease_node = ?3, lease_until = ?4, updated_at = ?5
                  WHERE room_id = ?1 AND version = ?2 AND status = 'running'
                    AND (lease_node IS NULL OR lease_until IS NULL OR lease_until <= ?6
                         OR lease_node = ?3)",
                &[
                    room_id.into(),
                    v.into(),
                    node.into(),
                    now_ms.saturating_add(lease_ms).into(),
                    now_s.into(),
                    now_ms.into(),
                ],
            )?;
            if took == 1 {
                return Ok(Claim::Claimed(Self::decisions_of(a, room_id, v)?));
            }
            let r = a
                .one(
                    "SELECT status, lease_node, lease_until FROM analyses WHERE room_id = ?1",
                    &[room_id.into()],
                )?
                .unwrap_or_default();
            Ok(
                match AnalysisStatus::parse(&r.first().and_then(V::text).unwrap_or_default()) {
                    AnalysisStatus::Done => Claim::Done,
                    AnalysisStatus::Failed => Claim::Failed,
                    AnalysisStatus::Running => Claim::Held {
                        node: r.get(1).and_then(V::text).unwrap_or_default(),
                        until: r.get(2).and_then(V::int).unwrap_or_default(),
                    },
                },
            )
        })
    }

    fn decisions_of(a: &mut Accounts, room_id: &str, version: i64) -> Result<Vec<(u32, String)>> {
        Ok(a.rows(
            "SELECT idx, review FROM analysis_decisions
              WHERE room_id = ?1 AND version = ?2 ORDER BY idx",
            &[room_id.into(), version.into()],
        )?
        .into_iter()
        .map(|r| {
            (
                r[0].int().unwrap_or_default() as u32,
                r[1].text().unwrap_or_default(),
            )
        })
        .collect())
    }

    /// The decisions stored for `room_id` at `version`, in index order.
    pub fn decisions(&mut self, room_id: &str, version: u32) -> Result<Vec<(u32, String)>> {
        Self::decisions_of(&mut self.0, room_id, i64::from(version))
    }

    /// Stores one decision's review (and the number of decisions in all) under
    /// `node`'s lease, extending it to `now_ms + lease_ms`. False, and nothing written,
    /// when `node` no longer holds the lease. Storing the same index again keeps the
    /// first.
    #[allow(clippy::too_many_arguments)]
    pub fn save_decision(
        &mut self,
        room_id: &str,
        version: u32,
        node: &str,
        index: u32,
        review: &str,
        total: u32,
        now_ms: i64,
        lease_ms: i64,
    ) -> Result<bool> {
        let v = i64::from(version);
        self.0.transaction(|a| {
            if !Self::hold(a, room_id, v, node, Some(total), now_ms, lease_ms)? {
                return Ok(false);
            }
            a.exec(
                "INSERT INTO analysis_decisions (room_id, version, idx, review)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (room_id, version, idx) DO NOTHING",
                &[
                    room_id.into(),
                    v.into(),
                    i64::from(index).into(),
                    review.into(),
                ],
            )?;
            Ok(true)
        })
    }

    /// Extends `node`'s lease (and records `total` when given); false when it is not
    /// `node`'s any more.
    fn hold(
        a: &mut Accounts,
        room_id: &str,
        version: i64,
        node: &str,
        total: Option<u32>,
        now_ms: i64,
        lease_ms: i64,
    ) -> Result<bool> {
        Ok(a.exec(
            "UPDATE analyses SET lease_until = ?4, total = COALESCE(?5, total), updated_at = ?6
              WHERE room_id = ?1 AND version = ?2 AND lease_node = ?3 AND status = 'running'",
            &[
                room_id.into(),
                version.into(),
                node.into(),
                now_ms.saturating_add(lease_ms).into(),
                total.map(i64::from).into(),
                (now_ms / 1000).into(),
            ],
        )? == 1)
    }

    /// Extends `node`'s lease (a long wait between two decisions); false when it is
    /// not `node`'s any more.
    pub fn renew(
        &mut self,
        room_id: &str,
        version: u32,
        node: &str,
        now_ms: i64,
        lease_ms: i64,
    ) -> Result<bool> {
        Self::hold(
            &mut self.0,
            room_id,
            i64::from(version),
            node,
            None,
            now_ms,
            lease_ms,
        )
    }

    /// Ends `node`'s analysis: `Ok(result)` stores the result (`done`), `Err(reason)`
    /// marks it `failed`. False, and nothing written, when `node` no longer holds it.
    pub fn finish(
        &mut self,
        room_id: &str,
        version: u32,
        node: &str,
        outcome: std::result::Result<&str, &str>,
        now_ms: i64,
    ) -> Result<bool> {
        let (status, result, error) = match outcome {
            Ok(result) => ("done", Some(result), None),
            Err(reason) => ("failed", None, Some(reason)),
        };
        Ok(self.0.exec(
            "UPDATE analyses SET status = ?4, result = ?5, error = ?6, lease_node = NULL,
                    lease_until = NULL, updated_at = ?7
              WHERE room_id = ?1 AND version = ?2 AND lease_node = ?3 AND status = 'running'",
            &[
                room_id.into(),
                i64::from(version).into(),
                node.into(),
                status.into(),
                result.into(),
                error.into(),
                (now_ms / 1000).into(),
            ],
        )? == 1)
    }

    /// Gives `node`'s lease up (a node stopping with the work unfinished), so that the
    /// next claim need not wait for it to run out.
    pub fn release(&mut self, room_id: &str, node: &str) -> Result<()> {
        self.0.exec(
            "UPDATE analyses SET lease_node = NULL, lease_until = NULL
              WHERE room_id = ?1 AND lease_node = ?2 AND status = 'running'",
            &[room_id.into(), node.into()],
        )?;
        Ok(())
    }

    /// The rooms whose analysis at `version` is unfinished (interrupted or running),
    /// oldest first, at most `limit`: what a restarted server resumes.
    pub fn unfinished(&mut self, version: u32, limit: u32) -> Result<Vec<String>> {
        Ok(self
            .0
            .rows(
                "SELECT room_id FROM analyses WHERE status = 'running' AND version = ?1
                  ORDER BY created_at, room_id LIMIT ?2",
                &[i64::from(version).into(), i64::from(limit).into()],
            )?
            .into_iter()
            .filter_map(|r| r[0].text())
            .collect())
    }
}
