//! Which releases share the cluster, and what the store must write for them: whether each
//! reply still updates the copies of its digest and command id (`games.last_hash`,
//! `seats.last_command`) that a node of a release before schema 11 reads when it takes a
//! room over (`dominion_store::LegacyColumns`). Those two row updates were most of
//! PostgreSQL's work per reply (docs/load.md, *One row a reply*), so they are written only
//! while such a node may be running.
//!
//! - **Announcing.** Beside its address (`dominion:node:<name>`, which every release
//!   writes) a node of this release writes `dominion:release:<name>`: the schema version
//!   it was built for, with the same expiry, at the same beat. A node announced without
//!   it, or with a version below [`READS_ONE_ROW_REPLIES`], is of an earlier release.
//! - **Deciding** ([`LegacyGate`]). A node joins with the copies on. It turns them off
//!   once no node of an earlier release has been announced for [`QUIET_LEASES`] leases
//!   in a row, and on again at once if one is announced later. A look that fails (Redis
//!   slow or gone) counts as having seen one.
//! - **Why that is enough.** Once a node of this release has migrated the database to
//!   schema 11, no node of an earlier release can start on it (a node refuses a newer
//!   schema): the only such nodes are those already running, and each leaves during the
//!   upgrade. The quiet period covers an announcement that lapsed for a while — Redis
//!   lost its data (every node announces again within a third of a lease), or the node
//!   was paused.

use super::lease::{PREFIX, node_key};
use dominion_store::LegacyColumns;
use prometheus_client::metrics::gauge::Gauge;
use redis::aio::ConnectionManager;
use std::time::{Duration, Instant};

/// The first schema version whose nodes read a game's digest and a seat's last command
/// id from its replies, and so need no copies.
pub const READS_ONE_ROW_REPLIES: i64 = 11;

/// Leases without a node of an earlier release before the copies stop.
pub const QUIET_LEASES: u32 = 10;

/// How long one look at the announcements may take.
const BOUND: Duration = Duration::from_millis(500);

/// Node keys read per look at most (as `Cluster::live_nodes` counts them).
const MAX_NODES: usize = 10_000;

pub fn release_key(node: &str) -> String {
    format!("{PREFIX}release:{node}")
}

/// Announces this node's release for `ttl`.
pub async fn announce(
    redis: &mut ConnectionManager,
    node: &str,
    ttl: Duration,
) -> redis::RedisResult<()> {
    redis::cmd("SET")
        .arg(release_key(node))
        .arg(dominion_store::SCHEMA_VERSION)
        .arg("PX")
        .arg(ttl.as_millis() as u64)
        .query_async(redis)
        .await
}

/// The announced nodes of an earlier release (see the module docs), by name.
pub async fn earlier_release_nodes(redis: &mut ConnectionManager) -> Result<Vec<String>, String> {
    match tokio::time::timeout(BOUND, look(redis)).await {
        Ok(Ok(nodes)) => Ok(nodes),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("Redis did not answer in time".to_string()),
    }
}

async fn look(redis: &mut ConnectionManager) -> redis::RedisResult<Vec<String>> {
    let prefix = node_key("");
    let mut names = Vec::new();
    let mut cursor: u64 = 0;
    loop {
        let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(node_key("*"))
            .arg("COUNT")
            .arg(100)
            .query_async(redis)
            .await?;
        names.extend(
            keys.iter()
                .filter_map(|k| k.strip_prefix(&prefix))
                .map(String::from),
        );
        if next == 0 || names.len() > MAX_NODES {
            break;
        }
        cursor = next;
    }
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return Ok(names);
    }
    let releases: Vec<Option<String>> = redis::cmd("MGET")
        .arg(names.iter().map(|n| release_key(n)).collect::<Vec<_>>())
        .query_async(redis)
        .await?;
    Ok(names
        .into_iter()
        .zip(releases)
        .filter(|(_, release)| !reads_one_row_replies(release.as_deref()))
        .map(|(name, _)| name)
        .collect())
}

/// Whether a node that announced `release` (None: nothing) reads replies of one row.
fn reads_one_row_replies(release: Option<&str>) -> bool {
    release
        .and_then(|r| r.parse::<i64>().ok())
        .is_some_and(|v| v >= READS_ONE_ROW_REPLIES)
}

