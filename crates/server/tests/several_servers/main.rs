//! Several Bobbin servers on one PostgreSQL database, as behind a load balancer (README.md,
//! "Several servers"). The servers are real `bobbin serve` processes of the release binary, so that
//! one can be killed with SIGKILL: no handler runs, its connections and transactions are cut where
//! they are. Then, through the server that survives: every write that was acknowledged is there,
//! the sessions the dead one issued go on working, rate limits counted on both servers were one
//! limit, and each server's copy of a thread list followed writes made on the other. And a
//! session ended through one server is refused at once by the other, which had just accepted it,
//! on PostgreSQL and on one SQLite file that two servers share (where the sign-in checks read
//! through connections of their own, on the request's thread).
//!
//! Loopback only; each request, each start and the whole test have a time bound; the
//! processes are killed and the database dropped however the test ends (Drop guards).

mod fleet;
mod load;
#[path = "../common/postgres.rs"]
#[expect(dead_code, reason = "these tests never drop a database while a server uses it")]
mod postgres;
mod terminated_commits;

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use fleet::{EMAIL_INTERVAL, Fleet, RATE_LIMIT, Request, Server};
use load::Person;
use postgres::PostgresDatabase;
use reqwest::StatusCode;
use serde_json::json;

/// How long a rotated refresh token may be used again (`REUSE_INTERVAL` of the auth service).
const REUSE_INTERVAL: Duration = Duration::from_secs(10);
/// The longest each test may run, well above what it takes.
const TEST_LIMIT: Duration = Duration::from_secs(50);
/// How long the load runs on both servers before the first is killed, and on the second after.
const LOAD_BEFORE_KILL: Duration = Duration::from_secs(3);
const LOAD_AFTER_KILL: Duration = Duration::from_secs(2);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn nothing_acknowledged_is_lost_when_one_of_two_servers_is_killed_mid_load() {
    tokio::time::timeout(TEST_LIMIT, two_servers_one_killed()).await.expect("the test ends within its limit");
}

async fn two_servers_one_killed() {
    let database = PostgresDatabase::create().await;
    let client = fleet::client();
    // One after the other, as in a rolling start; both at once is the next test.
    let (mut first, second) = Server::two_in_turn(&database.url, &client).await;
    let fleet = Arc::new(Fleet::new(client, &first, &second));

    sign_in_attempts_count_against_one_limit_on_both_servers(&fleet).await;
    let shops =
        [load::Shop::open(&fleet, "Hoop Street").await, load::Shop::open(&fleet, "Bobbin Lane").await];
    e_mails_to_one_address_share_one_clock_on_both_servers(&fleet, &shops[0].owner).await;
    let watched_shop = load::Shop::open(&fleet, "Watched").await;

    let done = Arc::new(AtomicBool::new(false));
    let shop_workers: Vec<_> = shops
        .iter()
        .map(|shop| tokio::spawn(load::work_the_shop(Arc::clone(&fleet), shop.clone(), Arc::clone(&done))))
        .collect();
    let teams_worker = tokio::spawn(load::open_teams(Arc::clone(&fleet), Arc::clone(&done)));
    let watcher = tokio::spawn(load::watch_the_list(Arc::clone(&fleet), watched_shop, Arc::clone(&done)));

    tokio::time::sleep(LOAD_BEFORE_KILL).await;
    first.kill();
    fleet.first_is_gone();
    tokio::time::sleep(LOAD_AFTER_KILL).await;
    done.store(true, std::sync::atomic::Ordering::SeqCst);

    let mut shop_logs = Vec::new();
    for worker in shop_workers {
        shop_logs.push(finished(worker).await);
    }
    let teams = finished(teams_worker).await;
    let list_checks = finished(watcher).await;
    eprintln!(
        "load: {} threads created ({} unanswered), {} `+1`s ({} unanswered), {} people, {} teams, {} list checks across servers",
        shop_logs.iter().map(|log| log.created.len()).sum::<usize>(),
        shop_logs.iter().map(|log| log.creates_unanswered).sum::<usize>(),
        shop_logs.iter().map(|log| log.adjusts).sum::<u32>(),
        shop_logs.iter().map(|log| log.adjusts_unanswered).sum::<u32>(),
        teams.people.len(),
        teams.teams.len(),
        list_checks.across,
    );

    // The load did what it is for: both servers acknowledged writes, and the lists were
    // compared across servers, before the kill.
    assert!(shop_logs.iter().flat_map(|log| &log.created).any(|(_, server)| server == fleet.first()));
    assert!(shop_logs.iter().flat_map(|log| &log.created).any(|(_, server)| server == fleet.second()));
    assert!(list_checks.across >= 3, "{list_checks:?}");
    assert!(!teams.sessions_from_first.is_empty(), "{teams:?}");

    for log in &shop_logs {
        log.check(&fleet).await;
    }
    teams.check(&fleet).await;
    let shop_sessions = shops.iter().map(|shop| &shop.owner);
    sessions_of_the_dead_server_work_on_the_other(&fleet, shop_sessions.chain(&teams.sessions_from_first))
        .await;
    drop(second);
}

