//! Large table allocations backed by huge pages where the system allows it, and the default
//! memory budget of the builds.
//!
//! A 5-man table is hundreds of megabytes touched at random: with 4 KiB pages nearly every
//! access to a far slot also misses the TLB. On Linux, transparent huge pages are asked for
//! with `madvise(MADV_HUGEPAGE)` before the memory is first touched; elsewhere, or if the
//! kernel declines, the memory is ordinary.

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

/// A vector of `len` values made by `make`, filled in parallel, in memory advised to use
/// huge pages.
pub fn filled<T: Send>(len: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(v.as_mut_ptr() as *mut u8, len * std::mem::size_of::<T>());
    (0..len)
        .into_par_iter()
        .map(|_| make())
        .collect_into_vec(&mut v);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    let begin = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + bytes) / PAGE * PAGE;
    if end > begin {
        // SAFETY: the range lies inside an allocation this process owns (the vector's
        // reserved capacity); madvise only changes how the kernel backs it, not its contents.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _bytes: usize) {}

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
