//! The writer's pipelined batches: a batch's statements sent without waiting for each
//! answer, so a batch of N replies costs two round trips instead of N + 2.
//!
//! The blocking client sends a statement and waits for its answer before the next: BEGIN,
//! the fence lock, one statement per reply, COMMIT, each a round trip, and the writer
//! (which holds every room of the batch) idles through them. This connection is
//! `tokio-postgres` on a current-thread runtime owned by the store, so by the writer
//! thread (never the server's async runtime: the runtime is driven only inside this
//! module's `block_on`s). tokio-postgres writes every request its futures have made
//! before it flushes, and PostgreSQL answers in order: polling every statement's future
//! once, in the batch's order, puts them all on the wire in that order; awaiting them
//! then takes the answers as they come.
//!
//! What is sent is exactly what the blocking path would run **if every write stands**:
//! the same statements in the same order (both take them from [`writes::parts`]), none
//! of whose parameters depends on an earlier answer (a batch that rates a game reads
//! before it writes and is not sent here: [`pipelinable`]). Then the answers are checked
//! as the blocking path checks them ([`writes::Expect::check`]: a reply's number, a row
//! that must exist, a fence); COMMIT goes out only if all of them
//! stand. Otherwise the transaction is rolled back and the caller runs the batch again
//! the careful way, a savepoint per write, which finds and refuses the writes that do not
//! stand ([`Outcome::Refused`]). A statement PostgreSQL refuses aborts the transaction
//! (and every statement after it fails) — the same outcome. So a batch's results are the
//! blocking path's, refusals included; only the number of round trips differs.
//!
//! Round trips per batch: BEGIN and every statement together, then COMMIT; with fenced
//! writes, BEGIN and the fence lock first (the fences must be checked before any fenced
//! write is sent), so three.

use super::writes::{self, Answer, Expect, Param, Part, Sql};
use super::{Fences, Statements, check_fence};
use crate::{Result, Step, StoreError, Write};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;
use tokio_postgres::{Client, NoTls};

/// The longest a connection check may take (`is_valid`).
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether every statement of `w` can be sent before the answers before it are in: all
/// but a game rated in the batch (a rating reads the players' ratings, then writes).
pub(super) fn pipelinable(w: &Write) -> bool {
    !matches!(
        w,
        Write::FinishGame { rated: Some(_), .. } | Write::AbandonGame { rated: Some(_), .. }
    )
}

/// How a pipelined batch ended (an `Err` is a transaction that failed whole).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Every write stood; committed.
    Committed,
    /// Some write did not stand (or a statement failed); rolled back, nothing stored.
    Refused,
}

type Pending<'a> =
    Pin<Box<dyn Future<Output = std::result::Result<Answer, tokio_postgres::Error>> + 'a>>;

/// A statement of a write as a future that sends it when first polled.
fn send<'a>(c: &'a Client, part: Part<'a>) -> Pending<'a> {
    Box::pin(async move {
        let params = part.params();
        match (part.sql, part.expect.rows()) {
            (Sql::Prepared(s), false) => c.execute(s, &params).await.map(Answer::Count),
            (Sql::Prepared(s), true) => c.query(s, &params).await.map(Answer::Rows),
            (Sql::Text(s), false) => c.execute(s, &params).await.map(Answer::Count),
            (Sql::Text(s), true) => c.query(s, &params).await.map(Answer::Rows),
        }
    })
}

/// Each statement of `w`, as [`writes::parts`] describes it, sent in order.
fn statements<'a>(
    c: &'a Client,
    st: &'a Statements,
    fence: Option<&'a crate::Fence>,
    w: &'a Write,
    pending: &mut Vec<Pending<'a>>,
    expected: &mut Vec<Expect>,
) {
    for part in writes::parts(st, fence, w) {
        expected.push(part.expect);
        pending.push(send(c, part));
    }
}

/// The pipelined connection and the runtime that drives it.
pub(super) struct Pipeline {
    // Fields drop in order: the client before the runtime its connection task is on.
    client: Client,
    statements: Statements,
    runtime: tokio::runtime::Runtime,
}

