//! The PostgreSQL backend, for several server nodes sharing one database.
//!
//! Two writing connections, both opened, used and dropped on the writer's own thread:
//! the blocking `postgres` client (migrations, the careful path below, everything but
//! batches; also lent to [`crate::ReadView`]), and the pipelined one of
//! [`pipeline`] (`tokio-postgres` on a current-thread runtime owned by this store,
//! connected at the first batch), which writes every batch it can. Every statement of
//! every write kind is prepared once on each connection, and each write's statements,
//! parameters and checks are described once, in [`writes`], for both. The reader is a further
//! connection. Both clients run on a tokio runtime of their own and panic if called, or
//! dropped, on a thread of another runtime: callers keep a store on plain threads (the
//! server's writer and reader threads).
//!
//! A batch is one transaction, committed with `synchronous_commit` on (forced on for the
//! session if the database's default is `off`), so a batch that returned is on disk. A
//! refused write fails alone the same way SQLite's does: the batch is first sent whole,
//! pipelined (every statement without waiting for the answer before it: BEGIN and the
//! statements in one round trip, COMMIT in a second once every answer says the write
//! stands, see [`pipeline`]), and after a refusal rolled back and applied again on the
//! blocking connection with a savepoint per write (a failed statement aborts the whole
//! transaction in PostgreSQL until its savepoint is rolled back). A batch that rates a
//! game reads before it writes, so it is not pipelined: it is applied statement by
//! statement without savepoints first, as all batches were before the pipeline.
//!
//! Fences: before its first statement, a batch locks and reads the fence rows of every
//! room it writes under a fence or claims, in room order (`SELECT … ORDER BY room_id FOR
//! UPDATE`), then checks each fenced write against them. Two nodes' batches thus take
//! the locks they share in the same order and cannot deadlock on them, and a claim by
//! another node waits for the batch's commit (or the batch waits for the claim's, and
//! then sees the new token and is refused). A batch that rates games then locks the rating
//! rows of all of them, in (pool, account) order, before applying any write, so that
//! batches rating games with common players (several writers of one node, or several
//! nodes) cannot deadlock on those rows either (`crate::ratings::lock_in_order`).

mod pipeline;
pub mod read;
pub mod schema;
mod writes;

use crate::{Fence, Result, Step, StoreError, Write, now_secs, redact_url};
use postgres::{Client, NoTls, Statement, Transaction};
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

/// How long a connection attempt may take when the URL does not say
/// (`connect_timeout`): a wrong host fails the start instead of hanging it.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Parses a `postgres://` or `postgresql://` URL into the client's configuration.
pub fn parse_url(url: &str) -> Result<postgres::Config> {
    parse_async_url(url).map(postgres::Config::from)
}

/// [`parse_url`] for the asynchronous client (the writer's pipeline).
fn parse_async_url(url: &str) -> Result<tokio_postgres::Config> {
    let not_url = |reason: String| StoreError::NotPostgresUrl {
        url: redact_url(url),
        reason,
    };
    let scheme = url.split("://").next().unwrap_or_default();
    if !url.contains("://") || !matches!(scheme, "postgres" | "postgresql") {
        return Err(not_url(
            "it must start with postgres:// or postgresql://".into(),
        ));
    }
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e: postgres::Error| not_url(describe_error(&e)))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name("dominion-server");
    }
    Ok(config)
}

