//! Large table allocations, filled in parallel, and the default memory budget of the builds.
//!
//! The memory is ordinary: no transparent huge pages are asked for. A 5-man table is hundreds
//! of megabytes touched at random, which huge pages would spare TLB misses, but on a virtual
//! machine the first touch of a fresh huge page can cost far more than that saves: on the
//! project's machine a build's user time was the same with and without them, while the
//! faults of fresh huge pages took seconds of system time (KRP.KR's chain 0.85× the wall time
//! without them, KBN.KN 0.84×; docs/SPEED.md).

use rayon::prelude::*;
use std::sync::OnceLock;

/// A megabyte, the unit of every memory setting and message: 10^6 bytes.
pub const MB: u64 = 1_000_000;

/// The budget where the machine's available memory cannot be read: 4 GB.
const FALLBACK_BUDGET: u64 = 4_000 * MB;

/// The default memory budget of the builds: 90 % of the memory the system had available
/// (`MemAvailable` of /proc/meminfo) when first asked, so that the budget does not shrink as
/// the tables fill memory; 4 GB where that cannot be read.
pub fn default_budget() -> u64 {
    static BUDGET: OnceLock<u64> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        let available = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| mem_available(&text));
        match available {
            Some(bytes) => {
                let budget = bytes / 10 * 9;
                log::info!("the table memory budget is {} MB", budget / MB);
                budget
            }
            None => {
                log::info!(
                    "the available memory cannot be read: the table memory budget is {} MB",
                    FALLBACK_BUDGET / MB
                );
                FALLBACK_BUDGET
            }
        }
    })
}

/// The `MemAvailable` of a /proc/meminfo text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let kb = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    kb.checked_mul(1024)
}

/// A vector of `len` values made by `make`, filled in parallel.
pub fn filled<T: Send>(len: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    (0..len).into_par_iter().map(|_| make()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24684084 kB\nMemFree:        23410168 kB\n\
                    MemAvailable:   24283012 kB\nBuffers:          123 kB\n";
        assert_eq!(mem_available(text), Some(24_283_012 * 1024));
        assert_eq!(mem_available("MemTotal: 100 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
        assert!(default_budget() > 0);
    }
}