/// A worker's log; a worker's panic is the test's.
async fn finished<T>(worker: tokio::task::JoinHandle<T>) -> T {
    worker.await.unwrap_or_else(|error| std::panic::resume_unwind(error.into_panic()))
}

/// The limits count in fixed 5-minute windows: a check straddling the edge of one would see
/// the count start again. Waits until the next edge is at least 10 s away.
async fn clear_of_a_rate_limit_window_edge() {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_secs();
    let left = 300 - now % 300;
    if left < 10 {
        tokio::time::sleep(Duration::from_secs(left + 1)).await;
    }
}

/// Wrong passwords from one address, to the two servers in turn: the attempt after the limit
/// is refused, although neither server alone has seen that many.
async fn sign_in_attempts_count_against_one_limit_on_both_servers(fleet: &Fleet) {
    clear_of_a_rate_limit_window_edge().await;
    let address = "203.0.113.7";
    let attempt = |n: u32| {
        // A different account each time: only the per-address limit is in play.
        let body = json!({ "email": format!("nobody-{n}@example.com"), "password": "Wrong-Guess-1234" });
        Request::post("/auth/v1/token?grant_type=password", body).from(address)
    };
    for n in 0..RATE_LIMIT {
        let server = fleet.pick(n as usize);
        let answer = fleet.answer(server, attempt(n)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "attempt {n} on {server}: {answer:?}");
        assert_eq!(answer.body["code"], "invalid_credentials", "{answer:?}");
    }
    // The second server has seen fewer than the limit itself.
    let over = fleet.answer(fleet.second(), attempt(RATE_LIMIT)).await;
    assert_eq!(over.status, StatusCode::TOO_MANY_REQUESTS, "{over:?}");
    assert_eq!(over.body["code"], "over_request_rate_limit", "{over:?}");
}

/// A password reset asked for on one server, then at once on the other: the second is refused
/// until the interval has passed, as if both had been asked of one server.
async fn e_mails_to_one_address_share_one_clock_on_both_servers(fleet: &Fleet, person: &Person) {
    let recover = || Request::post("/auth/v1/recover", json!({ "email": person.email }));
    fleet.answer(fleet.first(), recover()).await.ok();
    let again = fleet.answer(fleet.second(), recover()).await;
    assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS, "within {EMAIL_INTERVAL} s: {again:?}");
    assert_eq!(again.body["code"], "over_email_send_rate_limit", "{again:?}");
}

/// The access token the dead server issued works on the other, on the auth service and the
/// API; so does its refresh token, and the tokens that refresh gives.
async fn sessions_of_the_dead_server_work_on_the_other(
    fleet: &Fleet,
    sessions: impl Iterator<Item = &Person>,
) {
    let second = fleet.second();
    let mut checked = 0;
    for person in sessions {
        let user = fleet.answer(second, Request::get("/auth/v1/user").by(&person.access)).await.ok();
        assert_eq!(user["email"], person.email.as_str(), "{user}");
        fleet.answer(second, Request::get("/api/v2/users/me").by(&person.access)).await.ok();
        let refresh = json!({ "refresh_token": person.refresh });
        let refreshed =
            fleet.answer(second, Request::post("/auth/v1/token?grant_type=refresh_token", refresh)).await;
        let refreshed = refreshed.ok();
        let access = refreshed["access_token"].as_str().expect("a new access token");
        fleet.answer(second, Request::get("/api/v2/teams").by(access)).await.ok();
        checked += 1;
    }
    assert!(checked > 0);
}