/// The error and every cause under it: the client's own text is only "db error".
pub fn describe_error(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Connects (blocking) and makes sure commits wait for the disk.
fn open_client(url: &str) -> Result<Client> {
    let config = parse_url(url)?;
    let mut client = config
        .connect(NoTls)
        .map_err(|source| StoreError::Connect {
            database: redact_url(url),
            source,
        })?;
    // `on`, `local`, `remote_write`, `remote_apply` all wait for the local disk; only
    // `off` does not, and an acknowledged reply must never be lost.
    let sync: String = client.query_one("SHOW synchronous_commit", &[])?.get(0);
    if sync == "off" {
        client.batch_execute("SET synchronous_commit TO on")?;
    }
    Ok(client)
}

/// See `crate::cluster_key`: one connection of its own, closed again (it runs once, when
/// a node joins its cluster).
pub fn cluster_key(url: &str, candidate: &str) -> Result<String> {
    let mut client = connect_reader(url)?;
    client.execute(
        "INSERT INTO cluster_key (id, node_key, created_at) VALUES (1, $1, $2)
         ON CONFLICT (id) DO NOTHING",
        &[&candidate, &now_secs()],
    )?;
    Ok(client
        .query_one("SELECT node_key FROM cluster_key WHERE id = 1", &[])?
        .get(0))
}

/// A reading connection to a database whose schema is current.
pub fn connect_reader(url: &str) -> Result<Client> {
    let mut client = open_client(url)?;
    let version = schema::stored_version(&mut client)?;
    crate::sqlite::schema::check_current(version.unwrap_or(0))?;
    Ok(client)
}

/// Defines the prepared statements of the writer, one field each.
macro_rules! statements {
    ($($name:ident = $sql:expr;)*) => {
        struct Statements {
            $($name: Statement,)*
            /// Whether this batch writes the copies an earlier release reads
            /// (`crate::LegacyColumns`): set from the store's switch before each batch.
            legacy: bool,
        }
        impl Statements {
            fn prepare(c: &mut Client) -> Result<Statements> {
                Ok(Statements { $($name: c.prepare($sql)?,)* legacy: false })
            }

            /// The same statements on the pipelined connection.
            async fn prepare_async(c: &tokio_postgres::Client) -> Result<Statements> {
                Ok(Statements { $($name: c.prepare($sql).await?,)* legacy: false })
            }
        }
    };
}

// The parts the reply statements below share (macros, as `concat!` takes only literals).

/// `append_reply`'s first part: the room's next reply number, as `next.n`.
macro_rules! next_reply {
    () => {
        "WITH next AS (
             SELECT COALESCE(MAX(seq) + 1, 0) AS n FROM replies WHERE room_id = $1"
    };
}

/// `append_reply`'s insert of reply `$2` with its command id, for each row of `game`.
macro_rules! insert_reply {
    () => {
        "INSERT INTO replies (room_id, seq, player, reply, state_hash, at,
                              writer_node, writer_token, command)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM game
         RETURNING room_id"
    };
}

/// `append_replies`' first parts: the run's replies (`input`, from the parameter
/// arrays), each with the number it must have (`numbered`), and those that have it and
/// whose game exists (`good`).
macro_rules! good_replies {
    () => {
        "WITH input AS (
             SELECT * FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::BIGINT[], $4::TEXT[],
                                  $5::TEXT[], $6::BIGINT[], $7::TEXT[], $8::BIGINT[],
                                  $9::BIGINT[])
                 WITH ORDINALITY AS i(room_id, seq, player, reply, state_hash, at,
                                      writer_node, writer_token, command, ord)
         ), numbered AS (
             SELECT i.*,
                    (SELECT COALESCE(MAX(r.seq) + 1, 0) FROM replies r
                     WHERE r.room_id = i.room_id)
                    + ROW_NUMBER() OVER (PARTITION BY i.room_id ORDER BY i.ord)
                    - 1 AS expected
             FROM input i
         ), good AS (
             SELECT n.* FROM numbered n
             WHERE n.seq = n.expected
               AND EXISTS (SELECT 1 FROM games g WHERE g.room_id = n.room_id)
         )"
    };
}

/// `append_replies`' insert of the `good` rows.
macro_rules! insert_good_replies {
    () => {
        "INSERT INTO replies (room_id, seq, player, reply, state_hash, at, writer_node,
                              writer_token, command)
         SELECT room_id, seq, player, reply, state_hash, at, writer_node, writer_token,
                command
         FROM good
         RETURNING 1"
    };
}

