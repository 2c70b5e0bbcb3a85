//! Large table allocations backed by huge pages where the system allows it.
//!
//! A 5-man table is hundreds of megabytes touched at random: with 4 KiB pages nearly every
//! access to a far slot also misses the TLB. On Linux, transparent huge pages are asked for
//! with `madvise(MADV_HUGEPAGE)` before the memory is first touched; elsewhere, or if the
//! kernel declines, the memory is ordinary.

use rayon::prelude::*;

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
