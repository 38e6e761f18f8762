//! Backups: `bobbin backup` of a live SQLite database under writes, `bobbin restore` into a fresh
//! folder, scheduled backups, the copy kept before a migration, and PostgreSQL's `pg_dump` and
//! `pg_restore` as docs/deploy.md gives them.

use std::{
    path::Path,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use reqwest::StatusCode;
use serde_json::json;

use crate::{
    auth_helpers::PASSWORD,
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    operator::bobbin_on,
    postgres::PostgresDatabase,
    team_helpers::Person,
};

fn sqlite_url(file: &Path) -> String {
    format!("sqlite://{}", file.display())
}

/// The names of the team's machines, as a server on that database answers them.
async fn machine_names(app: &TestApp, who: &Person, team: &str) -> Vec<String> {
    let listed = app.api_get(who, &format!("/teams/{team}/machines")).await;
    listed.assert_status(StatusCode::OK)["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|machine| machine["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A server on the database at `url` (made by a restore), with `email` signed in again.
async fn serve_restored(url: &str, email: &str) -> (TestApp, Person) {
    let url = url.to_owned();
    let app =
        spawn_app_with(Backend::Sqlite, move |args| args.database.database_url = url.as_str().into()).await;
    let session = app.sign_in(email, PASSWORD).await;
    let token = session.assert_status(StatusCode::OK)["access_token"].as_str().unwrap().to_owned();
    let id = session.body["user"]["id"].as_str().unwrap().to_owned();
    (app, Person { email: email.to_owned(), id, token })
}

#[tokio::test]
async fn a_backup_made_under_writes_restores_every_write_acknowledged_before_it() {
    let app = Arc::new(spawn_app(Backend::Sqlite).await);
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Backed Up").await;

    // One writer adding machines one after another, noting each name the server acknowledged.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (app, owner, team) = (Arc::clone(&app), owner.clone(), team.clone());
        let (acknowledged, stop) = (Arc::clone(&acknowledged), Arc::clone(&stop));
        tokio::spawn(async move {
            for n in 0..450 {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let name = format!("Machine {n}");
                let added =
                    app.api_post(&owner, &format!("/teams/{team}/machines"), json!({ "name": name })).await;
                added.assert_status(StatusCode::CREATED);
                acknowledged.lock().unwrap().push(name);
            }
        })
    };
    while acknowledged.lock().unwrap().len() < 30 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("copy.db");
    let before_backup = acknowledged.lock().unwrap().clone();
    let made = bobbin_on(&app.database.url, &["backup", copy.to_str().unwrap()], "").await;
    assert!(made.ok().contains("Backed up and checked"), "{}", made.stdout);
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::SeqCst);
    writer.await.unwrap();
    let all_acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        all_acknowledged.len() > before_backup.len(),
        "the server kept taking writes during and after the backup"
    );

    // A second backup to the same name is refused: a backup is never overwritten.
    let again = bobbin_on(&app.database.url, &["backup", copy.to_str().unwrap()], "").await;
    assert_eq!(again.code, Some(1));
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);

    let fresh = folder.path().join("fresh").join("bobbin.db");
    let restored = bobbin_on(&sqlite_url(&fresh), &["restore", copy.to_str().unwrap()], "").await;
    assert!(restored.ok().contains("Restored"), "{}", restored.stdout);

    let (server, owner_again) = serve_restored(&sqlite_url(&fresh), &owner.email).await;
    let names = machine_names(&server, &owner_again, &team).await;
    for name in &before_backup {
        assert!(names.contains(name), "{name} was acknowledged before the backup began, and is missing");
    }
    for name in &names {
        assert!(all_acknowledged.contains(name), "{name} was never acknowledged");
    }
}

#[tokio::test]
async fn restore_checks_the_backup_and_refuses_while_a_server_runs() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Kept").await;
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("copy.db");
    bobbin_on(&app.database.url, &["backup", copy.to_str().unwrap()], "").await.ok();

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a backup holds password hashes: its owner's only");
    }

    let running = bobbin_on(&app.database.url, &["restore", copy.to_str().unwrap()], "").await;
    assert_eq!(running.code, Some(1));
    assert!(running.stderr.contains("a Bobbin server is using"), "{}", running.stderr);

    let garbage = folder.path().join("garbage.db");
    std::fs::write(&garbage, vec![7_u8; 8192]).unwrap();
    let target = folder.path().join("target").join("bobbin.db");
    let refused = bobbin_on(&sqlite_url(&target), &["restore", garbage.to_str().unwrap()], "").await;
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("is not a usable backup") || refused.stderr.contains("cannot be opened"),
        "{}",
        refused.stderr
    );
    assert!(!target.exists(), "nothing was put in place");

    // A file copied from beside a live database, with its write-ahead log, is not a backup.
    let copied = folder.path().join("copied.db");
    std::fs::copy(&copy, &copied).unwrap();
    std::fs::write(folder.path().join("copied.db-wal"), b"recent commits").unwrap();
    let live_copy = bobbin_on(&sqlite_url(&target), &["restore", copied.to_str().unwrap()], "").await;
    assert_eq!(live_copy.code, Some(1));
    assert!(live_copy.stderr.contains("write-ahead log"), "{}", live_copy.stderr);

    // A database restored over another keeps the one it replaced.
    bobbin_on(&sqlite_url(&target), &["restore", copy.to_str().unwrap()], "").await.ok();
    let second = bobbin_on(&sqlite_url(&target), &["restore", copy.to_str().unwrap()], "").await;
    let kept_line =
        second.ok().lines().find(|line| line.starts_with("The database it replaced is kept as ")).unwrap();
    let kept = kept_line.trim_start_matches("The database it replaced is kept as ");
    assert!(Path::new(kept).exists(), "{kept}");

    let (server, owner_again) = serve_restored(&sqlite_url(&target), &owner.email).await;
    let teams = server.api_get(&owner_again, "/teams").await;
    assert!(teams.assert_status(StatusCode::OK).to_string().contains(&team), "{teams:?}");
}