statements! {
    upsert_room = "INSERT INTO rooms (id, settings, status, broken_reason, created_at, host)
                   VALUES ($1, $2, $3, $4, $5, $6)
                   ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, host = EXCLUDED.host";
    delete_seats = "DELETE FROM seats WHERE room_id = $1";
    insert_seat = "INSERT INTO seats (room_id, seat, name, token_hash, bot, last_command)
                   VALUES ($1, $2, $3, $4, $5, $6)";
    close_seats = "DELETE FROM seats WHERE room_id = $1
                   AND NOT EXISTS (SELECT 1 FROM games WHERE room_id = $1)";
    close_room = "DELETE FROM rooms WHERE id = $1
                  AND NOT EXISTS (SELECT 1 FROM games WHERE room_id = $1)";
    set_status = "UPDATE rooms SET status = $2, broken_reason = $3 WHERE id = $1";
    insert_game = "INSERT INTO games (room_id, setup, seed, last_hash, started_at,
                                      record_format, rules_version)
                   VALUES ($1, $2, $3, $4, $5, $6, $7)";
    mark_playing = "UPDATE rooms SET status = 'playing' WHERE id = $1";
    // A reply in one round trip (a reply is most of what the server writes, and each
    // statement is a round trip): the next number, and only if it is `$2` and the game
    // exists, the reply with its command id (schema 11: one row a reply). It answers the
    // number expected and whether the game row was there; all parts see one snapshot,
    // each part the rows the one before it returned.
    append_reply = concat!(
        next_reply!(),
        "), game AS (
             SELECT room_id FROM games WHERE room_id = $1 AND (SELECT n FROM next) = $2
         ), reply AS (",
        insert_reply!(),
        ")
         SELECT (SELECT n FROM next), EXISTS (SELECT 1 FROM game), (SELECT COUNT(*) FROM reply)"
    );
    // `append_reply` while nodes of an earlier release may read the database
    // (`crate::LegacyColumns`): the same, and the game's digest and the seat's command id
    // copied to the rows such a node reads.
    append_reply_legacy = concat!(
        next_reply!(),
        "), game AS (
             UPDATE games SET last_hash = $5
             WHERE room_id = $1 AND (SELECT n FROM next) = $2
             RETURNING room_id
         ), reply AS (",
        insert_reply!(),
        "), command AS (
             UPDATE seats SET last_command = GREATEST(last_command, $9)
             WHERE room_id = $1 AND seat = $3 AND $9::BIGINT IS NOT NULL
               AND EXISTS (SELECT 1 FROM reply)
             RETURNING seat
         )
         SELECT (SELECT n FROM next), EXISTS (SELECT 1 FROM game),
                (SELECT COUNT(*) FROM command)"
    );
    // Consecutive replies of one batch in one statement (pipelined path only: see
    // `pipeline::ReplyRun`): each statement costs PostgreSQL an executor start and a
    // result sent on its own, which were most of its CPU per reply. The same checks as
    // `append_reply`, for every row at once: each reply's number must follow the
    // room's last stored one (and the replies before it in the run), its game must
    // exist. It answers how many replies it stored: all of them, or the batch is rolled
    // back and run again the careful way.
    append_replies = concat!(
        good_replies!(),
        ", reply AS (",
        insert_good_replies!(),
        ")
         SELECT (SELECT COUNT(*) FROM reply)"
    );
    // `append_replies` with the copies an earlier release reads, as
    // `append_reply_legacy`: the game's digest becomes the room's last reply's, each
    // seat's command id the largest of its replies'.
    append_replies_legacy = concat!(
        good_replies!(),
        ", game AS (
             UPDATE games g SET last_hash = l.state_hash
             FROM (SELECT DISTINCT ON (room_id) room_id, state_hash FROM good
                   ORDER BY room_id, ord DESC) l
             WHERE g.room_id = l.room_id
             RETURNING g.room_id
         ), reply AS (",
        insert_good_replies!(),
        "), command AS (
             UPDATE seats s SET last_command = GREATEST(s.last_command, c.command)
             FROM (SELECT room_id, player, MAX(command) AS command FROM good
                   WHERE command IS NOT NULL GROUP BY room_id, player) c
             WHERE s.room_id = c.room_id AND s.seat = c.player
             RETURNING 1
         )
         SELECT (SELECT COUNT(*) FROM reply)"
    );
    note_command = "UPDATE seats SET last_command = GREATEST(last_command, $3)
                    WHERE room_id = $1 AND seat = $2";
    finish_game = "UPDATE games SET scores = $2, finished_at = $3 WHERE room_id = $1";
    mark_finished = "UPDATE rooms SET status = 'finished' WHERE id = $1";
    abandon_game = "UPDATE games SET finished_at = $2 WHERE room_id = $1 AND finished_at IS NULL";
    mark_abandoned = "UPDATE rooms SET status = 'abandoned' WHERE id = $1";
    truncate_hash = "UPDATE games SET last_hash = $2 WHERE room_id = $1 AND finished_at IS NULL";
    // A seat's last command id is read from its newest reply: the ids of the replies an
    // undo takes back stay in the seats' rows, so a command applied before the undo is
    // still known as applied.
    keep_taken_back_commands = "UPDATE seats SET last_command = GREATEST(last_command, COALESCE(
                                    (SELECT MAX(r.command) FROM replies r
                                     WHERE r.room_id = $1 AND r.player = seats.seat
                                       AND r.seq >= $2), 0))
                                WHERE room_id = $1";
    truncate_replies = "DELETE FROM replies WHERE room_id = $1 AND seq >= $2";
    count_replies = "SELECT COUNT(*) FROM replies WHERE room_id = $1";
    rewrite_game = "UPDATE games SET record_format = $2, setup = $3, scores = COALESCE($4, scores)
                    WHERE room_id = $1";
    rewrite_reply = "UPDATE replies SET reply = $3 WHERE room_id = $1 AND seq = $2";
    lock_fences = "SELECT room_id, token, node FROM room_fences WHERE room_id = ANY($1)
                   ORDER BY room_id FOR UPDATE";
    claim = "INSERT INTO room_fences (room_id, token, node, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (room_id) DO UPDATE
                SET token = EXCLUDED.token, node = EXCLUDED.node, at = EXCLUDED.at
                WHERE room_fences.token < EXCLUDED.token";
    fence_token = "SELECT token FROM room_fences WHERE room_id = $1";
    insert_claim = "INSERT INTO room_claims (room_id, token, node, at) VALUES ($1, $2, $3, $4)";
    // Rating a game (crate::ratings): the account is kept from deletion until commit,
    // a default row exists before it is locked (so two writers rating the same new
    // player wait for each other instead of both starting from the default), and the
    // row is locked while the game is rated.
    room_rated = "SELECT 1 FROM rating_changes WHERE room_id = $1 LIMIT 1";
    seat_account = "SELECT a.id, a.bot FROM seat_accounts sa
                    JOIN seats s ON s.room_id = sa.room_id AND s.seat = sa.seat
                                AND s.name = sa.name
                    JOIN accounts a ON a.id = sa.account_id
                    WHERE sa.room_id = $1 AND sa.seat = $2
                    FOR KEY SHARE OF a";
    rating_default = "INSERT INTO ratings (account_id, pool, rating, deviation, volatility,
                                          games, last_game_at)
                      VALUES ($1, $2, 1500, 350, 0.06, 0, $3)
                      ON CONFLICT (account_id, pool) DO NOTHING";
    rating_lock = "SELECT rating, deviation, volatility, games FROM ratings
                   WHERE account_id = $1 AND pool = $2 FOR UPDATE";
    rating_put = "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6,
                                     last_game_at = $7
                  WHERE account_id = $1 AND pool = $2";
    change_put = "INSERT INTO rating_changes (room_id, account_id, pool, rating_before,
                      deviation_before, volatility_before, rating_after, deviation_after,
                      volatility_after, at)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
}

