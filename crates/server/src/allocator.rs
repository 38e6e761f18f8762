//! How the C allocator gives freed memory back to the system.
//!
//! Rust's default allocator is the C library's `malloc`, glibc's on Linux. By default glibc keeps
//! freed memory for reuse: it gives threads arenas of their own (up to eight per core), and once a
//! large block is freed it raises the size above which a block is mapped on its own, and the free
//! space a heap keeps before it shrinks, up to 32 MB and 64 MB. After a burst of requests a server
//! then holds on to what they used: 75 MB after the API benchmark's load, 51 MB of it the heap's
//! (README, "API speed"). Fixed thresholds and two arenas give it back as it is freed: 47-50 MB.
//!
//! Written here rather than taken from a library: the other allocators tried (mimalloc) kept more
//! memory, not less, and glibc's own three settings are a call each.

/// Blocks of this size or more get their own mapping, unmapped as soon as they are freed (glibc's
/// starting value is 128 KB): a thread list's JSON, a design file, an export.
const MMAP_THRESHOLD: i32 = 256 * 1024;
/// The free space at the top of a heap beyond which the heap shrinks (glibc starts at 128 KB).
const TRIM_THRESHOLD: i32 = 1024 * 1024;
/// Arenas that threads share; the server's threads are a few runtime workers, the database
/// connections' own threads and a blocking pool.
const ARENAS: i32 = 2;

/// Sets the thresholds and arena count above; `run` calls it first, before other threads
/// start. Answers whether glibc took all three (it is not glibc elsewhere, and nothing is set).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn give_freed_memory_back() -> bool {
    [
        (libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (libc::M_ARENA_MAX, ARENAS),
    ]
    .into_iter()
    // SAFETY: `mallopt` changes only the allocator's settings, under its own lock, and these
    // values are in the ranges glibc documents (mallopt(3)); it answers 1 when it took one.
    .all(|(setting, value)| unsafe { libc::mallopt(setting, value) } == 1)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_freed_memory_back() -> bool {
    false
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    #[test]
    fn glibc_takes_the_settings() {
        assert!(super::give_freed_memory_back());
    }
}
