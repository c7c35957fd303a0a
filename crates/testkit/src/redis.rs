//! A Redis of its own: `redis-server` on 127.0.0.1 and a free port, persisting nothing.

use crate::{KitError, io, spawn};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

/// Longest wait for a started Redis to answer PING.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `redis-server`, killed when dropped.
pub struct TempRedis {
    dir: PathBuf,
    port: u16,
    child: Mutex<Option<Child>>,
}

impl TempRedis {
    /// Starts `redis-server` (from the PATH, else /usr/bin) and waits until it answers
    /// PING.
    pub fn start() -> Result<TempRedis, KitError> {
        let bin = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
            .into_iter()
            .map(PathBuf::from)
            .chain(
                std::env::var_os("PATH")
                    .into_iter()
                    .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
                    .map(|d| d.join("redis-server")),
            )
            .find(|p| p.is_file())
            .ok_or(KitError::NotInstalled {
                what: "Redis",
                looked: "no redis-server on the PATH nor in /usr/bin".into(),
                package: "redis-server",
            })?;
        let dir = crate::server_dir("dominion-redis")?;
        let result = start_in(&bin, &dir);
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        result
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it (SIGKILL) and deletes its directory. Safe to call twice.
    pub fn stop(&self) {
        let child = self.child.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(mut child) = child {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Drop for TempRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn start_in(bin: &Path, dir: &Path) -> Result<TempRedis, KitError> {
    let log = dir.join("redis.log");
    let mut last = None;
    for _ in 0..3 {
        let port = crate::free_port()?;
        let log_file =
            std::fs::File::create(&log).map_err(io(format!("create {}", log.display())))?;
        let mut cmd = Command::new(bin);
        cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(dir)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().map_err(io("clone the log file"))?)
            .stderr(log_file);
        let child = spawn::spawn(cmd, libc::SIGKILL).map_err(io("start redis-server"))?;
        let redis = TempRedis {
            dir: dir.to_path_buf(),
            port,
            child: Mutex::new(Some(child)),
        };
        match redis.wait_ready(&log) {
            Ok(()) => return Ok(redis),
            Err(e) => {
                crate::kill_child(&redis.child);
                last = Some(e);
            }
        }
    }
    Err(last.expect("three attempts"))
}

impl TempRedis {
    fn wait_ready(&self, log: &Path) -> Result<(), KitError> {
        crate::wait_ready(
            &self.child,
            log,
            ("redis-server", "answer PING"),
            READY_TIMEOUT,
            Duration::from_millis(20),
            || ping(self.port),
        )
    }
}

/// PING in Redis's inline protocol; `+PONG` is the answer.
pub(crate) fn ping(port: u16) -> std::io::Result<()> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(2)))?;
    s.write_all(b"PING\r\n")?;
    let mut buf = [0u8; 7];
    s.read_exact(&mut buf)?;
    if &buf == b"+PONG\r\n" {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "PING answered {:?}",
            String::from_utf8_lossy(&buf)
        )))
    }
}