/// A game's rating inside a batch's transaction (see `crate::ratings`).
struct PgRating<'a, 't> {
    tx: &'a mut Transaction<'t>,
    st: &'a Statements,
}

impl crate::ratings::RatingTx for PgRating<'_, '_> {
    fn room_rated(&mut self, room: &str) -> Result<bool> {
        Ok(self.tx.query_opt(&self.st.room_rated, &[&room])?.is_some())
    }

    fn seat_account(&mut self, room: &str, seat: u8) -> Result<Option<(i64, bool)>> {
        Ok(self
            .tx
            .query_opt(&self.st.seat_account, &[&room, &i64::from(seat)])?
            .map(|r| (r.get(0), r.get::<_, i64>(1) != 0)))
    }

    fn lock_rating(
        &mut self,
        account: i64,
        pool: &str,
        now: i64,
    ) -> Result<Option<(dominion_rating::Rating, i64)>> {
        self.tx
            .execute(&self.st.rating_default, &[&account, &pool, &now])?;
        Ok(self
            .tx
            .query_opt(&self.st.rating_lock, &[&account, &pool])?
            .map(|r| {
                (
                    dominion_rating::Rating {
                        rating: r.get(0),
                        deviation: r.get(1),
                        volatility: r.get(2),
                    },
                    r.get(3),
                )
            }))
    }

