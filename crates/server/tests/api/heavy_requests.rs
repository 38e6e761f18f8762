//! No request stalls the server (docs/behaviour.md, "The API's order of checks"). Large pastes and
//! CSV files are read in linear time, only up to their row limit, off the async workers and a
//! bounded number at once; meanwhile `/healthz` answers at once.
//!
//! These tests run the server on two worker threads, as on the 2-core machines it is deployed
//! to, and time `/healthz` from a plain thread outside the server's runtime, so the timing is
//! the server's alone.

use std::{
    io::{Read as _, Write as _},
    net::TcpStream,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::helpers::{Backend, TestApp, spawn_app, spawn_app_with};

/// How long `/healthz` may take while heavy requests run.
const HEALTHZ_BUDGET: Duration = Duration::from_millis(100);

/// The faster of two `GET /healthz` in a row, so that one hiccup of a busy test machine's
/// scheduler does not count (a stalled server answers neither); `None` when neither answered
/// within a second.
fn time_healthz(address: &str) -> Option<Duration> {
    let (first, second) = (time_one_healthz(address), time_one_healthz(address));
    first.into_iter().chain(second).min()
}

/// One `GET /healthz` over a new connection, timed; `None` when no answer came within a second.
fn time_one_healthz(address: &str) -> Option<Duration> {
    let host = address.trim_start_matches("http://");
    let started = Instant::now();
    let mut stream = TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(1))).ok()?;
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: bobbin\r\nConnection: close\r\n\r\n").ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.starts_with("HTTP/1.1 200").then(|| started.elapsed())
}

/// Times `/healthz` every 20 ms from a plain thread while `heavy` run (at least ten times, at
/// most for 20 seconds), and panics at the first answer slower than [`HEALTHZ_BUDGET`]. Then
/// answers what the heavy requests answered.
async fn healthz_stays_fast_while(
    app: &TestApp,
    heavy: Vec<JoinHandle<(StatusCode, Value)>>,
) -> Vec<(StatusCode, Value)> {
    let finished = Arc::new(AtomicBool::new(false));
    let answers = tokio::spawn({
        let finished = Arc::clone(&finished);
        async move {
            let mut answers = Vec::new();
            for request in heavy {
                answers.push(request.await);
            }
            finished.store(true, Ordering::Release);
            answers
        }
    });
    let address = app.address.clone();
    let timings = tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut timings = Vec::new();
        while (timings.len() < 10 || !finished.load(Ordering::Acquire)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            let timing = time_healthz(&address);
            timings.push(timing);
            if timing.is_none_or(|timing| timing >= HEALTHZ_BUDGET) {
                break;
            }
        }
        timings
    })
    .await
    .unwrap();
    let slowest = timings.iter().max_by_key(|timing| timing.unwrap_or(Duration::MAX)).copied().flatten();
    assert!(
        slowest.is_some_and(|slowest| slowest < HEALTHZ_BUDGET),
        "/healthz took {slowest:?} (None: no answer within a second) while heavy requests ran; all: {timings:?}"
    );
    let answers = tokio::time::timeout(Duration::from_mins(1), answers).await.expect("bounded").unwrap();
    answers.into_iter().map(|answer| answer.expect("an answer")).collect()
}

/// The largest paste allowed: 2,000 different colours, one a line.
fn largest_paste() -> String {
    (0..2_000_u32).map(|n| format!("#{:06X}", n * 8_387 % 0x100_0000)).collect::<Vec<_>>().join("\n")
}

/// Starts `count` copies of a request at once.
fn start(
    app: &TestApp,
    count: usize,
    request: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
) -> Vec<JoinHandle<(StatusCode, Value)>> {
    (0..count)
        .map(|_| {
            let request = request(&app.client).timeout(Duration::from_mins(1));
            tokio::spawn(async move {
                let response = request.send().await.expect("an answer");
                let status = response.status();
                (status, response.json().await.unwrap_or(Value::Null))
            })
        })
        .collect()
}

/// The paste: 130,000 one-character lines, 254 KB, sent anonymously three times at once
/// (the issue sent it twice). Two such pastes used to hold both workers for a long time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_at_once_while_two_pastes_of_130_000_lines_are_converted() {
    let app = spawn_app(Backend::Sqlite).await;
    let input = "x\n".repeat(130_000);
    assert_eq!(input.len() / 1024, 253, "the issue's 254 KB");
    let url = app.url("/api/v2/convert/bulk");
    let body = json!({ "to": "madeira-polyneon", "input": input });

    let heavy = start(&app, 3, |client| client.post(&url).json(&body));
    let answers = healthz_stays_fast_while(&app, heavy).await;

    for (status, body) in answers {
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("too_many_rows"))
        );
    }
}

/// The import: 100,000 rows, previewed twice at once. It used to hold both workers for a
/// long time.
#[rstest]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_at_once_while_two_imports_of_100_000_rows_are_read(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Big files").await;
    let csv = format!("line,code,quantity\n{}", "a,1,1\n".repeat(100_000));
    let url = app.url(&format!("/api/v2/teams/{team}/threads/import"));
    let body = json!({ "csv": csv });

    let heavy = start(&app, 2, |client| client.post(&url).bearer_auth(&owner.token).json(&body));
    let answers = healthz_stays_fast_while(&app, heavy).await;

    for (status, body) in answers {
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("import_unreadable"))
        );
        assert!(body["message"].as_str().unwrap().contains("more than 10000 rows"), "{body}");
    }
}

/// The most a paste may hold: 2,000 colours, each converted with alternatives. Work that takes
/// real time even within the limits runs beside `/healthz`, not in front of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_at_once_while_the_largest_allowed_pastes_are_converted() {
    let app = spawn_app(Backend::Sqlite).await;
    let input = largest_paste();
    let url = app.url("/api/v2/convert/bulk");
    let body = json!({ "to": "madeira-polyneon", "input": input, "alternatives": 5 });

    let heavy = start(&app, 4, |client| client.post(&url).json(&body));
    let answers = healthz_stays_fast_while(&app, heavy).await;

    for (status, body) in answers {
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["rows"].as_array().map(Vec::len), Some(2_000));
    }
}

/// Past the running jobs and the few that may wait, a heavy request is refused at once with
/// 503 and `Retry-After`, instead of queueing without bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_requests_beyond_the_queue_answer_503_server_busy() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.heavy_work_concurrency = Some(1)).await;
    let input = largest_paste();
    let body = json!({ "to": "madeira-polyneon", "input": input, "alternatives": 5 });
    let url = app.url("/api/v2/convert/bulk");

    // One running and four waiting at most: of twenty at once, most are refused.
    let requests: Vec<_> = (0..20)
        .map(|_| {
            let request = app.client.post(&url).json(&body).timeout(Duration::from_mins(1));
            tokio::spawn(async move {
                let response = request.send().await.expect("an answer");
                let retry_after =
                    response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
                (response.status(), retry_after, response.json::<Value>().await.unwrap())
            })
        })
        .collect();
    let mut served = 0;
    let mut refused = 0;
    for request in requests {
        match request.await.unwrap() {
            (StatusCode::OK, _, _) => served += 1,
            (StatusCode::SERVICE_UNAVAILABLE, retry_after, body) => {
                assert_eq!(body["code"], "server_busy", "{body}");
                assert_eq!(retry_after.as_deref(), Some("1"));
                refused += 1;
            }
            other => panic!("unexpected answer {other:?}"),
        }
    }
    assert!(served >= 1 && refused >= 1, "served {served}, refused {refused}");
}