impl Pipeline {
    /// Connects, makes commits wait for the disk (as `super::open_client`), sets
    /// `lock_timeout` if the store has one, and prepares the statements. Blocking; on a
    /// plain thread only.
    pub(super) fn connect(url: &str, lock_timeout: Option<Duration>) -> Result<Pipeline> {
        let config = super::parse_async_url(url)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(StoreError::Runtime)?;
        let client = runtime.block_on(async {
            let (client, connection) =
                config
                    .connect(NoTls)
                    .await
                    .map_err(|source| StoreError::Connect {
                        database: crate::redact_url(url),
                        source,
                    })?;
            // The connection's task ends with an error when the connection does; the
            // client then reports itself closed (`is_closed`).
            tokio::spawn(async move {
                let _ = connection.await;
            });
            Ok::<_, StoreError>(client)
        })?;
        let statements = runtime.block_on(async {
            let sync = client.query_one("SHOW synchronous_commit", &[]).await?;
            if sync.get::<_, String>(0) == "off" {
                client.batch_execute("SET synchronous_commit TO on").await?;
            }
            if let Some(wait) = lock_timeout {
                client.batch_execute(&lock_timeout_sql(wait)).await?;
            }
            Statements::prepare_async(&client).await
        })?;
        Ok(Pipeline {
            client,
            statements,
            runtime,
        })
    }

    pub(super) fn set_lock_timeout(&self, wait: Duration) -> Result<()> {
        self.runtime
            .block_on(self.client.batch_execute(&lock_timeout_sql(wait)))?;
        Ok(())
    }

    /// The connection is known to be gone.
    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// The connection answers (within [`CHECK_TIMEOUT`]).
    pub(super) fn is_valid(&self) -> bool {
        self.runtime.block_on(async {
            tokio::time::timeout(CHECK_TIMEOUT, self.client.check_connection())
                .await
                .is_ok_and(|r| r.is_ok())
        })
    }

    /// Sends `steps` (every one [`pipelinable`]) as one transaction, pipelined, and
    /// commits it if every write stands. `fenced`: the rooms whose fence rows the batch
    /// locks (sorted), as `super::lock_fences` takes them. `Err` when the transaction
    /// itself failed (it could not begin, roll back or commit), as for the blocking path.
    pub(super) fn write_batch<S: Step>(
        &mut self,
        steps: &[S],
        fenced: &[&str],
        legacy: bool,
    ) -> Result<Outcome> {
        self.statements.legacy = legacy;
        let (client, st) = (&self.client, &self.statements);
        self.runtime.block_on(async {
            let mut began = false;
            let mut fences = Fences::new();
            if !fenced.is_empty() {
                // The fences decide which writes may go out: BEGIN and the lock first.
                let answers = send_all(vec![
                    begin(client),
                    Box::pin(async move {
                        client
                            .query(&st.lock_fences, &[&fenced])
                            .await
                            .map(Answer::Rows)
                    }),
                ])
                .await;
                began = true;
                match answers.as_slice() {
                    [Ok(_), Ok(Answer::Rows(rows))] => {
                        fences = rows
                            .iter()
                            .map(|r| (r.get(0), (r.get(1), r.get(2))))
                            .collect();
                    }
                    _ => {
                        let _ = client.batch_execute("ROLLBACK").await;
                        let first = answers.into_iter().find_map(|a| a.err());
                        return Err(first.map_or_else(
                            || StoreError::Runtime(std::io::Error::other("fence lock unanswered")),
                            StoreError::from,
                        ));
                    }
                }
            }
            let mut pending = Vec::new();
            let mut expected = Vec::new();
            // Consecutive replies, sent as one statement when they are several.
            let mut run: Vec<(Option<&crate::Fence>, &Write)> = Vec::new();
            if !began {
                pending.push(begin(client));
                expected.push(Expect::Anything);
            }
            for s in steps {
                let w = s.write();
                // A claim is taken to stand, as every write is: the writes after it are
                // checked against it (if it does not, the batch is run again anyway).
                if let Write::Claim {
                    room_id,
                    node,
                    token,
                    ..
                } = w
                {
                    fences.insert(room_id.clone(), (*token, node.clone()));
                } else if let Some(fence) = s.fence()
                    && check_fence(&fences, w.room(), fence).is_err()
                {
                    client.batch_execute("ROLLBACK").await?;
                    return Ok(Outcome::Refused);
                }
                if matches!(w, Write::AppendReply { .. }) {
                    run.push((s.fence(), w));
                    continue;
                }
                replies(
                    client,
                    st,
                    std::mem::take(&mut run),
                    &mut pending,
                    &mut expected,
                );
                statements(client, st, s.fence(), w, &mut pending, &mut expected);
            }
            replies(client, st, run, &mut pending, &mut expected);
            let answers = send_all(pending).await;
            let stands = answers
                .iter()
                .zip(&expected)
                .all(|(a, e)| a.as_ref().is_ok_and(|a| e.check("", a).is_ok()));
            if stands {
                client.batch_execute("COMMIT").await?;
                Ok(Outcome::Committed)
            } else {
                client.batch_execute("ROLLBACK").await?;
                Ok(Outcome::Refused)
            }
        })
    }
}

