//! Accounts (schema 7): players with a name that lasts, their sign-in sessions and API
//! tokens, whom they block, the chat lines reported to operators, and which seats of
//! which games each account sat in.
//!
//! Not through the games' batching writer: that thread commits every room's replies, and
//! a sign-in must neither wait behind a batch nor hold one up. [`Accounts`] is a
//! connection of its own — with SQLite a second writer beside the games' one (WAL lets
//! it read at any time, and a write waits for the other writer's commit under the busy
//! timeout, never long: batches are milliseconds), with PostgreSQL a separate
//! connection. The server keeps it on a thread of its own and sends it queries.
//!
//! Secrets are never stored: a session or token is kept as its SHA-256, a password as
//! its Argon2id hash (the server computes both; this module stores bytes and text).
//!
//! Each query is written once, in SQLite's `?N` placeholders, and given to PostgreSQL
//! with `$N`; both schemas use 64-bit integers (0/1 for flags), text and bytes, so the
//! rows read the same on both backends.

use crate::{Database, FinishedGame, RecordVersion, Result, SeatRow, StoreError};
use std::path::Path;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: i64,
    /// The name as registered (shown).
    pub name: String,
    /// The name folded (case, compatibility forms, look-alikes): unique.
    pub folded: String,
    /// The password's PHC string (Argon2id); never shown.
    pub password_hash: String,
    /// A bot account plays only through API tokens and is shown as a bot.
    pub bot: bool,
    pub created_at: i64,
    /// Since when the account is banned, if it is.
    pub banned_at: Option<i64>,
}

/// A sign-in session (its token is kept only as a SHA-256).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub id: i64,
    pub account_id: i64,
    pub created_at: i64,
    pub last_used: i64,
    pub expires_at: i64,
}

/// An API token (kept only as a SHA-256).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    pub id: i64,
    pub account_id: i64,
    pub label: String,
    pub created_at: i64,
    pub last_used: Option<i64>,
    pub revoked_at: Option<i64>,
}

/// A reported chat line, kept for operators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub id: i64,
    pub room_id: String,
    /// The line's index in the room's chat, as `chat` frames number it.
    pub line: i64,
    pub text: String,
    pub speaker: String,
    /// The reporting account's name (None once it was deleted).
    pub reporter: Option<String>,
    pub reason: Option<String>,
    pub created_at: i64,
}

/// A game an account played: the seat it sat in and the game as the history lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountGame {
    pub seat: u8,
    pub game: FinishedGame,
}

/// How an account creation went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Created {
    Account(AccountRow),
    /// An account whose folded name is this one exists already.
    NameTaken,
}

/// One value of a query's parameters or rows, the same on both backends.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum V {
    I(i64),
    /// A real (ratings, schema 8).
    F(f64),
    T(String),
    B(Vec<u8>),
    N,
}

impl V {
    /// A real, or an integer read as one (0 for anything else).
    pub(crate) fn float(&self) -> f64 {
        match self {
            V::F(f) => *f,
            V::I(i) => *i as f64,
            _ => 0.0,
        }
    }
    pub(crate) fn int(&self) -> Option<i64> {
        match self {
            V::I(i) => Some(*i),
            _ => None,
        }
    }
    pub(crate) fn text(&self) -> Option<String> {
        match self {
            V::T(t) => Some(t.clone()),
            _ => None,
        }
    }
    fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            V::B(b) => Some(b.clone()),
            _ => None,
        }
    }
}

impl From<i64> for V {
    fn from(i: i64) -> V {
        V::I(i)
    }
}
impl From<&str> for V {
    fn from(t: &str) -> V {
        V::T(t.to_string())
    }
}
impl From<&String> for V {
    fn from(t: &String) -> V {
        V::T(t.clone())
    }
}
impl From<&[u8]> for V {
    fn from(b: &[u8]) -> V {
        V::B(b.to_vec())
    }
}
impl<T: Into<V>> From<Option<T>> for V {
    fn from(o: Option<T>) -> V {
        o.map_or(V::N, Into::into)
    }
}