    fn put_rating(
        &mut self,
        account: i64,
        pool: &str,
        r: dominion_rating::Rating,
        games: i64,
        now: i64,
    ) -> Result<()> {
        self.tx.execute(
            &self.st.rating_put,
            &[
                &account,
                &pool,
                &r.rating,
                &r.deviation,
                &r.volatility,
                &games,
                &now,
            ],
        )?;
        Ok(())
    }

    fn put_change(
        &mut self,
        room: &str,
        account: i64,
        pool: &str,
        before: dominion_rating::Rating,
        after: dominion_rating::Rating,
        now: i64,
    ) -> Result<()> {
        self.tx.execute(
            &self.st.change_put,
            &[
                &room,
                &account,
                &pool,
                &before.rating,
                &before.deviation,
                &before.volatility,
                &after.rating,
                &after.deviation,
                &after.volatility,
                &now,
            ],
        )?;
        Ok(())
    }
}

pub struct PgStore {
    url: String,
    /// In a cell so that `Store::reader` can lend it to a `ReadView` by `&self`; writes
    /// take it by `&mut self`.
    client: RefCell<Client>,
    statements: Statements,
    /// Set by `set_lock_timeout`, and set again on a new connection.
    lock_timeout: Option<Duration>,
    /// The last batch failed whole: the connection may be dead without the client knowing
    /// yet (PostgreSQL's FATAL for a terminated backend can arrive before the socket
    /// closes), so the next batch checks it first.
    suspect: bool,
    /// The pipelined connection: connected at the first batch, dropped when found closed.
    pipeline: Option<pipeline::Pipeline>,
    counts: BatchCounts,
    /// Read once per batch into the statements' `legacy`.
    pub(crate) legacy: crate::LegacyColumns,
}

/// How the batches of a PostgreSQL store went, since it was connected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchCounts {
    /// Committed pipelined, every write of them applied.
    pub pipelined: u64,
    /// Sent pipelined, rolled back for a refused write, then applied with a savepoint
    /// per write.
    pub rerun: u64,
    /// Applied statement by statement (a batch that rates a game).
    pub sequential: u64,
}

impl PgStore {
    /// See `Store::connect`.
    pub fn connect(url: &str) -> Result<PgStore> {
        let mut client = open_client(url)?;
        schema::migrate(&mut client)?;
        write_check(&mut client)?;
        let statements = Statements::prepare(&mut client)?;
        Ok(PgStore {
            url: url.to_string(),
            client: RefCell::new(client),
            statements,
            lock_timeout: None,
            suspect: false,
            pipeline: None,
            counts: BatchCounts::default(),
            legacy: crate::LegacyColumns::default(),
        })
    }

    pub fn client(&self) -> &RefCell<Client> {
        &self.client
    }

    /// `lock_timeout` for this session (PostgreSQL's 0 means "forever", so the shortest
    /// wait is 1 ms).
    pub fn set_lock_timeout(&mut self, wait: Duration) -> Result<()> {
        let ms = wait.as_millis().clamp(1, i32::MAX as u128);
        self.client
            .get_mut()
            .batch_execute(&format!("SET lock_timeout = {ms}"))?;
        if let Some(pipeline) = &self.pipeline {
            pipeline.set_lock_timeout(wait)?;
        }
        self.lock_timeout = Some(wait);
        Ok(())
    }

