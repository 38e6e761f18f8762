//! Storage faults: a full disk, a database locked by another process, a database that cannot be
//! written, a PostgreSQL connection lost mid-transaction. After each, nothing that was
//! acknowledged is lost, every answer comes quickly with a clear code, and the server recovers
//! by itself once the fault is gone.
//!
//! The full-disk test needs a file system it can fill: it runs again, alone, in a new user and
//! mount namespace (`unshare`, from util-linux), where it may mount a 3 MiB tmpfs without being
//! root on the machine.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use sea_orm::sqlx::{self, Connection as _, Executor as _, PgConnection, Row as _, SqliteConnection};
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::{
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    team_helpers::Person,
};

/// Set in the copy of the test binary that runs inside its own namespace.
const INSIDE_NAMESPACE: &str = "BOBBIN_TEST_IN_NAMESPACE";

/// Runs the test `name` again, alone, in a new user and mount namespace, and checks that it
/// passed there. Returns `true` in that copy (go on with the test) and `false` in the original
/// process (the test has run and passed).
fn run_in_own_namespace(name: &str) -> bool {
    if std::env::var_os(INSIDE_NAMESPACE).is_some() {
        return true;
    }
    let status = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "--"])
        .arg(std::env::current_exe().expect("the test binary's path"))
        .args([name, "--exact", "--test-threads=1"])
        .env(INSIDE_NAMESPACE, "1")
        .status()
        .expect("unshare (util-linux) runs");
    assert!(status.success(), "{name} failed in its own namespace: {status}");
    false
}

/// A tmpfs of `bytes`, mounted on a temporary folder (inside the namespace only).
struct SmallDisk {
    folder: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(bytes: u64) -> Self {
        let folder = tempfile::tempdir().expect("temporary folder");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(folder.path())
            .status()
            .expect("mount runs");
        assert!(status.success(), "mounting a tmpfs failed: {status}");
        Self { folder }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.folder.path().join(name)
    }
}

/// What a storage fault may answer to a write: `507` while the disk is full, `503` while the
/// database cannot take it; never `500`, and never after more than a few seconds.
#[track_caller]
fn assert_storage_refusal(status: StatusCode, body: &Value, took: Duration) {
    assert!(
        matches!(status, StatusCode::INSUFFICIENT_STORAGE | StatusCode::SERVICE_UNAVAILABLE),
        "a write under a storage fault answered {status} {body}"
    );
    assert!(body["code"].as_str().is_some_and(|code| !code.is_empty()), "{body}");
    assert!(body["message"].as_str().is_some_and(|message| !message.is_empty()), "{body}");
    assert!(took < Duration::from_secs(8), "a write under a storage fault took {took:?}");
}

/// Adds a machine with long notes (to fill the disk quickly): its id when acknowledged, else
/// the status and body.
async fn add_machine(
    app: &TestApp,
    owner: &Person,
    team: &str,
    n: usize,
) -> Result<String, (StatusCode, Value)> {
    let body = json!({ "name": format!("Machine {n}"), "notes": "n".repeat(1_900) });
    let answer = app.api_post(owner, &format!("/teams/{team}/machines"), body).await;
    if answer.status == StatusCode::CREATED {
        Ok(answer.body["machine"]["id"].as_str().expect("the new machine's id").to_owned())
    } else {
        Err((answer.status, answer.body))
    }
}

/// The machine ids committed to the SQLite file, read through a connection of our own: a
/// write the server acknowledged but left in an open transaction is not among them.
async fn committed_machines(database: &Path) -> HashSet<String> {
    let url = format!("sqlite://{}", database.display());
    let mut connection = SqliteConnection::connect(&url).await.expect("open the database file");
    let rows = connection.fetch_all("SELECT public_id FROM machines").await.expect("read the machines");
    rows.iter().map(|row| row.get::<String, _>(0)).collect()
}

/// The id of the first entry of the team's thread list.
async fn listed_thread(app: &TestApp, owner: &Person, threads: &str) -> String {
    let listed = app.api_get(owner, threads).await;
    listed.assert_status(StatusCode::OK)["threads"][0]["id"].as_str().expect("an entry").to_owned()
}

