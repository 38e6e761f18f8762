//! Requests whose work is CPU, not waiting: reading a pasted list or a CSV file of thousands of
//! rows and converting them. Such work runs on tokio's blocking threads, so the async workers
//! keep serving every other request (`/healthz` included), and the router's timeout can answer
//! while it runs: work that never yields holds its worker until it ends, and the timeout never
//! fires (docs/behaviour.md, "The API's order of checks").
//!
//! At most `concurrency` such jobs run at once (by default one per CPU core: more would only
//! share the same cores). A few more wait their turn briefly; past that a request is refused at
//! once with 503 `server_busy` and `Retry-After`, rather than queueing without bound, each waiter
//! holding its request body. The same shape as the password hashing's limit
//! (`auth::password::Hashing`), for the API's error type.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::AppError;

/// Requests that may wait for each running job.
const QUEUE_PER_PERMIT: usize = 4;
/// The longest a request waits for its turn.
const QUEUE_WAIT: Duration = Duration::from_secs(5);

/// The turns for CPU-heavy work; one per server, shared by its handlers.
#[derive(Debug)]
pub struct HeavyWork {
    running: Arc<Semaphore>,
    queued: AtomicUsize,
    max_queued: usize,
}

impl HeavyWork {
    /// At most `concurrency` jobs at once (at least one).
    pub fn new(concurrency: usize) -> Self {
        let concurrency = concurrency.max(1);
        Self {
            running: Arc::new(Semaphore::new(concurrency)),
            queued: AtomicUsize::new(0),
            max_queued: concurrency.saturating_mul(QUEUE_PER_PERMIT),
        }
    }

    /// Runs `work` on a blocking thread when its turn comes.
    ///
    /// The turn goes with the work, not with the request: when the request is given up (its
    /// timeout, or the client leaving), work already started still runs to its end, and the
    /// next request waits for it. Each job is bounded (the inputs' size and row limits), so
    /// that end comes soon.
    ///
    /// # Errors
    ///
    /// [`AppError::Busy`] when no turn comes in time; [`AppError::Internal`] when `work`
    /// panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let turn = self.turn().await.ok_or_else(|| AppError::Busy)?;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            work()
        })
        .await
        .map_err(|error| AppError::Internal(anyhow::anyhow!("heavy request work failed: {error}")))
    }

    /// A turn at once, or after a short wait in a bounded queue; `None` when neither.
    async fn turn(&self) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = Arc::clone(&self.running).try_acquire_owned() {
            return Some(permit);
        }
        if self.queued.fetch_add(1, Ordering::AcqRel) >= self.max_queued {
            self.queued.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        let waited = tokio::time::timeout(QUEUE_WAIT, Arc::clone(&self.running).acquire_owned()).await;
        self.queued.fetch_sub(1, Ordering::AcqRel);
        // Timed out (or the semaphore was closed, which it never is).
        waited.ok()?.ok()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    #[tokio::test]
    async fn work_runs_off_the_async_thread_and_answers() {
        let work = HeavyWork::new(1);
        let caller = std::thread::current().id();
        let ran_on = work.run(move || std::thread::current().id()).await.unwrap();
        assert_ne!(ran_on, caller);
    }

    #[tokio::test]
    async fn past_the_running_and_the_queued_jobs_a_request_is_refused_at_once() {
        let work = Arc::new(HeavyWork::new(1));
        // One job that runs until told to stop, and the queue filled behind it.
        let (stop, stopped) = mpsc::channel::<()>();
        let running = tokio::spawn({
            let work = Arc::clone(&work);
            async move { work.run(move || stopped.recv()).await }
        });
        while work.running.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        let queued: Vec<_> = (0..QUEUE_PER_PERMIT)
            .map(|_| {
                let work = Arc::clone(&work);
                tokio::spawn(async move { work.run(|| ()).await })
            })
            .collect();
        while work.queued.load(Ordering::Acquire) < QUEUE_PER_PERMIT {
            tokio::task::yield_now().await;
        }

        let refused = work.run(|| ()).await;

        assert!(matches!(refused, Err(AppError::Busy)), "{refused:?}");
        stop.send(()).unwrap();
        assert!(running.await.unwrap().is_ok());
        for waiter in queued {
            assert!(waiter.await.unwrap().is_ok(), "a queued job runs once the turn is free");
        }
    }
}
