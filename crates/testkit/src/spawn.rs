//! Child processes that cannot outlive the test process.
//!
//! A server a test starts is stopped by `Drop` when the test ends or panics. But a
//! server shared by a whole test binary lives in a `static`, and statics are never
//! dropped; and a test process killed by a signal runs no code at all. So every server
//! is started with `PR_SET_PDEATHSIG`: the kernel sends it a signal the moment its parent
//! goes away. "Parent" means the *thread* that forked it, so the children are forked by
//! one thread that lives as long as the process ([`spawn`] hands it the command), never
//! by a test's thread, which ends with its test.

use std::io;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

type Request = (Command, mpsc::Sender<io::Result<Child>>);

/// Starts `cmd` from the spawner thread; the child receives `signal` when this process
/// ends, however it ends.
pub fn spawn(mut cmd: Command, signal: i32) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("testkit-spawner".into())
            .spawn(move || {
                // The sender lives in the static: this loop ends only with the process.
                while let Ok((mut cmd, reply)) = rx.recv() {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .expect("start the testkit's spawner thread");
        Mutex::new(tx)
    });
    tie_to_parent(&mut cmd, signal);
    let (tx, rx) = mpsc::channel();
    spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, tx))
        .map_err(|_| io::Error::other("the testkit's spawner thread is gone"))?;
    rx.recv()
        .map_err(|_| io::Error::other("the testkit's spawner thread is gone"))?
}

#[cfg(target_os = "linux")]
fn tie_to_parent(cmd: &mut Command, signal: i32) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: prctl and getppid are async-signal-safe; nothing here allocates. The
    // closure runs in the child after fork (and after `Command::uid`'s setuid, which
    // would otherwise clear the setting), before exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died between fork and prctl: then no signal comes.
            if libc::getppid() != parent {
                libc::raise(signal);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn tie_to_parent(_cmd: &mut Command, _signal: i32) {}
