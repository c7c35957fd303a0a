//! What the engine's many-game tests share.

/// Plays seeds `0..seeds` on every core: `work` gets one thread's seeds (every
/// `threads`-th, from its own start) and returns what they add up to; the results come
/// back one per thread, to be merged by the caller. A seed's game is the same on any
/// thread, so a test checking something over all games proves the same as one loop
/// would, in a fraction of the time (each such test is alone in its binary, so one
/// thread would leave the other cores idle). A game's panic is re-raised as it was.
pub fn on_every_core<T: Send>(
    seeds: u64,
    work: impl Fn(std::iter::StepBy<std::ops::Range<u64>>) -> T + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let work = &work;
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|k| s.spawn(move || work((k as u64..seeds).step_by(threads))))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