/// Two servers started at the same moment on a new database, as an orchestrator starts its
/// replicas: both must come up (each would otherwise apply the migrations too, and one fails
/// on the other's tables), and agree on the key that signs sessions (each would otherwise
/// create one, and the tokens of one would be refused by the other).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_started_at_once_on_a_new_database_both_serve_and_accept_each_others_sessions() {
    tokio::time::timeout(TEST_LIMIT, started_at_once()).await.expect("the test ends within its limit");
}

async fn started_at_once() {
    let database = PostgresDatabase::create().await;
    let client = fleet::client();
    let mut first = Server::spawn(&database.url);
    let mut second = Server::spawn(&database.url);
    first.wait_until_serving(&client).await;
    second.wait_until_serving(&client).await;
    let fleet = Fleet::new(client, &first, &second);
    for (n, (signed_up_on, used_on)) in
        [(fleet.first(), fleet.second()), (fleet.second(), fleet.first())].into_iter().enumerate()
    {
        let person = load::person(&fleet, signed_up_on, &format!("early-{n}@example.com")).await;
        let user = fleet.answer(used_on, Request::get("/auth/v1/user").by(&person.access)).await;
        assert_eq!(user.status, StatusCode::OK, "a session of {signed_up_on} on {used_on}: {user:?}");
    }
}

/// A session ended or changed through one server, or by the operator's command, must be refused
/// by the other at once, although that one has just accepted it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ended_through_one_server_is_refused_at_once_by_the_other() {
    let database = PostgresDatabase::create().await;
    tokio::time::timeout(TEST_LIMIT, ended_on_one_refused_on_the_other(&database.url, true))
        .await
        .expect("the test ends within its limit");
}

/// The same for two servers on one SQLite file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ended_through_one_server_is_refused_at_once_by_the_other_on_one_sqlite_file() {
    let folder = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", folder.path().join("bobbin.db").display());
    tokio::time::timeout(TEST_LIMIT, ended_on_one_refused_on_the_other(&url, false))
        .await
        .expect("the test ends within its limit");
}

