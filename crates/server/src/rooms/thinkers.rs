//! Bot thinking: a small pool of threads, shared by every room, where searching bots
//! think — the server's one bounded budget of bot CPU.
//!
//! Why a pool of its own: a searching bot (`search`) spends up to `--bot-think-ms` of a
//! core per decision. Run on tokio's workers it would stall the sockets and the other
//! rooms; run on tokio's blocking pool (as it was) every room thinks at once, up to 512
//! threads, and 100 rooms of such bots took both cores of a small machine from
//! everything else (issue 23: `/healthz` p99 4.5 → 288 ms). So the thinking happens on
//! `--bot-threads` threads of their own (one fewer than the cores by default), each at
//! the lowest scheduling priority (Linux `SCHED_IDLE`: only CPU time nothing else wants,
//! given up at once to a runtime worker that wakes; see `lower_priority`). Nothing
//! queues: a room asks for a thinker ([`Thinkers::reserve`]) and, when every thinker
//! is busy, gets none at once and answers with the `standard` bot instead (the room
//! logs that once and counts every such decision in
//! `dominion_bot_decisions_downgraded_total`). At most `--bot-threads` decisions think
//! at any moment, each for at most `--bot-think-ms`: that is the whole budget, whatever
//! the number of rooms. The one exception is a rated room — the bot ladder, where a
//! house bot's strength must not depend on the load — whose searching bot waits for a
//! free thinker ([`Thinkers::reserve_waiting`]) and then thinks a fixed number of
//! playouts (`--ladder-search-playouts`); the budget still holds, since it thinks only
//! on a thinker.
//!
//! The engine stays pure: it gets a job to run and knows nothing of threads or clocks.

use crate::metrics::Metrics;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::{Notify, oneshot};

type Job = Box<dyn FnOnce() + Send>;

/// The pool. Its threads end when it is dropped (once their last job is done).
pub struct Thinkers {
    /// Jobs for the threads; None with no threads.
    jobs: Option<mpsc::Sender<Job>>,
    size: usize,
    /// Thinkers taken: reserved, or running a job. Never above `size`.
    busy: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
    /// Told whenever a thinker is freed (for [`Thinkers::reserve_waiting`]).
    freed: Arc<Notify>,
}

/// How much nicer than the runtime's workers a thinker is (Linux only), besides
/// `SCHED_IDLE`.
const NICE: i32 = 10;

impl Thinkers {
    /// Starts `size` threads (0: searching bots always answer as `standard`).
    pub fn new(size: usize, metrics: Arc<Metrics>) -> Arc<Thinkers> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let mut started = 0;
        for i in 0..size {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("bot-thinker-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A job that panics loses its answer (its sender is dropped),
                            // not the thread; the rooms' jobs catch their panics anyway.
                            Ok(job) => {
                                let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                            }
                            Err(_) => return, // the pool is gone
                        }
                    }
                });
            match spawned {
                Ok(_) => started += 1,
                Err(e) => tracing::error!("cannot start bot thinker {i}: {e}"),
            }
        }
        metrics.bot_thinkers.set(started as i64);
        metrics.bot_thinkers_busy.set(0);
        Arc::new(Thinkers {
            jobs: (started > 0).then_some(tx),
            size: started,
            busy: Arc::new(AtomicUsize::new(0)),
            metrics,
            freed: Arc::new(Notify::new()),
        })
    }

    /// The default size: one thread fewer than the machine's cores, at least one, so that
    /// searching bots never hold every core the runtime needs.
    pub fn default_size() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1)
    }

    /// Threads running.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Thinkers busy now.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::SeqCst)
    }

    /// Takes a free thinker, or None at once when every one is busy: nothing ever waits
    /// for a thinker.
    pub fn reserve(&self) -> Option<Reserved<'_>> {
        let jobs = self.jobs.as_ref()?;
        self.busy
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |b| {
                (b < self.size).then_some(b + 1)
            })
            .ok()?;
        self.metrics.bot_thinkers_busy.inc();
        Some(Reserved {
            jobs,
            slot: Slot {
                busy: self.busy.clone(),
                metrics: self.metrics.clone(),
                freed: self.freed.clone(),
            },
        })
    }

    /// Takes a free thinker, waiting for one when every one is busy (a rated room's
    /// searching bot: see the module's doc); None only with no thinkers at all.
    pub async fn reserve_waiting(&self) -> Option<Reserved<'_>> {
        self.jobs.as_ref()?;
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Registered before looking, so a thinker freed in between is not missed.
            freed.as_mut().enable();
            if let Some(reserved) = self.reserve() {
                return Some(reserved);
            }
            freed.await;
        }
    }
}

/// A thinker taken for one job ([`Reserved::run`]); dropped unused, it is free again.
pub struct Reserved<'a> {
    jobs: &'a mpsc::Sender<Job>,
    slot: Slot,
}

impl Reserved<'_> {
    /// Runs `think` on the thinker and gives its result. The thinker is free again
    /// before the result is sent, so whoever reads it may take a thinker at once. The
    /// answer's channel closes without a result only if `think` panicked.
    pub fn run<T: Send + 'static>(
        self,
        think: impl FnOnce() -> T + Send + 'static,
    ) -> oneshot::Receiver<T> {
        let (tx, rx) = oneshot::channel();
        let slot = self.slot;
        let job: Job = Box::new(move || {
            let out = think();
            drop(slot);
            let _ = tx.send(out);
        });
        // The threads live as long as the pool (they catch their jobs' panics), so the
        // job is taken; were it not, it would be dropped with its slot and its sender.
        let _ = self.jobs.send(job);
        rx
    }
}

