//! A PostgreSQL cluster of its own: `initdb` into a temporary directory, `postgres` on
//! 127.0.0.1 and a free port, `fsync=off` (tests kill our server, never PostgreSQL, so
//! its durability is not under test and syncing would only slow every commit).

use crate::{KitError, io, spawn, tail};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Longest wait for a started PostgreSQL to accept connections.
const READY_TIMEOUT: Duration = Duration::from_secs(60);

/// The superuser `initdb` creates; trusted on 127.0.0.1 without a password.
const SUPERUSER: &str = "postgres";

/// A running PostgreSQL, stopped (immediate shutdown) and deleted when dropped.
pub struct TempPostgres {
    root: PathBuf,
    port: u16,
    child: Mutex<Option<Child>>,
    next_database: AtomicU64,
}

/// The one PostgreSQL of this test binary.
static SHARED: OnceLock<TempPostgres> = OnceLock::new();

impl TempPostgres {
    /// The PostgreSQL shared by every test of this binary, started by the first test
    /// that asks; stopped and deleted when the binary exits (statics are never dropped,
    /// so an `atexit` hook does it; a killed binary's PostgreSQL gets SIGQUIT from the
    /// kernel, see `spawn`). Panics, saying what is missing, if it cannot start.
    pub fn shared() -> &'static TempPostgres {
        SHARED.get_or_init(|| {
            let pg = TempPostgres::start().unwrap_or_else(|e| panic!("{e}"));
            extern "C" fn stop_shared() {
                if let Some(pg) = SHARED.get() {
                    pg.stop();
                }
            }
            // SAFETY: registers a plain function; it runs once, at exit.
            unsafe { libc::atexit(stop_shared) };
            pg
        })
    }

    /// Starts a new PostgreSQL (`initdb`, then `postgres`), and waits until it accepts
    /// connections. As root, both run as the user `postgres` (PostgreSQL refuses root),
    /// which then owns the temporary directory.
    pub fn start() -> Result<TempPostgres, KitError> {
        let bin = bindir()?;
        let root = crate::server_dir("dominion-pg")?;
        let result = start_in(&bin, &root);
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&root);
        }
        result
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name` as the superuser.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates an empty database of its own for a test and returns its URL.
    pub fn fresh_database(&self) -> String {
        let n = self.next_database.fetch_add(1, Ordering::Relaxed);
        let name = format!("test_{n}");
        let admin = self.url("postgres");
        off_runtime(|| {
            let mut client = postgres::Client::connect(&admin, postgres::NoTls)?;
            client.batch_execute(&format!("CREATE DATABASE {name}"))
        })
        .unwrap_or_else(|e| panic!("CREATE DATABASE {name} on {admin}: {e:?}"));
        self.url(&name)
    }

    /// Runs `sql` as the superuser in database `name` (tests that reach past the
    /// store: a newer schema version, a broken row).
    pub fn execute(&self, name_or_url: &str, sql: &str) {
        let url = if name_or_url.contains("://") {
            name_or_url.to_string()
        } else {
            self.url(name_or_url)
        };
        off_runtime(|| {
            let mut client = postgres::Client::connect(&url, postgres::NoTls)?;
            client.batch_execute(sql)
        })
        .unwrap_or_else(|e| panic!("{sql} on {url}: {e:?}"));
    }

    /// Stops it at once (SIGQUIT to the postmaster: what `pg_ctl stop -m immediate`
    /// sends; we hold the child, so we signal and reap it ourselves) and deletes its
    /// directory. Safe to call twice.
    pub fn stop(&self) {
        let child = self.child.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(mut child) = child {
            // SAFETY: signals our own child, which is not reaped yet.
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGQUIT) };
            let _ = child.wait();
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Runs `f` on a thread of its own. The blocking `postgres` client starts a tokio runtime
/// of its own, which panics on a thread of another runtime (an async test's).
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().expect("the thread panicked"))
}

/// PostgreSQL's programs: `pg_config --bindir`, else the newest
/// `/usr/lib/postgresql/*/bin` (Debian installs them there, off the PATH).
fn bindir() -> Result<PathBuf, KitError> {
    let has_server = |dir: &Path| dir.join("initdb").is_file() && dir.join("postgres").is_file();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output()
        && out.status.success()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if has_server(&dir) {
            return Ok(dir);
        }
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let dir = e.path().join("bin");
            has_server(&dir).then_some((version, dir))
        })
        .collect();
    found.sort();
    found
        .pop()
        .map(|(_, dir)| dir)
        .ok_or(KitError::NotInstalled {
            what: "PostgreSQL",
            looked:
                "no initdb and postgres in `pg_config --bindir` nor in /usr/lib/postgresql/*/bin"
                    .into(),
            package: "postgresql",
        })
}