/// Decides, look after look, whether the copies are written; shows it in the
/// `dominion_store_legacy_columns` gauge.
pub struct LegacyGate {
    columns: LegacyColumns,
    gauge: Gauge,
    quiet: Duration,
    /// When a node of an earlier release was last seen (or a look failed).
    seen: Instant,
}

impl LegacyGate {
    /// A gate over `columns` for a cluster of lease `lease`; turns them on now: until
    /// the first looks, any node may be of an earlier release.
    pub fn new(columns: LegacyColumns, gauge: Gauge, lease: Duration, now: Instant) -> LegacyGate {
        columns.set(true);
        gauge.set(1);
        LegacyGate {
            columns,
            gauge,
            quiet: lease * QUIET_LEASES,
            seen: now,
        }
    }

    /// Takes in one look at the announcements, made at `now`.
    pub fn observe(&mut self, earlier: &Result<Vec<String>, String>, now: Instant) {
        let was = self.columns.is_on();
        match earlier {
            Ok(nodes) if nodes.is_empty() => {}
            _ => self.seen = now,
        }
        let on = now.saturating_duration_since(self.seen) < self.quiet;
        if on == was {
            return;
        }
        self.columns.set(on);
        self.gauge.set(i64::from(on));
        match (on, earlier) {
            (false, _) => tracing::info!(
                quiet_s = self.quiet.as_secs_f64(),
                "no node of an earlier release announced: replies write one row"
            ),
            (true, Ok(nodes)) => tracing::warn!(
                ?nodes,
                "a node of an earlier release is announced: replies write its columns again"
            ),
            (true, Err(e)) => tracing::warn!(
                error = %e,
                "cannot tell which releases share the cluster: replies write the earlier release's columns again"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(now: Instant) -> (LegacyGate, LegacyColumns, Gauge) {
        let (columns, gauge) = (LegacyColumns::new(false), Gauge::default());
        let g = LegacyGate::new(columns.clone(), gauge.clone(), Duration::from_secs(3), now);
        (g, columns, gauge)
    }

    #[test]
    fn the_copies_stop_after_a_quiet_period_and_return_at_once() {
        let t0 = Instant::now();
        let (mut g, columns, gauge) = gate(t0);
        assert!(columns.is_on(), "a joining node writes them");
        let none = Ok(Vec::new());
        g.observe(&none, t0 + Duration::from_secs(29));
        assert!(columns.is_on(), "29 s of 30 quiet");
        g.observe(&none, t0 + Duration::from_secs(30));
        assert!(!columns.is_on());
        assert_eq!(gauge.get(), 0);
        g.observe(&Ok(vec!["old".into()]), t0 + Duration::from_secs(31));
        assert!(columns.is_on(), "an earlier release seen again: on at once");
        assert_eq!(gauge.get(), 1);
        g.observe(&none, t0 + Duration::from_secs(60));
        assert!(columns.is_on(), "29 s since it was seen");
        g.observe(&none, t0 + Duration::from_secs(61));
        assert!(!columns.is_on());
    }

    #[test]
    fn a_failed_look_counts_as_an_earlier_release() {
        let t0 = Instant::now();
        let (mut g, columns, _) = gate(t0);
        g.observe(&Ok(Vec::new()), t0 + Duration::from_secs(40));
        assert!(!columns.is_on());
        g.observe(
            &Err("Redis did not answer in time".into()),
            t0 + Duration::from_secs(41),
        );
        assert!(columns.is_on());
        g.observe(&Ok(Vec::new()), t0 + Duration::from_secs(70));
        assert!(
            columns.is_on(),
            "the quiet period starts again at the failed look"
        );
    }

    #[test]
    fn only_an_announced_schema_11_or_later_reads_one_row_replies() {
        assert!(
            !reads_one_row_replies(None),
            "an earlier release writes no release key"
        );
        assert!(!reads_one_row_replies(Some("10")));
        assert!(!reads_one_row_replies(Some("eleven")));
        assert!(reads_one_row_replies(Some("11")));
        assert!(reads_one_row_replies(Some("12")));
        assert!(
            reads_one_row_replies(Some(&dominion_store::SCHEMA_VERSION.to_string())),
            "this release's own announcement"
        );
    }
}