#[tokio::test]
async fn scheduled_backups_are_made_and_only_the_newest_kept() {
    let backups = tempfile::tempdir().unwrap();
    let folder = backups.path().to_path_buf();
    let app = spawn_app_with(Backend::Sqlite, move |args| {
        args.backups.backup_dir = Some(folder);
        args.backups.backup_interval = Duration::from_secs(1);
        args.backups.backup_keep = std::num::NonZeroU32::new(2).unwrap();
    })
    .await;
    app.person("ada").await;

    let listed = || {
        let mut names: Vec<String> = std::fs::read_dir(backups.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    // Three made (a second apart, as their names tell), two kept.
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 3 && tokio::time::Instant::now() < deadline {
        seen.extend(listed().into_iter().filter(|name| name.starts_with("bobbin-")));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(seen.len() >= 3, "backups seen: {seen:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let kept: Vec<String> = listed().into_iter().filter(|name| name.starts_with("bobbin-")).collect();
    assert!(kept.len() <= 2, "{kept:?}");
    let newest = backups.path().join(kept.last().unwrap());
    let restored_folder = tempfile::tempdir().unwrap();
    let target = restored_folder.path().join("bobbin.db");
    bobbin_on(&sqlite_url(&target), &["restore", newest.to_str().unwrap()], "").await.ok();
    serve_restored(&sqlite_url(&target), "ada@example.com").await;
}

#[tokio::test]
async fn a_copy_is_kept_before_a_sqlite_database_is_migrated() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("bobbin.db");
    let url = sqlite_url(&file);
    bobbin_on(&url, &["migrate", "up"], "").await.ok();
    bobbin_on(&url, &["migrate", "down"], "").await.ok();
    let newest = bobbin_server::schema::known().pop().unwrap();

    let server_url = url.clone();
    spawn_app_with(Backend::Sqlite, move |args| args.database.database_url = server_url.as_str().into())
        .await;

    let copy = folder.path().join(format!("bobbin.db.before-{newest}"));
    assert!(copy.exists(), "no copy at {}", copy.display());
    // The copy is the database as it was: the newest migration not yet applied.
    let status = bobbin_on(&sqlite_url(&copy), &["migrate", "status"], "").await;
    assert_eq!(status.code, Some(1), "{}", status.stdout);
    assert!(status.stdout.contains(&format!("pending  {newest}")), "{}", status.stdout);
}

/// The PostgreSQL commands of docs/deploy.md ("Backups"), run as written there.
#[tokio::test]
async fn pg_dump_and_pg_restore_as_the_guide_gives_them() {
    let app = spawn_app(Backend::Postgres).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Dumped").await;
    app.api_post(&owner, &format!("/teams/{team}/machines"), json!({ "name": "Brother PR1050X" }))
        .await
        .assert_status(StatusCode::CREATED);

    let folder = tempfile::tempdir().unwrap();
    let dump = folder.path().join("bobbin.dump");
    let dumped = std::process::Command::new("pg_dump")
        .args(["--format=custom", &format!("--file={}", dump.display()), &app.database.url])
        .output()
        .expect("pg_dump runs");
    assert!(dumped.status.success(), "{}", String::from_utf8_lossy(&dumped.stderr));

    let fresh = PostgresDatabase::create().await;
    let restored = std::process::Command::new("pg_restore")
        .args(["--clean", "--if-exists", &format!("--dbname={}", fresh.url), dump.to_str().unwrap()])
        .output()
        .expect("pg_restore runs");
    assert!(restored.status.success(), "{}", String::from_utf8_lossy(&restored.stderr));

    let url = fresh.url.clone();
    let server =
        spawn_app_with(Backend::Postgres, move |args| args.database.database_url = url.as_str().into()).await;
    let session = server.sign_in(&owner.email, PASSWORD).await;
    let token = session.assert_status(StatusCode::OK)["access_token"].as_str().unwrap().to_owned();
    let owner_again = Person { token, ..owner };
    let names = machine_names(&server, &owner_again, &team).await;
    assert_eq!(names, ["Brother PR1050X"]);
}