/// The uid and gid to run PostgreSQL as: `postgres` when we are root, else ourselves.
fn run_as() -> Result<Option<(u32, u32)>, KitError> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    // SAFETY: getpwnam returns a pointer into static storage or null; read at once.
    let pw = unsafe { libc::getpwnam(c"postgres".as_ptr()) };
    if pw.is_null() {
        return Err(KitError::NotInstalled {
            what: "the user `postgres`",
            looked: "running as root, PostgreSQL must run as another user, and there is no \
                     user postgres"
                .into(),
            package: "postgresql",
        });
    }
    // SAFETY: not null, checked above.
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    Ok(Some((uid, gid)))
}

fn as_user(cmd: &mut Command, user: Option<(u32, u32)>) {
    use std::os::unix::process::CommandExt;
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
}

fn start_in(bin: &Path, root: &Path) -> Result<TempPostgres, KitError> {
    let user = run_as()?;
    let data = root.join("data");
    let log = root.join("postgres.log");
    if let Some((uid, gid)) = user {
        std::os::unix::fs::chown(root, Some(uid), Some(gid))
            .map_err(io(format!("chown {} to postgres", root.display())))?;
    }
    let log_file = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(io(format!("open {}", log.display())))
    };
    // The log is created by us (root) and written by the child through the inherited
    // descriptor, so its owner does not matter.
    let mut initdb = Command::new(bin.join("initdb"));
    initdb
        .arg("-D")
        .arg(&data)
        .args(["-U", SUPERUSER, "--auth=trust", "--no-locale", "-E", "UTF8"])
        .arg("--no-sync")
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(log_file()?)
        .stderr(log_file()?);
    as_user(&mut initdb, user);
    let status = initdb.status().map_err(io("run initdb"))?;
    if !status.success() {
        return Err(KitError::Failed {
            what: format!("initdb -D {} failed ({status})", data.display()),
            output: tail(&log, 30),
        });
    }
    let mut last = None;
    for _ in 0..3 {
        let port = crate::free_port()?;
        let mut postgres = Command::new(bin.join("postgres"));
        postgres
            .arg("-D")
            .arg(&data)
            .arg("-p")
            .arg(port.to_string())
            .arg("-k")
            .arg(root)
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", "fsync=off", "-c", "full_page_writes=off"])
            .args(["-c", "max_connections=300", "-c", "shared_buffers=32MB"])
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(log_file()?)
            .stderr(log_file()?);
        as_user(&mut postgres, user);
        // SIGQUIT: PostgreSQL's immediate shutdown, which also stops its backends and
        // frees its shared memory.
        let child = spawn::spawn(postgres, libc::SIGQUIT).map_err(io("start postgres"))?;
        let pg = TempPostgres {
            root: root.to_path_buf(),
            port,
            child: Mutex::new(Some(child)),
            next_database: AtomicU64::new(0),
        };
        match pg.wait_ready(&log) {
            Ok(()) => return Ok(pg),
            Err(e) => {
                // Not `stop`: that would delete the directory we retry in.
                crate::kill_child(&pg.child);
                last = Some(e);
            }
        }
    }
    Err(last.expect("three attempts"))
}

impl TempPostgres {
    /// Connects until it works (bounded); fails early if the server exited.
    fn wait_ready(&self, log: &Path) -> Result<(), KitError> {
        let url = format!("{}?connect_timeout=2", self.url("postgres"));
        crate::wait_ready(
            &self.child,
            log,
            ("postgres", "accept connections"),
            READY_TIMEOUT,
            Duration::from_millis(50),
            || off_runtime(|| postgres::Client::connect(&url, postgres::NoTls).map(drop)),
        )
    }
}