/// Taps +1 on `adjust` while `writing` holds; answers how many taps were acknowledged. A refusal
/// must be a storage fault's.
fn tap_while(
    app: &Arc<TestApp>,
    owner: &Person,
    adjust: &str,
    writing: &Arc<AtomicBool>,
) -> tokio::task::JoinHandle<i64> {
    let (app, owner, adjust, writing) = (app.clone(), owner.clone(), adjust.to_owned(), writing.clone());
    tokio::spawn(async move {
        let mut acknowledged = 0;
        while writing.load(Ordering::Relaxed) {
            let started = Instant::now();
            let tapped = app.api_post(&owner, &adjust, json!({ "delta": 1 })).await;
            if tapped.status == StatusCode::OK {
                acknowledged += 1;
            } else {
                assert_storage_refusal(tapped.status, &tapped.body, started.elapsed());
            }
        }
        acknowledged
    })
}

async fn health(app: &TestApp) -> (StatusCode, Value) {
    let started = Instant::now();
    let response = app.get("/healthz").await;
    assert!(started.elapsed() < Duration::from_secs(3), "/healthz took {:?}", started.elapsed());
    (response.status(), response.json().await.expect("/healthz answers JSON"))
}

#[tokio::test]
async fn a_full_disk_acknowledges_only_committed_writes_and_the_server_recovers_by_itself() {
    if !run_in_own_namespace(
        "faults::a_full_disk_acknowledges_only_committed_writes_and_the_server_recovers_by_itself",
    ) {
        return;
    }
    // Room for the schema of every migration and a few people, not for the writers below.
    let disk = SmallDisk::mount(3 * 1024 * 1024);
    // Room to give back later, as an operator would by deleting old logs.
    std::fs::write(disk.path("ballast"), vec![0u8; 256 * 1024]).expect("write the ballast");
    let database = disk.path("bobbin.db");
    let url = format!("sqlite://{}", database.display());
    let app = Arc::new(
        spawn_app_with(Backend::Sqlite, |args| args.database.database_url = url.as_str().into()).await,
    );
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Full disk").await;
    let added = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads"),
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 0 }),
        )
        .await;
    let thread = added.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();

    // Meanwhile, four people tap +1 on one spool: a refusal must leave out its own change, and
    // only that one.
    let writing = Arc::new(AtomicBool::new(true));
    let adjust = format!("/teams/{team}/threads/{thread}/adjust");
    let tappers: Vec<_> = (0..4).map(|_| tap_while(&app, &owner, &adjust, &writing)).collect();

    // Eight writers until each has been refused three times in a row.
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let writers = (0..8).map(|writer| {
        let (app, owner, team, acknowledged) =
            (app.clone(), owner.clone(), team.clone(), acknowledged.clone());
        tokio::spawn(async move {
            let (mut refused_in_a_row, mut refusals) = (0, 0);
            for n in 0..2_000 {
                let started = Instant::now();
                match add_machine(&app, &owner, &team, writer * 10_000 + n).await {
                    Ok(id) => {
                        acknowledged.lock().await.push(id);
                        refused_in_a_row = 0;
                    }
                    Err((status, body)) => {
                        assert_storage_refusal(status, &body, started.elapsed());
                        refusals += 1;
                        refused_in_a_row += 1;
                        if refused_in_a_row == 3 {
                            break;
                        }
                    }
                }
            }
            refusals
        })
    });
    let mut refusals = 0;
    for writer in writers {
        refusals += writer.await.expect("a writer panicked");
    }
    writing.store(false, Ordering::Relaxed);
    let mut taps = 0;
    for tapper in tappers {
        taps += tapper.await.expect("a tapper panicked");
    }
    assert!(taps > 0, "no tap was acknowledged");
    let acknowledged = acknowledged.lock().await.clone();
    assert!(refusals > 0, "the disk never filled: {} writes acknowledged", acknowledged.len());
    assert!(!acknowledged.is_empty(), "nothing was written before the disk filled");

    // Full: writes are refused at once with a clear code, and the health check says why.
    let started = Instant::now();
    let (status, body) = add_machine(&app, &owner, &team, 99_999).await.expect_err("the disk is still full");
    assert_storage_refusal(status, &body, started.elapsed());
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{body}");
    assert_eq!(body["code"], "storage_full");
    let (status, body) = health(&app).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["database"], "full", "{body}");

    // Space comes back: writes succeed again, without a restart.
    std::fs::remove_file(disk.path("ballast")).expect("remove the ballast");
    let recovered = add_machine(&app, &owner, &team, 100_000).await.expect("a write once space is back");
    let (status, body) = health(&app).await;
    assert_eq!((status, &body["database"]), (StatusCode::OK, &json!("ok")), "{body}");

    // Everything acknowledged is committed: another connection sees it, and no connection of
    // the server holds the write lock.
    let committed = committed_machines(&database).await;
    let lost: Vec<_> =
        acknowledged.iter().chain([&recovered]).filter(|id| !committed.contains(*id)).collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged writes are not committed",
        lost.len(),
        acknowledged.len() + 1
    );
    let mut other = SqliteConnection::connect(&url).await.unwrap();
    let quantity: i64 = sqlx::query_scalar("SELECT quantity FROM inventory_threads WHERE public_id = ?")
        .bind(&thread)
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert_eq!(quantity, taps * 100, "the spools counted are the taps acknowledged, in hundredths");
    other.execute("PRAGMA busy_timeout = 2000").await.unwrap();
    other.execute("BEGIN IMMEDIATE").await.expect("no connection of the server still holds the write lock");
    other.execute("ROLLBACK").await.unwrap();
}

