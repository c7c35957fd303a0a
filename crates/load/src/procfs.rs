//! What the kernel says about a process (its CPU time and memory, from `/proc`), the
//! machine's load average, and this process's open-file limit.
//!
//! CPU time is read as `utime + stime` from `/proc/PID/stat`, in clock ticks (usually
//! 10 ms each): over a run of seconds with thousands of decisions that resolution is
//! plenty. Memory is `VmRSS` (resident now) and `VmHWM` (the peak) from
//! `/proc/PID/status`.

use serde::Serialize;
use std::time::Duration;

/// One reading of a process.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sample {
    /// User plus system CPU time used so far.
    #[serde(skip)]
    pub cpu: Duration,
    pub rss_kb: u64,
    pub peak_rss_kb: u64,
}

impl Sample {
    /// Several processes as one: CPU time and memory added up. The peaks are each
    /// process's own, so their sum bounds the processes' peak together from above.
    pub fn total(samples: &[Sample]) -> Sample {
        samples.iter().fold(
            Sample {
                cpu: Duration::ZERO,
                rss_kb: 0,
                peak_rss_kb: 0,
            },
            |sum, s| Sample {
                cpu: sum.cpu + s.cpu,
                rss_kb: sum.rss_kb + s.rss_kb,
                peak_rss_kb: sum.peak_rss_kb + s.peak_rss_kb,
            },
        )
    }
}

/// Reads `/proc/PID/stat` and `/proc/PID/status`; `None` for this process.
pub fn sample(pid: Option<u32>) -> Result<Sample, String> {
    let dir = match pid {
        Some(pid) => format!("/proc/{pid}"),
        None => "/proc/self".to_string(),
    };
    let stat = std::fs::read_to_string(format!("{dir}/stat"))
        .map_err(|e| format!("cannot read {dir}/stat: {e}"))?;
    let status = std::fs::read_to_string(format!("{dir}/status"))
        .map_err(|e| format!("cannot read {dir}/status: {e}"))?;
    let ticks = cpu_ticks(&stat).ok_or_else(|| format!("cannot parse {dir}/stat"))?;
    let per_second = clock_ticks_per_second();
    Ok(Sample {
        cpu: Duration::from_secs_f64(ticks as f64 / per_second as f64),
        rss_kb: status_kb(&status, "VmRSS:").unwrap_or(0),
        peak_rss_kb: status_kb(&status, "VmHWM:").unwrap_or(0),
    })
}

/// `utime + stime` (fields 14 and 15) of a `/proc/PID/stat` line. The command name
/// (field 2) is in parentheses and may hold spaces, so fields are counted after the
/// last `)`.
pub fn cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): utime is field 14, stime field 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// A `Key:   1234 kB` line of `/proc/PID/status`.
pub fn status_kb(status: &str, key: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf only reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

/// The 1, 5 and 15 minute load averages: the machine is shared, so every figure is
/// printed with the load it was measured under.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|s| s.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Makes room for `needed` open files in this process: raises the soft limit, and the
/// hard one too when the process may (root). Returns the limit now in force.
pub fn ensure_open_files(needed: u64) -> Result<u64, String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(format!(
            "cannot read the open-file limit: {}",
            std::io::Error::last_os_error()
        ));
    }
    if limit.rlim_cur >= needed {
        return Ok(limit.rlim_cur);
    }
    let wanted = libc::rlimit {
        rlim_cur: needed,
        rlim_max: limit.rlim_max.max(needed),
    };
    // SAFETY: setrlimit reads the struct we own.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &wanted) } == 0 {
        return Ok(needed);
    }
    let raise_err = std::io::Error::last_os_error();
    if limit.rlim_max >= needed {
        return Err(format!(
            "cannot raise the open-file limit to {needed}: {raise_err}"
        ));
    }
    Err(format!(
        "{needed} open files are needed but the hard limit is {} and cannot be raised ({raise_err}); \
         raising it takes CAP_SYS_RESOURCE (ulimit -Hn as root outside a container) — or open fewer connections",
        limit.rlim_max
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        let stat = "4242 (dominion server) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 3 0 100 0 0";
        assert_eq!(cpu_ticks(stat), Some(325));
        assert_eq!(cpu_ticks("garbage"), None);
    }

    #[test]
    fn status_lines_give_kilobytes() {
        let status = "Name:\tdominion-server\nVmHWM:\t   20480 kB\nVmRSS:\t   16384 kB\n";
        assert_eq!(status_kb(status, "VmRSS:"), Some(16384));
        assert_eq!(status_kb(status, "VmHWM:"), Some(20480));
        assert_eq!(status_kb(status, "VmSwap:"), None);
    }

    #[test]
    fn samples_add_up() {
        let a = Sample {
            cpu: Duration::from_millis(1500),
            rss_kb: 100,
            peak_rss_kb: 150,
        };
        let b = Sample {
            cpu: Duration::from_millis(250),
            rss_kb: 20,
            peak_rss_kb: 30,
        };
        assert_eq!(
            Sample::total(&[a, b]),
            Sample {
                cpu: Duration::from_millis(1750),
                rss_kb: 120,
                peak_rss_kb: 180,
            }
        );
        assert_eq!(Sample::total(&[a]), a);
    }

    #[test]
    fn this_process_can_be_read() {
        let s = sample(None).expect("/proc/self");
        assert!(s.rss_kb > 0);
        assert!(s.peak_rss_kb >= s.rss_kb);
    }
}