impl rusqlite::ToSql for V {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match self {
            V::I(i) => ToSqlOutput::Owned(Value::Integer(*i)),
            V::F(f) => ToSqlOutput::Owned(Value::Real(*f)),
            V::T(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            V::B(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
            V::N => ToSqlOutput::Owned(Value::Null),
        })
    }
}

impl postgres::types::ToSql for V {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use postgres::types::{IsNull, Type};
        match self {
            V::I(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
            V::I(i) => i.to_sql(ty, out),
            V::F(f) => f.to_sql(ty, out),
            V::T(t) => t.as_str().to_sql(ty, out),
            V::B(b) => b.as_slice().to_sql(ty, out),
            V::N => Ok(IsNull::Yes),
        }
    }
    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }
    fn to_sql_checked(
        &self,
        ty: &postgres::types::Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        self.to_sql(ty, out)
    }
}

/// `?1` as PostgreSQL writes it: `$1`.
pub(crate) fn dollar(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

enum Conn {
    Sqlite(rusqlite::Connection),
    Postgres {
        client: Box<postgres::Client>,
        url: String,
    },
}

/// The accounts' connection (see the module's doc). Blocking, like the rest of the store:
/// keep it on a thread of its own.
pub struct Accounts {
    conn: Conn,
}

const ACCOUNT_COLUMNS: &str =
    "a.id, a.name, a.folded, a.password_hash, a.bot, a.created_at, a.banned_at";

fn account(r: &[V]) -> AccountRow {
    AccountRow {
        id: r[0].int().unwrap_or_default(),
        name: r[1].text().unwrap_or_default(),
        folded: r[2].text().unwrap_or_default(),
        password_hash: r[3].text().unwrap_or_default(),
        bot: r[4].int().unwrap_or_default() != 0,
        created_at: r[5].int().unwrap_or_default(),
        banned_at: r[6].int(),
    }
}

impl Accounts {
    /// Opens the accounts' own connection. Open the [`crate::Store`] first: it creates
    /// the database and brings the schema up to date.
    pub fn open(database: &Database) -> Result<Accounts> {
        let conn = match database {
            Database::Sqlite { dir, .. } => Conn::Sqlite(open_sqlite(dir)?),
            Database::Postgres { url } => Conn::Postgres {
                client: Box::new(crate::pg::connect_reader(url)?),
                url: url.clone(),
            },
        };
        Ok(Accounts { conn })
    }

    fn pg(&mut self) -> Result<&mut postgres::Client> {
        let Conn::Postgres { client, url } = &mut self.conn else {
            unreachable!("called for PostgreSQL only")
        };
        if client.is_closed() {
            **client = crate::pg::connect_reader(url)?;
        }
        Ok(client)
    }

    pub(crate) fn exec(&mut self, sql: &str, params: &[V]) -> Result<u64> {
        match &self.conn {
            Conn::Sqlite(c) => {
                Ok(c.prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(params))? as u64)
            }
            Conn::Postgres { .. } => {
                let refs: Vec<&(dyn postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|p| p as &(dyn postgres::types::ToSql + Sync))
                    .collect();
                Ok(self.pg()?.execute(dollar(sql).as_str(), &refs)?)
            }
        }
    }

    pub(crate) fn rows(&mut self, sql: &str, params: &[V]) -> Result<Vec<Vec<V>>> {
        match &self.conn {
            Conn::Sqlite(c) => {
                let mut st = c.prepare_cached(sql)?;
                let n = st.column_count();
                let rows = st.query_map(rusqlite::params_from_iter(params), |r| {
                    (0..n)
                        .map(|i| {
                            use rusqlite::types::ValueRef;
                            Ok(match r.get_ref(i)? {
                                ValueRef::Integer(i) => V::I(i),
                                ValueRef::Text(t) => V::T(String::from_utf8_lossy(t).into()),
                                ValueRef::Blob(b) => V::B(b.to_vec()),
                                ValueRef::Real(f) => V::F(f),
                                ValueRef::Null => V::N,
                            })
                        })
                        .collect::<rusqlite::Result<Vec<V>>>()
                })?;
                Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
            }
            Conn::Postgres { .. } => {
                use postgres::types::Type;
                let refs: Vec<&(dyn postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|p| p as &(dyn postgres::types::ToSql + Sync))
                    .collect();
                let rows = self.pg()?.query(dollar(sql).as_str(), &refs)?;
                let mut out = Vec::with_capacity(rows.len());
                for row in rows {
                    let mut values = Vec::with_capacity(row.len());
                    for (i, col) in row.columns().iter().enumerate() {
                        let t = col.type_();
                        let v = if *t == Type::INT8 {
                            row.try_get::<_, Option<i64>>(i)?.map(V::I)
                        } else if *t == Type::INT4 {
                            row.try_get::<_, Option<i32>>(i)?.map(|x| V::I(x.into()))
                        } else if *t == Type::BOOL {
                            row.try_get::<_, Option<bool>>(i)?.map(|x| V::I(x.into()))
                        } else if *t == Type::FLOAT8 {
                            row.try_get::<_, Option<f64>>(i)?.map(V::F)
                        } else if *t == Type::BYTEA {
                            row.try_get::<_, Option<Vec<u8>>>(i)?.map(V::B)
                        } else {
                            row.try_get::<_, Option<String>>(i)?.map(V::T)
                        };
                        values.push(v.unwrap_or(V::N));
                    }
                    out.push(values);
                }
                Ok(out)
            }
        }
    }

    pub(crate) fn one(&mut self, sql: &str, params: &[V]) -> Result<Option<Vec<V>>> {
        Ok(self.rows(sql, params)?.into_iter().next())
    }

    /// Runs `f` in one transaction (SQLite: `BEGIN IMMEDIATE`, the write lock first).
    fn transaction<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let begin = match self.conn {
            Conn::Sqlite(_) => "BEGIN IMMEDIATE",
            Conn::Postgres { .. } => "BEGIN",
        };
        self.batch(begin)?;
        match f(self) {
            Ok(t) => {
                self.batch("COMMIT")?;
                Ok(t)
            }
            Err(e) => {
                let _ = self.batch("ROLLBACK");
                Err(e)
            }
        }
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        match &self.conn {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres { .. } => Ok(self.pg()?.batch_execute(sql)?),
        }
    }

    // ---- accounts ----

    /// Creates an account unless one with the same folded name exists.
    pub fn create_account(
        &mut self,
        name: &str,
        folded: &str,
        password_hash: &str,
        bot: bool,
        now: i64,
    ) -> Result<Created> {
        let row = self.one(
            "INSERT INTO accounts (name, folded, password_hash, bot, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (folded) DO NOTHING RETURNING id",
            &[
                name.into(),
                folded.into(),
                password_hash.into(),
                i64::from(bot).into(),
                now.into(),
            ],
        )?;
        match row.and_then(|r| r[0].int()) {
            None => Ok(Created::NameTaken),
            Some(id) => Ok(Created::Account(AccountRow {
                id,
                name: name.into(),
                folded: folded.into(),
                password_hash: password_hash.into(),
                bot,
                created_at: now,
                banned_at: None,
            })),
        }
    }

    pub fn account_by_folded(&mut self, folded: &str) -> Result<Option<AccountRow>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.folded = ?1");
        Ok(self.one(&sql, &[folded.into()])?.map(|r| account(&r)))
    }

    pub fn account_by_id(&mut self, id: i64) -> Result<Option<AccountRow>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1");
        Ok(self.one(&sql, &[id.into()])?.map(|r| account(&r)))
    }

    /// Accounts by name, at most `limit`.
    pub fn list_accounts(&mut self, limit: u32) -> Result<Vec<AccountRow>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.folded LIMIT ?1");
        Ok(self
            .rows(&sql, &[i64::from(limit).into()])?
            .iter()
            .map(|r| account(r))
            .collect())
    }

    pub fn set_password(&mut self, id: i64, password_hash: &str) -> Result<bool> {
        Ok(self.exec(
            "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
            &[id.into(), password_hash.into()],
        )? == 1)
    }

    pub fn set_bot(&mut self, id: i64, bot: bool) -> Result<bool> {
        Ok(self.exec(
            "UPDATE accounts SET bot = ?2 WHERE id = ?1",
            &[id.into(), i64::from(bot).into()],
        )? == 1)
    }

    /// Bans (`Some(since)`) or unbans (`None`) an account; a ban also ends its sessions.
    pub fn set_banned(&mut self, id: i64, since: Option<i64>) -> Result<bool> {
        self.transaction(|a| {
            let n = a.exec(
                "UPDATE accounts SET banned_at = ?2 WHERE id = ?1",
                &[id.into(), since.into()],
            )?;
            if since.is_some() {
                a.exec("DELETE FROM sessions WHERE account_id = ?1", &[id.into()])?;
            }
            Ok(n == 1)
        })
    }

    /// Deletes an account: its sessions, tokens, blocks, card preferences, follows (both
    /// ways) and seat links go; the seats it sat in stay, renamed `placeholder`, so its
    /// games stay readable.
    pub fn delete_account(&mut self, id: i64, placeholder: &str) -> Result<bool> {
        self.transaction(|a| {
            a.exec(
                "UPDATE seats SET name = ?2 WHERE EXISTS (
                     SELECT 1 FROM seat_accounts sa WHERE sa.account_id = ?1
                        AND sa.room_id = seats.room_id AND sa.seat = seats.seat
                        AND sa.name = seats.name)",
                &[id.into(), placeholder.into()],
            )?;
            for sql in [
                "DELETE FROM seat_accounts WHERE account_id = ?1",
                // Its ratings go with it (they refer to the account); the other players'
                // changes from games against it stay.
                "DELETE FROM rating_changes WHERE account_id = ?1",
                "DELETE FROM ratings WHERE account_id = ?1",
                "DELETE FROM sessions WHERE account_id = ?1",
                "DELETE FROM api_tokens WHERE account_id = ?1",
                "DELETE FROM blocks WHERE account_id = ?1 OR blocked_id = ?1",
                "DELETE FROM card_prefs WHERE account_id = ?1",
                "DELETE FROM follows WHERE account_id = ?1 OR followed_id = ?1",
                "UPDATE reports SET reporter_id = NULL WHERE reporter_id = ?1",
            ] {
                a.exec(sql, &[id.into()])?;
            }
            Ok(a.exec("DELETE FROM accounts WHERE id = ?1", &[id.into()])? == 1)
        })
    }

    // ---- sessions ----

    pub fn create_session(
        &mut self,
        account_id: i64,
        hash: &[u8],
        now: i64,
        expires_at: i64,
    ) -> Result<i64> {
        let row = self.one(
            "INSERT INTO sessions (account_id, hash, created_at, last_used, expires_at)
             VALUES (?1, ?2, ?3, ?3, ?4) RETURNING id",
            &[
                account_id.into(),
                hash.into(),
                now.into(),
                expires_at.into(),
            ],
        )?;
        row.and_then(|r| r[0].int())
            .ok_or_else(|| StoreError::Migration {
                version: crate::SCHEMA_VERSION,
                reason: "a session insert returned no id".into(),
            })
    }

    /// The unexpired session with this hash and its account; notes its use (at most
    /// once a minute, so reads stay reads).
    pub fn session(&mut self, hash: &[u8], now: i64) -> Result<Option<(SessionRow, AccountRow)>> {
        let sql = format!(
            "SELECT s.id, s.account_id, s.created_at, s.last_used, s.expires_at, {ACCOUNT_COLUMNS}
             FROM sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.hash = ?1 AND s.expires_at > ?2"
        );
        let Some(r) = self.one(&sql, &[hash.into(), now.into()])? else {
            return Ok(None);
        };
        let session = SessionRow {
            id: r[0].int().unwrap_or_default(),
            account_id: r[1].int().unwrap_or_default(),
            created_at: r[2].int().unwrap_or_default(),
            last_used: r[3].int().unwrap_or_default(),
            expires_at: r[4].int().unwrap_or_default(),
        };
        if now - session.last_used >= 60 {
            self.exec(
                "UPDATE sessions SET last_used = ?2 WHERE id = ?1",
                &[session.id.into(), now.into()],
            )?;
        }
        Ok(Some((session, account(&r[5..]))))
    }

    /// The account's unexpired sessions, newest first.
    pub fn sessions(&mut self, account_id: i64, now: i64) -> Result<Vec<SessionRow>> {
        Ok(self
            .rows(
                "SELECT id, account_id, created_at, last_used, expires_at FROM sessions
                 WHERE account_id = ?1 AND expires_at > ?2 ORDER BY id DESC",
                &[account_id.into(), now.into()],
            )?
            .iter()
            .map(|r| SessionRow {
                id: r[0].int().unwrap_or_default(),
                account_id: r[1].int().unwrap_or_default(),
                created_at: r[2].int().unwrap_or_default(),
                last_used: r[3].int().unwrap_or_default(),
                expires_at: r[4].int().unwrap_or_default(),
            })
            .collect())
    }

    /// Ends one of the account's sessions; false if it has none by that id.
    pub fn delete_session(&mut self, account_id: i64, id: i64) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM sessions WHERE account_id = ?1 AND id = ?2",
            &[account_id.into(), id.into()],
        )? == 1)
    }

    /// Ends every session of the account but `keep`; the ids ended.
    pub fn delete_other_sessions(
        &mut self,
        account_id: i64,
        keep: Option<i64>,
    ) -> Result<Vec<i64>> {
        self.transaction(|a| {
            let ids: Vec<i64> = a
                .rows(
                    "SELECT id FROM sessions WHERE account_id = ?1 AND id <> ?2",
                    &[account_id.into(), keep.unwrap_or(-1).into()],
                )?
                .iter()
                .filter_map(|r| r[0].int())
                .collect();
            a.exec(
                "DELETE FROM sessions WHERE account_id = ?1 AND id <> ?2",
                &[account_id.into(), keep.unwrap_or(-1).into()],
            )?;
            Ok(ids)
        })
    }

    /// Forgets sessions expired before `now`.
    pub fn purge_expired_sessions(&mut self, now: i64) -> Result<u64> {
        self.exec("DELETE FROM sessions WHERE expires_at <= ?1", &[now.into()])
    }

    // ---- API tokens ----

    pub fn create_token(
        &mut self,
        account_id: i64,
        label: &str,
        hash: &[u8],
        now: i64,
    ) -> Result<i64> {
        let row = self.one(
            "INSERT INTO api_tokens (account_id, label, hash, created_at)
             VALUES (?1, ?2, ?3, ?4) RETURNING id",
            &[account_id.into(), label.into(), hash.into(), now.into()],
        )?;
        row.and_then(|r| r[0].int())
            .ok_or_else(|| StoreError::Migration {
                version: crate::SCHEMA_VERSION,
                reason: "a token insert returned no id".into(),
            })
    }

    /// The unrevoked token with this hash and its account; notes its use.
    pub fn token(&mut self, hash: &[u8], now: i64) -> Result<Option<(TokenRow, AccountRow)>> {
        let sql = format!(
            "SELECT t.id, t.account_id, t.label, t.created_at, t.last_used, t.revoked_at,
                    {ACCOUNT_COLUMNS}
             FROM api_tokens t JOIN accounts a ON a.id = t.account_id
             WHERE t.hash = ?1 AND t.revoked_at IS NULL"
        );
        let Some(r) = self.one(&sql, &[hash.into()])? else {
            return Ok(None);
        };
        let token = token_row(&r);
        self.exec(
            "UPDATE api_tokens SET last_used = ?2 WHERE id = ?1",
            &[token.id.into(), now.into()],
        )?;
        Ok(Some((token, account(&r[6..]))))
    }

    /// The account's unrevoked tokens, newest first.
    pub fn tokens(&mut self, account_id: i64) -> Result<Vec<TokenRow>> {
        Ok(self
            .rows(
                "SELECT id, account_id, label, created_at, last_used, revoked_at FROM api_tokens
                 WHERE account_id = ?1 AND revoked_at IS NULL ORDER BY id DESC",
                &[account_id.into()],
            )?
            .iter()
            .map(|r| token_row(r))
            .collect())
    }

    /// Revokes one of the account's tokens; false if it has no live one by that id.
    pub fn revoke_token(&mut self, account_id: i64, id: i64, now: i64) -> Result<bool> {
        Ok(self.exec(
            "UPDATE api_tokens SET revoked_at = ?3
             WHERE account_id = ?1 AND id = ?2 AND revoked_at IS NULL",
            &[account_id.into(), id.into(), now.into()],
        )? == 1)
    }

    // ---- blocks ----

    pub fn block(&mut self, account_id: i64, blocked_id: i64, now: i64) -> Result<()> {
        self.exec(
            "INSERT INTO blocks (account_id, blocked_id, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (account_id, blocked_id) DO NOTHING",
            &[account_id.into(), blocked_id.into(), now.into()],
        )?;
        Ok(())
    }

    pub fn unblock(&mut self, account_id: i64, blocked_id: i64) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM blocks WHERE account_id = ?1 AND blocked_id = ?2",
            &[account_id.into(), blocked_id.into()],
        )? == 1)
    }

    /// The names the account blocks, in name order.
    pub fn blocks(&mut self, account_id: i64) -> Result<Vec<String>> {
        Ok(self
            .rows(
                "SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked_id
                 WHERE b.account_id = ?1 ORDER BY a.folded",
                &[account_id.into()],
            )?
            .iter()
            .filter_map(|r| r[0].text())
            .collect())
    }

    // ---- reports ----

    #[allow(clippy::too_many_arguments)]
    pub fn add_report(
        &mut self,
        room_id: &str,
        line: i64,
        text: &str,
        speaker: &str,
        reporter_id: Option<i64>,
        reason: Option<&str>,
        now: i64,
    ) -> Result<i64> {
        let row = self.one(
            "INSERT INTO reports (room_id, line, text, speaker, reporter_id, reason, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
            &[
                room_id.into(),
                line.into(),
                text.into(),
                speaker.into(),
                reporter_id.into(),
                reason.into(),
                now.into(),
            ],
        )?;
        Ok(row.and_then(|r| r[0].int()).unwrap_or_default())
    }

    /// The newest reports first, at most `limit`.
    pub fn reports(&mut self, limit: u32) -> Result<Vec<ReportRow>> {
        Ok(self
            .rows(
                "SELECT r.id, r.room_id, r.line, r.text, r.speaker, a.name, r.reason, r.created_at
                 FROM reports r LEFT JOIN accounts a ON a.id = r.reporter_id
                 ORDER BY r.id DESC LIMIT ?1",
                &[i64::from(limit).into()],
            )?
            .iter()
            .map(|r| ReportRow {
                id: r[0].int().unwrap_or_default(),
                room_id: r[1].text().unwrap_or_default(),
                line: r[2].int().unwrap_or_default(),
                text: r[3].text().unwrap_or_default(),
                speaker: r[4].text().unwrap_or_default(),
                reporter: r[5].text(),
                reason: r[6].text(),
                created_at: r[7].int().unwrap_or_default(),
            })
            .collect())
    }

    // ---- games ----

    /// Records that the account sits in `seat` of `room_id` under `name` (a seat taken
    /// again, by whoever, replaces it).
    pub fn link_seat(
        &mut self,
        room_id: &str,
        seat: u8,
        account_id: i64,
        name: &str,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO seat_accounts (room_id, seat, account_id, name) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (room_id, seat) DO UPDATE
                SET account_id = excluded.account_id, name = excluded.name",
            &[
                room_id.into(),
                i64::from(seat).into(),
                account_id.into(),
                name.into(),
            ],
        )?;
        Ok(())
    }

    /// How many ended games (finished or abandoned) the account played.
    pub fn game_count(&mut self, account_id: i64) -> Result<u64> {
        let r = self.one(
            "SELECT COUNT(*) FROM seat_accounts sa
             JOIN seats s ON s.room_id = sa.room_id AND s.seat = sa.seat AND s.name = sa.name
             JOIN games g ON g.room_id = sa.room_id
             WHERE sa.account_id = ?1 AND g.finished_at IS NOT NULL",
            &[account_id.into()],
        )?;
        Ok(r.and_then(|r| r[0].int()).unwrap_or_default().max(0) as u64)
    }

    /// The account's ended games, newest first, at most `limit`, with every seat.
    pub fn games(&mut self, account_id: i64, limit: u32) -> Result<Vec<AccountGame>> {
        let rows = self.rows(
            "SELECT sa.seat, g.room_id, g.finished_at, g.scores, g.setup, g.record_format,
                    g.rules_version, r.status
             FROM seat_accounts sa
             JOIN seats s ON s.room_id = sa.room_id AND s.seat = sa.seat AND s.name = sa.name
             JOIN games g ON g.room_id = sa.room_id
             JOIN rooms r ON r.id = sa.room_id
             WHERE sa.account_id = ?1 AND g.finished_at IS NOT NULL
             ORDER BY g.finished_at DESC, g.room_id LIMIT ?2",
            &[account_id.into(), i64::from(limit).into()],
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let room_id = r[1].text().unwrap_or_default();
            // A seat's last command id as the room's reader derives it (schema 11: the
            // row's, or its replies' largest, whichever is larger), the larger taken here
            // as both backends run this one statement.
            let seats = self
                .rows(
                    "SELECT s.seat, s.name, s.token_hash, s.bot, s.last_command,
                            COALESCE(rc.command, 0)
                     FROM seats s
                     LEFT JOIN (SELECT player, MAX(command) AS command FROM replies
                                WHERE room_id = ?1 AND command IS NOT NULL GROUP BY player) rc
                       ON rc.player = s.seat
                     WHERE s.room_id = ?1 ORDER BY s.seat",
                    &[room_id.as_str().into()],
                )?
                .iter()
                .map(|s| SeatRow {
                    seat: s[0].int().unwrap_or_default() as u8,
                    name: s[1].text().unwrap_or_default(),
                    token_hash: s[2].bytes(),
                    bot: s[3].text(),
                    last_command: s[4]
                        .int()
                        .unwrap_or_default()
                        .max(s[5].int().unwrap_or_default())
                        .max(0) as u64,
                    account: None,
                })
                .collect();
            out.push(AccountGame {
                seat: r[0].int().unwrap_or_default() as u8,
                game: FinishedGame {
                    room_id,
                    finished_at: r[2].int().unwrap_or_default(),
                    scores: r[3].text(),
                    setup: r[4].text().unwrap_or_default(),
                    version: RecordVersion {
                        format: r[5].int().unwrap_or(1) as u32,
                        rules: r[6].int().unwrap_or(1) as u32,
                    },
                    abandoned: r[7].text().as_deref() == Some("abandoned"),
                    seats,
                },
            });
        }
        Ok(out)
    }
}

fn token_row(r: &[V]) -> TokenRow {
    TokenRow {
        id: r[0].int().unwrap_or_default(),
        account_id: r[1].int().unwrap_or_default(),
        label: r[2].text().unwrap_or_default(),
        created_at: r[3].int().unwrap_or_default(),
        last_used: r[4].int(),
        revoked_at: r[5].int(),
    }
}

fn open_sqlite(dir: &Path) -> Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(dir.join(crate::DB_FILE))?;
    // A second writer: it waits for the games' writer (whose batches are milliseconds).
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    crate::sqlite::schema::check_current(version)?;
    Ok(conn)
}

// Card preferences and follows (schema 8), on this connection.
#[path = "social.rs"]
pub(crate) mod social;

// Game reviews (schema 9), on a connection of the same kind.
#[path = "analysis.rs"]
pub(crate) mod analysis;

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(
            super::dollar("SELECT ?1, '?', ?12 WHERE x = ?"),
            "SELECT $1, '?', $12 WHERE x = ?"
        );
    }
}