#[tokio::test]
async fn a_database_locked_by_another_process_answers_503_and_reads_go_on() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Locked").await;
    add_machine(&app, &owner, &team, 1).await.expect("a write before the lock");

    // Another process (a backup tool, an operator's sqlite3 shell) takes the write lock and
    // keeps it longer than the busy timeout.
    let threads = format!("/teams/{team}/threads");
    let added = app
        .api_post(&owner, &threads, json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 2 }))
        .await;
    added.assert_status(StatusCode::CREATED);

    let mut other = SqliteConnection::connect(&app.database.url).await.unwrap();
    other.execute("BEGIN IMMEDIATE").await.unwrap();

    let started = Instant::now();
    let (status, body) = add_machine(&app, &owner, &team, 2).await.expect_err("the database is locked");
    assert_storage_refusal(status, &body, started.elapsed());
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("database_busy")),
        "{body}"
    );
    let listed = app.api_get(&owner, &format!("/teams/{team}/machines")).await;
    assert_eq!(listed.assert_status(StatusCode::OK)["machines"].as_array().map(Vec::len), Some(1));
    // An import preview reads only: it needs no write lock.
    let preview = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads/import"),
            json!({ "csv": "line,code,quantity\nmadeira-polyneon,1800,2\n", "commit": false }),
        )
        .await;
    preview.assert_status(StatusCode::OK);
    // A `+1` is refused too.
    let entry = &listed_thread(&app, &owner, &threads).await;
    let started = Instant::now();
    let adjusted = app.api_post(&owner, &format!("{threads}/{entry}/adjust"), json!({ "delta": 1 })).await;
    assert_storage_refusal(adjusted.status, &adjusted.body, started.elapsed());
    assert_eq!(adjusted.body["code"], "database_busy", "{:?}", adjusted.body);

    other.execute("ROLLBACK").await.unwrap();
    add_machine(&app, &owner, &team, 3).await.expect("a write once the lock is released");
    let adjusted = app.api_post(&owner, &format!("{threads}/{entry}/adjust"), json!({ "delta": 1 })).await;
    assert_eq!(
        adjusted.assert_status(StatusCode::OK)["thread"]["quantity"],
        3.0,
        "the refused +1 counted nothing"
    );
}

#[tokio::test]
async fn a_database_that_cannot_be_written_stops_the_start_with_the_reason() {
    let app = spawn_app(Backend::Sqlite).await;
    drop(app.person("owner").await);
    let read_only = format!("{}?mode=ro", app.database.url);

    let mut args = crate::helpers::serve_args(&read_only);
    args.bind = "127.0.0.1:0".parse().unwrap();
    let error = Box::pin(bobbin_server::startup::Application::build(args))
        .await
        .expect_err("a read-only database must not start as healthy");

    let message = format!("{error:#}");
    assert!(message.contains("cannot be written"), "{message}");
}