    /// A connection PostgreSQL closed (a restart, a network cut, an administrator's
    /// `pg_terminate_backend`) is replaced before the next batch, so the server's rooms
    /// go on once the database is back; the batch that saw it fail has failed.
    fn reconnect_if_closed(&mut self) -> Result<()> {
        let suspect = std::mem::take(&mut self.suspect);
        if self
            .pipeline
            .as_ref()
            .is_some_and(|p| p.is_closed() || (suspect && !p.is_valid()))
        {
            // Connected again by the batch that needs it.
            self.pipeline = None;
        }
        let client = self.client.get_mut();
        let dead =
            client.is_closed() || (suspect && client.is_valid(Duration::from_secs(2)).is_err());
        if !dead {
            return Ok(());
        }
        let mut client = open_client(&self.url)?;
        self.statements = Statements::prepare(&mut client)?;
        *self.client.get_mut() = client;
        if let Some(wait) = self.lock_timeout {
            self.set_lock_timeout(wait)?;
        }
        Ok(())
    }

    /// See `Store::write_batch`.
    pub fn write_batch<S: Step>(&mut self, steps: &[S]) -> Result<Vec<Result<()>>> {
        self.reconnect_if_closed()?;
        let result = self.write_batch_once(steps);
        self.suspect = result.is_err();
        result
    }

    /// How this store's batches went (see [`BatchCounts`]).
    pub fn batch_counts(&self) -> BatchCounts {
        self.counts
    }

    fn write_batch_once<S: Step>(&mut self, steps: &[S]) -> Result<Vec<Result<()>>> {
        self.statements.legacy = self.legacy.is_on();
        let mut fenced: Vec<&str> = steps
            .iter()
            .filter(|s| s.fence().is_some() || matches!(s.write(), Write::Claim { .. }))
            .map(|s| s.write().room())
            .collect();
        fenced.sort_unstable();
        fenced.dedup();

        if steps.iter().all(|s| pipeline::pipelinable(s.write())) {
            if self.pipeline.is_none() {
                self.pipeline = Some(pipeline::Pipeline::connect(&self.url, self.lock_timeout)?);
            }
            let pipeline = self.pipeline.as_mut().expect("connected above");
            if pipeline.write_batch(steps, &fenced, self.statements.legacy)?
                == pipeline::Outcome::Committed
            {
                self.counts.pipelined += 1;
                return Ok(steps.iter().map(|_| Ok(())).collect());
            }
            self.counts.rerun += 1;
            return self.write_batch_savepoints(steps, &fenced);
        }
        self.counts.sequential += 1;

        let st = &self.statements;
        let client = self.client.get_mut();
        let mut tx = client.transaction()?;
        let mut fences = lock_fences(&mut tx, st, &fenced)?;
        lock_ratings(&mut tx, st, steps)?;
        let mut refused = false;
        for s in steps {
            if apply(&mut tx, st, &mut fences, s.fence(), s.write()).is_err() {
                refused = true;
                break;
            }
        }
        if !refused {
            tx.commit()?;
            return Ok(steps.iter().map(|_| Ok(())).collect());
        }
        tx.rollback()?;
        self.write_batch_savepoints(steps, &fenced)
    }

    /// The careful way: each write in a savepoint of its own, refused or applied alone.
    fn write_batch_savepoints<S: Step>(
        &mut self,
        steps: &[S],
        fenced: &[&str],
    ) -> Result<Vec<Result<()>>> {
        let st = &self.statements;
        let client = self.client.get_mut();
        let mut tx = client.transaction()?;
        let mut fences = lock_fences(&mut tx, st, fenced)?;
        lock_ratings(&mut tx, st, steps)?;
        let mut results = Vec::with_capacity(steps.len());
        for s in steps {
            let mut savepoint = tx.savepoint("w")?;
            // A refused write changes nothing, the fences it read included (a claim
            // records its fence only once it is applied).
            let r = apply(&mut savepoint, st, &mut fences, s.fence(), s.write());
            if r.is_ok() {
                savepoint.commit()?;
            } else {
                savepoint.rollback()?;
            }
            results.push(r);
        }
        tx.commit()?;
        Ok(results)
    }
}

/// A real write, committed: proves the role may write (not a read-only replica or a
/// read-only user). Nothing reads the row.
fn write_check(client: &mut Client) -> Result<()> {
    client.execute(
        "INSERT INTO write_check (id, at) VALUES (1, $1)
         ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at",
        &[&now_secs()],
    )?;
    Ok(())
}

