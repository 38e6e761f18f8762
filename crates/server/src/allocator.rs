//! How the C allocator gives freed memory back to the system.
//!
//! Rust's default allocator is the C library's `malloc`, glibc's on Linux. By default glibc keeps
//! freed memory for reuse: it gives threads arenas of their own (up to eight per core), and once a
//! large block is freed it raises the size above which a block is mapped on its own, and the free
//! space a heap keeps before it shrinks, up to 32 MB and 64 MB. After a burst of requests a server
//! then holds on to what they used: 75 MB after the API benchmark's load, 51 MB of it the heap's
//! (README, "API speed"). Fixed thresholds give it back as it is freed: 47-50 MB. A fixed count
//! of arenas, one for each of the runtime's workers and one for the main thread, keeps the
//! others' threads (the database connections', the blocking pool) from adding more.
//!
//! Written here rather than taken from a library: the other allocators tried (mimalloc and
//! jemalloc, last on 2026-11-28) answered `GET /api/v2/teams` no faster than glibc with these
//! settings and kept more memory, and glibc's own three settings are a call each.

/// Blocks of this size or more get their own mapping, unmapped as soon as they are freed (glibc's
/// starting value is 128 KB): a thread list's JSON, a design file, an export.
const MMAP_THRESHOLD: i32 = 256 * 1024;
/// The free space at the top of a heap beyond which the heap shrinks (glibc starts at 128 KB).
const TRIM_THRESHOLD: i32 = 1024 * 1024;
/// Arenas that threads share: one for each runtime worker, which serve the requests, and the
/// main thread's. glibc gives each thread that first allocates an arena of its own until there
/// are this many, then shares them out in turn; [`runtime`] waits until each worker has
/// allocated, and the server's other threads (the log's, the database connections', a blocking
/// pool) start after it, so each worker has its own. With two in all, the two workers of a 2-core machine often fell into one and waited for
/// each other's `malloc` and `free` (a fourteenth of the CPU of `GET /api/v2/teams` under load
/// went to waking and waiting at that lock), and the server answered as few as half the requests
/// in those runs (README, "API speed"). Each arena keeps at most [`TRIM_THRESHOLD`] free at its
/// top.
fn arenas() -> i32 {
    i32::try_from(runtime_workers()).map_or(i32::MAX, |workers| workers.saturating_add(1))
}

/// The async runtime, each of whose workers has allocated, and so taken an arena of its own
/// ([`arenas`]), by the time it is answered: start the server's other threads after it (the
/// log's writer, the database connections'). A thread allocates as it starts; the workers start
/// as the runtime is built, but the main thread went on at once to open the database, and the
/// log's thread had started before: a server started now and then with its two workers in one
/// arena, and took half as much CPU again for each request for as long as it ran (4.4 waits at
/// the arena's lock a `GET /teams`; README, "API speed").
///
/// # Errors
///
/// tokio's, when it cannot start the runtime's threads.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    let (started, allocated) = std::sync::mpsc::channel();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(move || {
            // A thread's first allocation gives it its arena: std's start of a thread allocates
            // already, and this makes sure of it (`black_box`: not optimised away).
            drop(std::hint::black_box(Box::new(0_u64)));
            // Later threads (the blocking pool's) find no one listening.
            let _ = started.send(());
        })
        .build()?;
    for _ in 0..runtime_workers() {
        // A worker that is slow to start is not waited for long: start-up must stay fast.
        if allocated.recv_timeout(std::time::Duration::from_millis(100)).is_err() {
            break;
        }
    }
    Ok(runtime)
}

/// The runtime's worker threads, counted as tokio counts them when it is not told: the
/// `TOKIO_WORKER_THREADS` environment variable, else one for each core.
fn runtime_workers() -> usize {
    std::env::var("TOKIO_WORKER_THREADS")
        .ok()
        .and_then(|workers| workers.parse().ok())
        .filter(|&workers| workers > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}

/// Sets the thresholds and arena count above; `run` calls it first, before other threads
/// start. Answers whether glibc took all three (it is not glibc elsewhere, and nothing is set).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn give_freed_memory_back() -> bool {
    [
        (libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (libc::M_ARENA_MAX, arenas()),
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

/// Gives back what starting up used and freed. Building the router builds the OpenAPI
/// description of every route (utoipa's `routes!`), about 3 MB at its peak, and the migrations
/// read the schema; nearly all of it is freed before the first request, but in blocks among those
/// still in use, which the trim threshold above never reaches: the heap kept 3.8 MB where 1.3 MB
/// were in use. `malloc_trim` hands every free page back, wherever it is. Answers whether it did.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn give_start_up_memory_back() -> bool {
    // SAFETY: `malloc_trim` only releases free memory, under the allocator's own locks.
    unsafe { libc::malloc_trim(0) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_start_up_memory_back() -> bool {
    false
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    #[test]
    fn glibc_takes_the_settings() {
        assert!(super::give_freed_memory_back());
    }

    /// The process's anonymous resident memory (heap and stacks), in KB.
    fn anonymous_kb() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").expect("Linux has /proc/self/status");
        let line = status.lines().find(|line| line.starts_with("RssAnon:")).expect("a RssAnon line");
        line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).expect("RssAnon in kB")
    }

    /// Set in the copy of the test binary that runs the test below alone.
    const ALONE: &str = "BOBBIN_TEST_ALLOCATOR_ALONE";
    const NAME: &str = "allocator::tests::memory_freed_among_blocks_in_use_goes_back";

    #[test]
    fn memory_freed_among_blocks_in_use_goes_back() {
        // In a process of its own: in a heap other tests have used, the blocks below could land
        // in old gaps instead of one after another.
        if std::env::var_os(ALONE).is_none() {
            let exe = std::env::current_exe().expect("the test binary's path");
            let run = std::process::Command::new(exe)
                .args(["--exact", NAME, "--test-threads=1"])
                .env(ALONE, "1")
                .output()
                .expect("run the test binary again");
            let output = String::from_utf8_lossy(&run.stdout);
            assert!(run.status.success() && output.contains("1 passed"), "{output}");
            return;
        }
        super::give_freed_memory_back();
        // 32 MB in blocks below the mapping threshold, each followed by a small one that stays,
        // as start-up leaves them: what is freed is never at the top of the heap.
        let blocks: Vec<(Vec<u8>, Box<u64>)> =
            (0..2048).map(|i| (vec![1_u8; 16 * 1024], Box::new(i))).collect();
        let (freed, kept): (Vec<_>, Vec<_>) = blocks.into_iter().unzip();
        drop(freed);
        let before = anonymous_kb();
        assert!(super::give_start_up_memory_back(), "there was free memory to hand back");
        let after = anonymous_kb();
        assert!(before.saturating_sub(after) > 16 * 1024, "kept {before} kB, then {after} kB");
        assert_eq!(kept.len(), 2048);
    }
}
