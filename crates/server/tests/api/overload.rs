//! Overload: many readers of one team's list after a change read the entries from the database once
//! between them, and past the limit of requests in progress the API answers 503 `server_busy` at
//! once instead of queueing without bound. The figures at full load come from
//! `scripts/load-inventory.mjs` (`make test-load`).

use std::{
    fmt::Write as _,
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::json;
use tokio::{io::AsyncWriteExt as _, net::TcpStream};

use crate::{
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    team_helpers::Person,
};

/// A team of `entries` custom threads (one CSV import); its threads path.
async fn team_with_threads(app: &TestApp, owner: &Person, entries: usize) -> String {
    let team = app.team(owner, "Busy shop").await;
    let threads = format!("/teams/{team}/threads");
    let mut csv = String::from("name,colour,quantity\n");
    for n in 0..entries {
        writeln!(csv, "Custom {n},#{:06X},1", n * 37 % 0x0100_0000).unwrap();
    }
    let imported =
        app.api_post(owner, &format!("{threads}/import"), json!({ "csv": csv, "commit": true })).await;
    assert_eq!(imported.assert_status(StatusCode::OK)["added"], entries, "{imported:?}");
    threads
}

/// Every list request reads the team's row first; when a change has raised the team's revision
/// since the server's copy of its entries was read, the copy must be read again. Twenty
/// requests that find it out of date at once read it once: one reads, the others wait for that
/// read and use it. (Before, each of them read all the entries itself: under 1,000 readers and
/// a change every 0.1 s that exhausted the connection pool and swelled the server's memory.)
#[rstest]
#[tokio::test]
async fn concurrent_lists_after_a_change_read_the_entries_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let threads = team_with_threads(&app, &owner, 2_000).await;
    let first = app.api_get(&owner, &format!("{threads}?per_page=1")).await;
    let id = first.assert_status(StatusCode::OK)["threads"][0]["id"].as_str().unwrap().to_owned();

    for round in 0..3 {
        app.api_post(&owner, &format!("{threads}/{id}/adjust"), json!({ "delta": 1 }))
            .await
            .assert_status(StatusCode::OK);
        let reads_before = app.threads.reads();
        // Sorted by quantity, from the copy: the entry just tapped comes first, with its new
        // quantity, in every answer.
        let most = app.url(&format!("/api/v2{threads}?sort=quantity&order=desc&per_page=1"));
        let mut lists = tokio::task::JoinSet::new();
        for _ in 0..20 {
            let request = app.client.get(&most).bearer_auth(&owner.token);
            lists.spawn(
                async move { request.send().await.unwrap().json::<serde_json::Value>().await.unwrap() },
            );
        }
        while let Some(page) = lists.join_next().await {
            let page = page.unwrap();
            assert_eq!(page["total"], 2_000, "{page}");
            assert_eq!(page["threads"][0]["id"], id.as_str(), "{page}");
            assert_eq!(page["threads"][0]["quantity"], f64::from(round) + 2.0, "{page}");
        }
        let reads = app.threads.reads() - reads_before;
        assert_eq!(reads, 1, "round {round}: the entries were read {reads} times for 20 lists");
    }
}

/// A request that is let in; `None` when it is answered 503 `server_busy`, which must come with
/// `Retry-After` and the API's JSON error shape.
async fn let_in(app: &TestApp, owner: &Person, path: &str) -> Option<StatusCode> {
    let answer = app.api_post(owner, path, json!({})).await;
    if answer.status != StatusCode::SERVICE_UNAVAILABLE {
        return Some(answer.status);
    }
    answer.assert_api_error(StatusCode::SERVICE_UNAVAILABLE, "server_busy");
    let retry_after = answer.headers.get("retry-after").expect("a 503 says when to come back");
    assert!(
        retry_after.to_str().unwrap().parse::<u32>().is_ok_and(|seconds| seconds >= 1),
        "{retry_after:?}"
    );
    None
}

/// Sends `path` until `want` says the answer is the one waited for, for at most five seconds.
async fn until(app: &TestApp, owner: &Person, path: &str, want: impl Fn(Option<StatusCode>) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if want(let_in(app, owner, path).await) {
            return;
        }
        assert!(Instant::now() < deadline, "no such answer to {path} within 5 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// With one change allowed in progress at a time, a change sent while another is still in
/// progress (its body still arriving) is answered at once with 503 `server_busy` and
/// `Retry-After`; reads have their own share and are still served; once the first change is
/// over, changes are let in again.
#[tokio::test]
async fn changes_past_the_limit_are_answered_503_with_retry_after() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.max_requests_in_flight = std::num::NonZeroU32::new(1).unwrap();
    })
    .await;
    let owner = app.person("owner").await;
    let threads = format!("/teams/{}/threads", app.team(&owner, "Busy shop").await);
    // An empty entry is refused (422) when it is let in at all.
    assert_eq!(let_in(&app, &owner, &threads).await, Some(StatusCode::UNPROCESSABLE_ENTITY));

    let mut slow = TcpStream::connect(app.address.trim_start_matches("http://")).await.unwrap();
    let head = format!(
        "POST /api/v2{threads} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"quantity\"",
        owner.token
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    until(&app, &owner, &threads, |answer| answer.is_none()).await;
    let list = app.api_get(&owner, &threads).await;
    list.assert_status(StatusCode::OK);

    drop(slow);
    until(&app, &owner, &threads, |answer| answer == Some(StatusCode::UNPROCESSABLE_ENTITY)).await;
}
