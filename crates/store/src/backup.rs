//! A consistent copy of the database while the server runs: SQLite's online backup API,
//! written under a temporary name, checked, and only then given its name.

use crate::sqlite::schema;
use crate::{DB_FILE, Result, StoreError};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a backup waits for a lock in all (SQLite answers "busy" while another
/// connection holds one it needs; in WAL mode that is rare and short).
const BUSY_WAIT: Duration = Duration::from_secs(30);

/// What a backup copied, read back from the copy itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// The database copied.
    pub source: PathBuf,
    /// The copy's final name.
    pub file: PathBuf,
    /// The copy's size in bytes.
    pub bytes: u64,
    /// The copy's schema version (`PRAGMA user_version`).
    pub schema_version: i64,
    /// Rooms of any status.
    pub rooms: u64,
    /// Games started, of which so many are still in progress, finished (with scores) and
    /// abandoned.
    pub games: u64,
    pub games_in_progress: u64,
    pub games_finished: u64,
    pub games_abandoned: u64,
    /// Accepted replies of all games.
    pub replies: u64,
}

/// Copies `data_dir`'s database to `dest` while the server may be writing to it.
///
/// The copy is one consistent snapshot: every page is copied in a single backup step,
/// which reads inside one read transaction. In WAL mode a reader never blocks the
/// writer, so the server goes on committing meanwhile (its commits after the snapshot
/// are not in the copy). Copying in several steps instead would restart from the first
/// page each time the server commits between two steps, and a busy server commits many
/// times a second, so such a backup might never finish.
///
/// The copy is written to a temporary name beside `dest` (`.NAME.partial-PID`), switched
/// to a rollback journal so it is one self-contained file, synced, reopened read-only
/// for `PRAGMA integrity_check` and the counts in the report, and only then renamed to
/// `dest`: a `dest` that exists is always a whole, checked copy. An existing `dest` is
/// refused unless `replace`. Any failure removes the temporary file.
pub fn backup(data_dir: &Path, dest: &Path, replace: bool) -> Result<BackupReport> {
    let source = data_dir.join(DB_FILE);
    if !source.is_file() {
        return Err(StoreError::NoDatabase(source));
    }
    if !replace && dest.symlink_metadata().is_ok() {
        return Err(StoreError::BackupExists(dest.to_path_buf()));
    }
    let name = dest
        .file_name()
        .ok_or_else(|| StoreError::BackupFile {
            path: dest.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"),
        })?
        .to_string_lossy()
        .into_owned();
    let partial = dest.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    let result = copy_and_check(&source, &partial, dest, replace);
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
        for suffix in ["-journal", "-wal", "-shm"] {
            let mut side = partial.clone().into_os_string();
            side.push(suffix);
            let _ = std::fs::remove_file(side);
        }
    }
    result
}

fn copy_and_check(
    source: &Path,
    partial: &Path,
    dest: &Path,
    replace: bool,
) -> Result<BackupReport> {
    let file_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| StoreError::BackupFile { path, source }
    };
    if partial.exists() {
        std::fs::remove_file(partial).map_err(file_error(partial))?;
    }
    // Read-only and without CREATE: a wrong --data-dir must not leave an empty database
    // behind, and the backup never writes to the server's file. (Run as root, SQLite
    // gives any -shm file it creates to the database's owner, so the server can still
    // open it.)
    let src = Connection::open_with_flags(
        source,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    src.busy_timeout(BUSY_WAIT)?;
    let version: i64 = src.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > schema::VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            supported: schema::VERSION,
        });
    }
    let mut dst = Connection::open(partial)?;
    {
        let backup = Backup::new(&src, &mut dst)?;
        let started = std::time::Instant::now();
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                // Not after a step of every page; stepping again finishes it.
                StepResult::More => {}
                // Busy, Locked (and kinds a later rusqlite may add): wait, then retry.
                _ if started.elapsed() < BUSY_WAIT => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => return Err(StoreError::BackupBusy(BUSY_WAIT)),
            }
        }
    }
    drop(src);
    // The copy carries the source's WAL flag; a rollback journal makes it one file that
    // can be copied around alone. The server switches it back to WAL when it opens it.
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    drop(dst);
    std::fs::File::open(partial)
        .and_then(|f| f.sync_all())
        .map_err(file_error(partial))?;

    let mut report = check_copy(partial)?;
    if !replace && dest.symlink_metadata().is_ok() {
        return Err(StoreError::BackupExists(dest.to_path_buf()));
    }
    std::fs::rename(partial, dest).map_err(file_error(dest))?;
    // The rename is durable once the directory is synced.
    if let Some(Ok(d)) = dest
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(std::fs::File::open)
    {
        let _ = d.sync_all();
    }
    report.source = source.to_path_buf();
    report.file = dest.to_path_buf();
    report.bytes = std::fs::metadata(dest).map_err(file_error(dest))?.len();
    Ok(report)
}

/// `PRAGMA integrity_check` and the counts, on a fresh read-only connection to the copy
/// as written to disk.
fn check_copy(path: &Path) -> Result<BackupReport> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut stmt = conn.prepare("PRAGMA integrity_check")?;
    let problems: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if problems != ["ok"] {
        return Err(StoreError::BackupDamaged(problems.join("; ")));
    }
    let count = |sql: &str| -> Result<u64> {
        Ok(conn.query_row(sql, [], |r| r.get::<_, i64>(0))?.max(0) as u64)
    };
    Ok(BackupReport {
        source: PathBuf::new(),
        file: PathBuf::new(),
        bytes: 0,
        schema_version: conn.query_row("PRAGMA user_version", [], |r| r.get(0))?,
        rooms: count("SELECT COUNT(*) FROM rooms")?,
        games: count("SELECT COUNT(*) FROM games")?,
        games_in_progress: count("SELECT COUNT(*) FROM games WHERE finished_at IS NULL")?,
        games_finished: count(
            "SELECT COUNT(*) FROM games g JOIN rooms r ON r.id = g.room_id
             WHERE g.finished_at IS NOT NULL AND r.status <> 'abandoned'",
        )?,
        games_abandoned: count(
            "SELECT COUNT(*) FROM games g JOIN rooms r ON r.id = g.room_id
             WHERE g.finished_at IS NOT NULL AND r.status = 'abandoned'",
        )?,
        replies: count("SELECT COUNT(*) FROM replies")?,
    })
}