/// A thinker taken: freed when dropped (after its job ran, or with a job never run).
struct Slot {
    busy: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
    freed: Arc<Notify>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.busy.fetch_sub(1, Ordering::SeqCst);
        self.metrics.bot_thinkers_busy.dec();
        self.freed.notify_waiters();
    }
}

/// Makes the calling thread yield to every other thread of the machine (Linux: both
/// settings are per thread, and lowering one's own priority needs no privilege).
///
/// `SCHED_IDLE` first: the thread runs only on CPU time nothing else wants, and a
/// waking thread of normal priority (a runtime worker with a frame to answer) takes its
/// core at once. A plain nice value is not enough: measured with 100 rooms of five
/// searching bots on two cores, one thinker at nice +10 still moved `/healthz` p99 from
/// 4.5 ms to 27 ms (docs/load.md). Nice +10 as well, for the case the policy cannot be
/// set. If both fail, the thread runs at the normal priority, still one of a few.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread's own id; `param` lives across
        // the call that reads it.
        let (niced, idle) = unsafe {
            let tid = libc::gettid() as libc::id_t;
            let now = libc::getpriority(libc::PRIO_PROCESS, tid);
            // The nice value set is absolute: NICE above the thread's own (inherited from
            // the process), at most 19.
            let niced = libc::setpriority(libc::PRIO_PROCESS, tid, (now + NICE).min(19));
            let param = libc::sched_param { sched_priority: 0 };
            let idle = libc::sched_setscheduler(0, libc::SCHED_IDLE, &param);
            (niced, idle)
        };
        if idle != 0 || niced != 0 {
            tracing::warn!(
                "a bot thinker could not lower its priority fully (SCHED_IDLE: {}, nice: {}): {}",
                idle == 0,
                niced == 0,
                std::io::Error::last_os_error()
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = NICE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn think<T: Send + 'static>(
        pool: &Thinkers,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<oneshot::Receiver<T>> {
        pool.reserve().map(|r| r.run(f))
    }

    #[tokio::test]
    async fn at_most_size_jobs_think_at_once_and_none_waits() {
        let metrics = Arc::new(Metrics::new());
        let pool = Thinkers::new(2, metrics.clone());
        assert_eq!(metrics.bot_thinkers.get(), 2);
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let go_rx = Arc::new(Mutex::new(go_rx));
        let hold = |go: Arc<Mutex<mpsc::Receiver<()>>>| {
            move || {
                let _ = go.lock().unwrap().recv_timeout(Duration::from_secs(10));
                7
            }
        };
        let a = think(&pool, hold(go_rx.clone())).expect("a free thinker");
        let b = think(&pool, hold(go_rx.clone())).expect("another");
        assert_eq!(pool.busy(), 2);
        assert_eq!(metrics.bot_thinkers_busy.get(), 2);
        assert!(pool.reserve().is_none(), "both busy: refused at once");
        go_tx.send(()).unwrap();
        go_tx.send(()).unwrap();
        assert_eq!(a.await.unwrap(), 7);
        assert_eq!(b.await.unwrap(), 7);
        assert_eq!(pool.busy(), 0, "freed before the result is sent");
        assert_eq!(metrics.bot_thinkers_busy.get(), 0);
        // A reservation dropped unused frees its thinker too.
        drop(pool.reserve().expect("free"));
        assert_eq!(pool.busy(), 0);
        assert_eq!(think(&pool, || 8).expect("free").await.unwrap(), 8);
    }

    #[tokio::test]
    async fn a_rated_rooms_reservation_waits_for_a_freed_thinker() {
        let metrics = Arc::new(Metrics::new());
        let pool = Arc::new(Thinkers::new(1, metrics));
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let busy = think(&pool, move || {
            let _ = go_rx.recv_timeout(Duration::from_secs(10));
            1
        })
        .expect("free");
        let waiter = {
            let pool = pool.clone();
            tokio::spawn(async move {
                let reserved = pool.reserve_waiting().await.expect("a thinker, in time");
                reserved.run(|| 2).await.unwrap()
            })
        };
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "every thinker is busy: it waits");
        go_tx.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), 1);
        assert_eq!(waiter.await.unwrap(), 2);
        let none = Thinkers::new(0, Arc::new(Metrics::new()));
        assert!(
            none.reserve_waiting().await.is_none(),
            "no thinkers: no wait"
        );
    }

    #[tokio::test]
    async fn no_threads_no_thinking() {
        let metrics = Arc::new(Metrics::new());
        let pool = Thinkers::new(0, metrics.clone());
        assert!(pool.reserve().is_none());
        assert_eq!((pool.size(), metrics.bot_thinkers.get()), (0, 0));
    }

    #[tokio::test]
    async fn a_panicking_job_frees_its_thinker_and_closes_its_answer() {
        let metrics = Arc::new(Metrics::new());
        let pool = Thinkers::new(1, metrics);
        let rx = think(&pool, || -> u8 { panic!("boom") }).expect("free");
        assert!(rx.await.is_err(), "the answer's sender went with the job");
        assert_eq!(pool.busy(), 0, "the slot was freed by unwinding");
        let again = think(&pool, || 3).expect("free").await;
        assert_eq!(again.unwrap(), 3, "the thread lives on");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn thinkers_yield_to_every_other_thread() {
        fn mine() -> (i32, i32) {
            // SAFETY: reads the calling thread's own priority and policy.
            unsafe {
                let nice = libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t);
                (nice, libc::sched_getscheduler(0))
            }
        }
        let metrics = Arc::new(Metrics::new());
        let pool = Thinkers::new(1, metrics);
        let (nice, policy) = think(&pool, mine).expect("free").await.unwrap();
        assert_eq!(policy, libc::SCHED_IDLE);
        assert_eq!(nice, (mine().0 + NICE).min(19));
        assert_ne!(mine().1, libc::SCHED_IDLE, "only the thinkers");
    }
}