/// Sessions ended through the first server of two on the database at `database_url`, refused at
/// once by the second. Started `together`, or the second once the first serves (on a new SQLite
/// file, whose first start makes it).
async fn ended_on_one_refused_on_the_other(database_url: &str, together: bool) {
    let client = fleet::client();
    let mut first = Server::spawn(database_url);
    if !together {
        first.wait_until_serving(&client).await;
    }
    let mut second = Server::spawn(database_url);
    first.wait_until_serving(&client).await;
    second.wait_until_serving(&client).await;
    let fleet = Fleet::new(client, &first, &second);
    let (on_first, on_second) = (fleet.first(), fleet.second());

    // Refresh-token reuse counts as theft only after the reuse interval (10 s): its clock starts
    // first, and the other cases run meanwhile.
    let robbed = load::person(&fleet, on_first, "robbed@example.com").await;
    let rotated =
        Request::post("/auth/v1/token?grant_type=refresh_token", json!({ "refresh_token": robbed.refresh }));
    fleet.answer(on_first, rotated).await.ok();
    let reuse_allowed_until = tokio::time::Instant::now() + REUSE_INTERVAL;
    accepted_by(&fleet, on_second, &robbed).await;

    let leaving = load::person(&fleet, on_first, "leaving@example.com").await;
    accepted_by(&fleet, on_second, &leaving).await;
    fleet.answer(on_first, Request::post("/auth/v1/logout", json!({})).by(&leaving.access)).await.ok();
    refused_by(&fleet, on_second, &leaving, "signed out").await;

    let careful = load::person(&fleet, on_first, "careful@example.com").await;
    let other_device = load::signed_in(&fleet, on_first, &careful.email).await;
    accepted_by(&fleet, on_second, &other_device).await;
    let new_password = json!({ "password": "Fresh-Spool-7391", "current_password": load::PASSWORD });
    fleet.answer(on_first, Request::put("/auth/v1/user", new_password).by(&careful.access)).await.ok();
    refused_by(&fleet, on_second, &other_device, "signed out by a password change").await;
    accepted_by(&fleet, on_second, &careful).await;

    // Not an ending, but the other server's copy must not show the person as they were.
    let renamed = json!({ "data": { "full_name": "Ada Stitch" } });
    fleet.answer(on_first, Request::put("/auth/v1/user", renamed).by(&careful.access)).await.ok();
    let shown = fleet.answer(on_second, Request::get("/auth/v1/user").by(&careful.access)).await.ok();
    assert_eq!(
        shown["user_metadata"]["full_name"], "Ada Stitch",
        "the other server shows the person as they were"
    );

    // Nor their teams as they were: a team made, renamed, then left through the first server is
    // shown so by the second's very next `GET /teams`, which had just listed them.
    let teams_on_second = async || {
        let teams = fleet.answer(on_second, Request::get("/api/v2/teams").by(&careful.access)).await.ok();
        teams["teams"]
            .as_array()
            .unwrap()
            .iter()
            .map(|team| team["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(teams_on_second().await, Vec::<String>::new());
    let made = Request::post("/api/v2/teams", json!({ "name": "Ada's shop" })).by(&careful.access);
    let team = fleet.answer(on_first, made).await.ok()["team"]["public_id"].as_str().unwrap().to_owned();
    assert_eq!(teams_on_second().await, ["Ada's shop"]);
    let renamed =
        Request::patch(format!("/api/v2/teams/{team}"), json!({ "name": "Stitch & Co" })).by(&careful.access);
    fleet.answer(on_first, renamed).await.ok();
    assert_eq!(teams_on_second().await, ["Stitch & Co"]);
    fleet.answer(on_first, Request::delete(format!("/api/v2/teams/{team}")).by(&careful.access)).await.ok();
    assert_eq!(teams_on_second().await, Vec::<String>::new());

    team_changes_on_one_seen_at_once_by_the_other(&fleet).await;

    let disabled = load::person(&fleet, on_first, "disabled@example.com").await;
    accepted_by(&fleet, on_second, &disabled).await;
    accepted_by(&fleet, on_first, &disabled).await;
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_bobbin"))
        .args(["users", "disable", &disabled.email])
        .env_clear()
        .env("DATABASE_URL", database_url)
        .output()
        .await
        .expect("the operator's command runs");
    assert!(command.status.success(), "{}", String::from_utf8_lossy(&command.stderr));
    refused_by(&fleet, on_second, &disabled, "disabled by the operator").await;
    refused_by(&fleet, on_first, &disabled, "disabled by the operator").await;

    tokio::time::sleep_until(reuse_allowed_until + Duration::from_secs(1)).await;
    accepted_by(&fleet, on_second, &robbed).await;
    let replayed =
        Request::post("/auth/v1/token?grant_type=refresh_token", json!({ "refresh_token": robbed.refresh }));
    let replayed = fleet.answer(on_first, replayed).await;
    assert!(replayed.status.is_client_error(), "a refresh token replayed late is refused: {replayed:?}");
    refused_by(&fleet, on_second, &robbed, "ended by a replayed refresh token").await;
}

/// What the team routes' check reads (the caller's role, the team's name and default reorder
/// point, whether the team and the membership are there) and the team's inventory, changed
/// through the first server, are seen by the second's very next request, although it keeps a
/// copy of the inventory (`repo::thread_cache`).
async fn team_changes_on_one_seen_at_once_by_the_other(fleet: &Fleet) {
    let (on_first, on_second) = (fleet.first(), fleet.second());
    let shop = load::Shop::open(fleet, "Copies shop").await;
    let (owner, member) = (&shop.owner.access, &shop.member.access);
    let counter = |list: &serde_json::Value| {
        let threads = list["threads"].as_array().unwrap();
        threads.iter().find(|thread| thread["id"] == shop.counter.as_str()).unwrap().clone()
    };
    let listed = async || {
        let list = fleet.answer(on_second, Request::get(shop.path("/threads")).by(member)).await.ok();
        counter(&list)
    };
    // Read twice: the second from the copies.
    listed().await;
    let before = listed().await;
    assert_eq!((before["quantity"].as_f64(), before["low"].as_bool()), (Some(1.0), Some(false)), "{before}");

    let adjust =
        Request::post(shop.path(&format!("/threads/{}/adjust", shop.counter)), json!({ "delta": 1 }));
    fleet.answer(on_first, adjust.by(owner)).await.ok();
    assert_eq!(listed().await["quantity"].as_f64(), Some(2.0), "a +1 through the other server");

    let reorder = Request::patch(shop.path("/settings"), json!({ "default_reorder_point": 5 })).by(owner);
    fleet.answer(on_first, reorder).await.ok();
    assert_eq!(
        listed().await["low"].as_bool(),
        Some(true),
        "the team's reorder point set on the other server"
    );

    let team = async |token: &str| fleet.answer(on_second, Request::get(shop.path("")).by(token)).await;
    team(member).await.ok();
    let renamed = Request::patch(shop.path(""), json!({ "name": "Renamed copies" })).by(owner);
    fleet.answer(on_first, renamed).await.ok();
    assert_eq!(team(member).await.ok()["team"]["name"], "Renamed copies");

    let viewer = json!({ "userId": shop.member.id, "role": "viewer" });
    fleet.answer(on_first, Request::post(shop.path("/members"), viewer).by(owner)).await.ok();
    let adjust =
        Request::post(shop.path(&format!("/threads/{}/adjust", shop.counter)), json!({ "delta": 1 }));
    let refused = fleet.answer(on_second, adjust.by(member)).await;
    assert_eq!(
        refused.status,
        StatusCode::FORBIDDEN,
        "a member made a viewer on the other server: {refused:?}"
    );

    let removed = Request::delete(shop.path(&format!("/members/{}", shop.member.id))).by(owner);
    fleet.answer(on_first, removed).await.ok();
    let gone = fleet.answer(on_second, Request::get(shop.path("/threads")).by(member)).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "a member removed on the other server: {gone:?}");

    team(owner).await.ok();
    fleet.answer(on_first, Request::delete(shop.path("")).by(owner)).await.ok();
    let deleted = team(owner).await;
    assert_eq!(deleted.status, StatusCode::NOT_FOUND, "a team deleted on the other server: {deleted:?}");
}

/// A team route, which checks the session in the same query as the membership: a team nobody
/// has, so a valid session gets 404 there and an ended one 401.
const NO_ONES_TEAM: &str = "/api/v2/teams/NoSuchTeam000000/threads";

/// `person`'s access token works on `server`, twice (the second time from its copy).
async fn accepted_by(fleet: &Fleet, server: &str, person: &Person) {
    for _ in 0..2 {
        fleet.answer(server, Request::get("/api/v2/teams").by(&person.access)).await.ok();
        let team = fleet.answer(server, Request::get(NO_ONES_TEAM).by(&person.access)).await;
        assert_eq!(team.status, StatusCode::NOT_FOUND, "{} on {server}: {team:?}", person.email);
        let user = fleet.answer(server, Request::get("/auth/v1/user").by(&person.access)).await.ok();
        assert_eq!(user["email"], person.email.as_str(), "{user}");
    }
}

/// `person`'s access token is refused by `server`, on the API and the auth service, from the
/// very next request: each request reads its sign-in check afresh.
async fn refused_by(fleet: &Fleet, server: &str, person: &Person, why: &str) {
    let teams = fleet.answer(server, Request::get("/api/v2/teams").by(&person.access)).await;
    assert_eq!(teams.status, StatusCode::UNAUTHORIZED, "{why}, {} on {server}: {teams:?}", person.email);
    let team = fleet.answer(server, Request::get(NO_ONES_TEAM).by(&person.access)).await;
    assert_eq!(team.status, StatusCode::UNAUTHORIZED, "{why}, {} on {server}: {team:?}", person.email);
    let user = fleet.answer(server, Request::get("/auth/v1/user").by(&person.access)).await;
    assert_eq!(user.status, StatusCode::FORBIDDEN, "{why}, {} on {server}: {user:?}", person.email);
}