fn lock_timeout_sql(wait: Duration) -> String {
    let ms = wait.as_millis().clamp(1, i32::MAX as u128);
    format!("SET lock_timeout = {ms}")
}

fn begin(client: &Client) -> Pending<'_> {
    Box::pin(async move {
        client
            .batch_execute("BEGIN")
            .await
            .map(|()| Answer::Count(0))
    })
}

/// Puts every request on the wire, in order, before waiting for any answer; then
/// collects the answers in order.
async fn send_all(
    mut pending: Vec<Pending<'_>>,
) -> Vec<std::result::Result<Answer, tokio_postgres::Error>> {
    let mut early: Vec<Option<_>> = Vec::with_capacity(pending.len());
    // The first poll of each makes its request (nothing is answered before the runtime
    // runs the connection task, which it does only once this poll returns).
    std::future::poll_fn(|cx| {
        for f in &mut pending {
            early.push(match f.as_mut().poll(cx) {
                Poll::Ready(answer) => Some(answer),
                Poll::Pending => None,
            });
        }
        Poll::Ready(())
    })
    .await;
    let mut answers = Vec::with_capacity(pending.len());
    for (f, early) in pending.into_iter().zip(early) {
        answers.push(match early {
            Some(answer) => answer,
            None => f.await,
        });
    }
    answers
}

/// A run of consecutive `AppendReply` writes: one `append_replies` statement for all of
/// them, or the single reply's own statements. Only consecutive ones: a reply after
/// another write of its room (a game's start, an undo) must be stored after it, and a
/// run keeps the batch's order of writes as it is.
fn replies<'a>(
    c: &'a Client,
    st: &'a Statements,
    run: Vec<(Option<&'a crate::Fence>, &'a Write)>,
    pending: &mut Vec<Pending<'a>>,
    expected: &mut Vec<Expect>,
) {
    if let [(fence, w)] = run.as_slice() {
        return statements(c, st, *fence, w, pending, expected);
    }
    if run.is_empty() {
        return;
    }
    let n = run.len();
    let (mut rooms, mut seqs, mut players, mut texts, mut hashes, mut ats) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let (mut nodes, mut tokens, mut commands) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (fence, w) in &run {
        let Write::AppendReply {
            room_id,
            seq,
            player,
            reply,
            hash,
            now,
            command,
        } = w
        else {
            unreachable!("a run holds replies only");
        };
        rooms.push(room_id.as_str());
        seqs.push(*seq as i64);
        players.push(i64::from(*player));
        texts.push(reply.as_str());
        hashes.push(hash.as_str());
        ats.push(*now);
        nodes.push(fence.map(|f| f.node.as_str()));
        tokens.push(fence.map(|f| f.token));
        commands.push(command.map(|id| id as i64));
    }
    let params: Vec<Param<'a>> = vec![
        Box::new(rooms),
        Box::new(seqs),
        Box::new(players),
        Box::new(texts),
        Box::new(hashes),
        Box::new(ats),
        Box::new(nodes),
        Box::new(tokens),
        Box::new(commands),
    ];
    expected.push(Expect::Count(n as i64));
    pending.push(send(
        c,
        Part {
            sql: Sql::Prepared(match st.legacy {
                true => &st.append_replies_legacy,
                false => &st.append_replies,
            }),
            params,
            expect: Expect::Count(n as i64),
        },
    ));
}