#[tokio::test]
async fn a_postgresql_connection_lost_mid_write_loses_nothing_acknowledged() {
    let app = Arc::new(spawn_app(Backend::Postgres).await);
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Lost connections").await;

    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let writers: Vec<_> = (0..6)
        .map(|writer| {
            let (app, owner, team, acknowledged) =
                (app.clone(), owner.clone(), team.clone(), acknowledged.clone());
            tokio::spawn(async move {
                for n in 0..60 {
                    let started = Instant::now();
                    match add_machine(&app, &owner, &team, writer * 1_000 + n).await {
                        Ok(id) => acknowledged.lock().await.push(id),
                        Err((status, body)) => {
                            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
                            assert_storage_refusal(status, &body, started.elapsed());
                        }
                    }
                }
            })
        })
        .collect();
    // Cut every connection of the server, several times, while the writers run.
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        cut_connections(&app).await;
    }
    for writer in writers {
        writer.await.expect("a writer panicked");
    }
    // A connection cut while it sat in the pool for less than a second answers its next request
    // 503, which the writers above allow for; one idle longer is checked before it goes out.
    tokio::time::sleep(Duration::from_millis(1_200)).await;

    let acknowledged = acknowledged.lock().await.clone();
    let listed = app.api_get(&owner, &format!("/teams/{team}/machines")).await;
    let stored: HashSet<&str> = listed.assert_status(StatusCode::OK)["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|machine| machine["id"].as_str().unwrap())
        .collect();
    let lost = acknowledged.iter().filter(|id| !stored.contains(id.as_str())).count();
    assert_eq!(lost, 0, "{lost} of {} acknowledged writes are lost", acknowledged.len());
    add_machine(&app, &owner, &team, 99_999).await.expect("writes work again");
}

#[tokio::test]
async fn a_postgresql_connection_cut_while_idle_is_replaced_unseen() {
    let app = spawn_app(Backend::Postgres).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Idle connections").await;
    // Long enough in the pool to be checked as they go out again (db.rs, `CHECKED_AFTER_IDLE`).
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    cut_connections(&app).await;
    for n in 0..3 {
        app.api_get(&owner, &format!("/teams/{team}/machines")).await.assert_status(StatusCode::OK);
        add_machine(&app, &owner, &team, n).await.expect("a write after the cut");
        // A checked change (the settings' count is read before the commit).
        let currency = ["EUR", "USD", "GBP"][n];
        let changed =
            app.api_patch(&owner, &format!("/teams/{team}/settings"), json!({ "currency": currency })).await;
        assert_eq!(changed.assert_status(StatusCode::OK)["settings"]["currency"], currency);
    }
}

/// Ends every connection the server holds to its PostgreSQL database, as a restart would, and
/// waits until those backends are gone (`pg_terminate_backend` only signals them).
async fn cut_connections(app: &TestApp) {
    let database_name = app.database.url.rsplit('/').next().unwrap();
    let admin_url = std::env::var("BOBBIN_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let mut admin = PgConnection::connect(&admin_url).await.unwrap();
    let cut: Vec<i32> =
        sqlx::query_scalar("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()")
            .bind(database_name)
            .fetch_all(&mut admin)
            .await
            .unwrap();
    for pid in &cut {
        sqlx::query("SELECT pg_terminate_backend($1)").bind(pid).execute(&mut admin).await.unwrap();
    }
    let gone = Instant::now();
    loop {
        let left: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)")
            .bind(&cut)
            .fetch_one(&mut admin)
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(gone.elapsed() < Duration::from_secs(5), "{left} backends still running");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    admin.close().await.unwrap();
}

/// A `pg_restore --clean` under running servers drops each table and makes it again: a request
/// that comes in between finds no table. It answers 503 (the outcome of a change is unknown, so
/// the message says a retry with the same key is safe), never 500, and works again once the table
/// is back.
#[tokio::test]
async fn a_table_missing_while_postgresql_is_restored_answers_503() {
    let app = spawn_app(Backend::Postgres).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Restored").await;
    let machines = format!("/teams/{team}/machines");
    add_machine(&app, &owner, &team, 1).await.expect("a write before the restore");

    let mut database = PgConnection::connect(&app.database.url).await.unwrap();
    sqlx::query("ALTER TABLE machines RENAME TO machines_being_restored")
        .execute(&mut database)
        .await
        .unwrap();
    let read = app.api_get(&owner, &machines).await;
    read.assert_api_error(StatusCode::SERVICE_UNAVAILABLE, "database_unavailable");
    assert!(read.body["message"].as_str().unwrap().contains("may or may not have been saved"), "{read:?}");
    assert!(read.headers.contains_key("retry-after"));
    let (status, body) = add_machine(&app, &owner, &team, 2).await.expect_err("no table to write to");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");

    sqlx::query("ALTER TABLE machines_being_restored RENAME TO machines")
        .execute(&mut database)
        .await
        .unwrap();
    database.close().await.unwrap();
    add_machine(&app, &owner, &team, 3).await.expect("writes work again");
    assert_eq!(
        app.api_get(&owner, &machines).await.assert_status(StatusCode::OK)["machines"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