/// The fences of the rooms a batch writes under a fence or claims, as this transaction
/// sees them: room → (token, node).
type Fences = HashMap<String, (i64, String)>;

/// Locks the fence rows of `rooms` (sorted, so that every batch takes them in one order)
/// and reads them. Locked until the transaction ends, they can change only by this
/// batch's own claims, which update the map: so each fenced write is checked against it
/// without a round trip of its own.
fn lock_fences(tx: &mut Transaction, st: &Statements, rooms: &[&str]) -> Result<Fences> {
    if rooms.is_empty() {
        return Ok(Fences::new());
    }
    Ok(tx
        .query(&st.lock_fences, &[&rooms])?
        .iter()
        .map(|r| (r.get(0), (r.get(1), r.get(2))))
        .collect())
}

/// Locks the rating rows of every game the batch rates, all in one order, before any
/// write is applied (`crate::ratings::lock_in_order`: why).
fn lock_ratings<S: Step>(tx: &mut Transaction, st: &Statements, steps: &[S]) -> Result<()> {
    let ends: Vec<(&str, &crate::RatedOutcome)> = steps
        .iter()
        .filter_map(|s| match s.write() {
            Write::FinishGame {
                room_id,
                rated: Some(outcome),
                ..
            }
            | Write::AbandonGame {
                room_id,
                rated: Some(outcome),
                ..
            } => Some((room_id.as_str(), outcome)),
            _ => None,
        })
        .collect();
    if ends.is_empty() {
        return Ok(());
    }
    crate::ratings::lock_in_order(&mut PgRating { tx, st }, &ends, now_secs())
}

/// Refuses a write under `fence` unless the room's fence is that very one.
fn check_fence(fences: &Fences, room: &str, fence: &Fence) -> Result<()> {
    match fences.get(room) {
        Some((token, node)) if *token == fence.token && *node == fence.node => Ok(()),
        other => Err(StoreError::Fenced {
            room: room.to_string(),
            token: fence.token,
            current: other.map(|(token, _)| *token),
        }),
    }
}

/// Applies one write inside the batch's transaction (or the caller's savepoint): its
/// statements as [`writes::parts`] describes them (the pipelined path sends the same),
/// one by one, stopping at the first that does not stand; then a game's rating.
fn apply(
    tx: &mut Transaction,
    st: &Statements,
    fences: &mut Fences,
    fence: Option<&Fence>,
    w: &Write,
) -> Result<()> {
    if let Some(fence) = fence
        && !matches!(w, Write::Claim { .. })
    {
        check_fence(fences, w.room(), fence)?;
    }
    for part in writes::parts(st, fence, w) {
        let params = part.params();
        let answer = match (part.sql, part.expect.rows()) {
            (writes::Sql::Prepared(s), false) => writes::Answer::Count(tx.execute(s, &params)?),
            (writes::Sql::Prepared(s), true) => writes::Answer::Rows(tx.query(s, &params)?),
            (writes::Sql::Text(s), false) => writes::Answer::Count(tx.execute(s, &params)?),
            (writes::Sql::Text(s), true) => writes::Answer::Rows(tx.query(s, &params)?),
        };
        match part.expect.check(w.room(), &answer) {
            Ok(()) => {}
            // A claim refused: say which token the room holds now.
            Err(StoreError::Fenced { room, token, .. }) => {
                let current: Option<i64> =
                    tx.query_opt(&st.fence_token, &[&room])?.map(|r| r.get(0));
                return Err(StoreError::Fenced {
                    room,
                    token,
                    current,
                });
            }
            Err(e) => return Err(e),
        }
    }
    match w {
        Write::Claim {
            room_id,
            node,
            token,
            ..
        } => {
            fences.insert(room_id.clone(), (*token, node.clone()));
        }
        Write::FinishGame {
            room_id,
            now,
            rated: Some(outcome),
            ..
        }
        | Write::AbandonGame {
            room_id,
            now,
            rated: Some(outcome),
        } => crate::ratings::apply(&mut PgRating { tx, st }, room_id, outcome, *now)?,
        _ => {}
    }
    Ok(())
}
