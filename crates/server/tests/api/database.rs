//! The migrations and connection settings, on both engines.

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use bobbin_server::{db::SignInReads, repo::auth::sessions::sign_in_column_type};
use rstest::rstest;
use sea_orm::{
    ConnectionTrait as _, DbBackend, Statement, TransactionTrait as _,
    sea_query::{Alias, Expr, ExprTrait as _, Query},
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::helpers::{Backend, TestApp, spawn_app};

async fn insert_user(app: &TestApp, email: &str) -> Result<Uuid, sea_orm::DbErr> {
    let id = Uuid::new_v4();
    let now = OffsetDateTime::now_utc();
    let statement = Query::insert()
        .into_table(Alias::new("users"))
        .columns(
            ["id", "email", "raw_user_meta_data", "raw_app_meta_data", "created_at", "updated_at"]
                .map(Alias::new),
        )
        .values_panic([
            id.into(),
            email.into(),
            serde_json::json!({}).into(),
            serde_json::json!({}).into(),
            now.into(),
            now.into(),
        ])
        .to_owned();
    app.db.execute(&statement).await?;
    Ok(id)
}

async fn insert_session(app: &TestApp, user_id: Uuid) {
    let now = OffsetDateTime::now_utc();
    let statement = Query::insert()
        .into_table(Alias::new("sessions"))
        .columns(["id", "user_id", "aal", "created_at", "updated_at"].map(Alias::new))
        .values_panic([Uuid::new_v4().into(), user_id.into(), "aal1".into(), now.into(), now.into()])
        .to_owned();
    app.db.execute(&statement).await.expect("insert a session");
}

async fn count_sessions(app: &TestApp) -> i64 {
    let statement =
        Query::select().expr(Expr::col(Alias::new("id")).count()).from(Alias::new("sessions")).to_owned();
    let row = app.db.query_one(&statement).await.unwrap().unwrap();
    row.try_get_by_index(0).unwrap()
}

#[rstest]
#[tokio::test]
async fn deleting_a_user_deletes_its_sessions(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let user = insert_user(&app, "ada@example.com").await.unwrap();
    insert_session(&app, user).await;
    insert_session(&app, user).await;
    assert_eq!(count_sessions(&app).await, 2);

    let delete = Query::delete()
        .from_table(Alias::new("users"))
        .and_where(Expr::col(Alias::new("id")).eq(user))
        .to_owned();
    app.db.execute(&delete).await.unwrap();

    // On SQLite this holds only with foreign keys switched on for the connection.
    assert_eq!(count_sessions(&app).await, 0);
}

#[rstest]
#[tokio::test]
async fn a_session_for_a_missing_user_is_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let now = OffsetDateTime::now_utc();
    let orphan = Query::insert()
        .into_table(Alias::new("sessions"))
        .columns(["id", "user_id", "aal", "created_at", "updated_at"].map(Alias::new))
        .values_panic([Uuid::new_v4().into(), Uuid::new_v4().into(), "aal1".into(), now.into(), now.into()])
        .to_owned();

    let error = app.db.execute(&orphan).await.unwrap_err();

    assert!(error.to_string().to_lowercase().contains("foreign key"), "{error}");
}

#[rstest]
#[tokio::test]
async fn an_email_address_belongs_to_one_account(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    insert_user(&app, "ada@example.com").await.unwrap();

    let error = insert_user(&app, "ada@example.com").await.unwrap_err();

    assert!(matches!(error.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))), "{error}");
}

/// The sign-in checks' own connections on PostgreSQL (`db::SignInReads`): a read dropped half-way
/// (its client gone) keeps its connection until the rest of its answer has come, instead of
/// handing it to the next read, which would first wait for that answer, and then gives it back,
/// rather than closing it (the next load would open another, a stall); the next read sees the
/// commits made since.
#[tokio::test]
async fn a_postgresql_sign_in_read_dropped_half_way_does_not_hold_up_the_next() {
    let app = spawn_app(Backend::Postgres).await;
    let reads = SignInReads::open(&app.db, sign_in_column_type).await.unwrap();
    let connections = backend_ids(&reads).await;
    assert_eq!(connections.len(), 4);

    let slow = Statement::from_string(DbBackend::Postgres, "SELECT pg_sleep(3)");
    let dropped_at = Instant::now();
    let dropped = tokio::time::timeout(Duration::from_millis(100), reads.one(slow)).await;
    assert!(dropped.is_err(), "the slow read was still running");
    insert_user(&app, "ada@example.com").await.unwrap();

    let started = Instant::now();
    let count = Statement::from_string(DbBackend::Postgres, "SELECT count(*) FROM users");
    let users: i64 = reads.one(count).await.unwrap().unwrap().get_by_index(0).unwrap();

    assert_eq!(users, 1, "the commit made since is seen");
    assert!(started.elapsed() < Duration::from_secs(2), "the next read waited {:?}", started.elapsed());
    tokio::time::sleep_until((dropped_at + Duration::from_millis(3_500)).into()).await;
    assert_eq!(backend_ids(&reads).await, connections, "the dropped read's connection came back");
    reads.close().await;
}

/// The PostgreSQL processes behind `reads`' four connections: four reads at once, each holding
/// its connection for a fifth of a second.
async fn backend_ids(reads: &SignInReads) -> BTreeSet<i32> {
    let read = || async {
        let statement = Statement::from_string(
            DbBackend::Postgres,
            "WITH slow AS (SELECT pg_sleep(0.2)) SELECT pg_backend_pid() FROM slow",
        );
        reads.one(statement).await.unwrap().unwrap().get_by_index::<i32>(0).unwrap()
    };
    let (a, b, c, d) = tokio::join!(read(), read(), read(), read());
    BTreeSet::from([a, b, c, d])
}

#[tokio::test]
async fn sqlite_is_opened_with_wal_foreign_keys_and_a_busy_timeout() {
    let app = spawn_app(Backend::Sqlite).await;

    // Asked through the server's own pool: foreign_keys and busy_timeout are per connection.
    for (pragma, expected) in [("journal_mode", "wal"), ("foreign_keys", "1"), ("busy_timeout", "5000")] {
        let row = app
            .db
            .query_one_raw(Statement::from_string(DbBackend::Sqlite, format!("PRAGMA {pragma}")))
            .await
            .unwrap()
            .unwrap();
        let value: String = row
            .try_get_by_index::<String>(0)
            .or_else(|_| row.try_get_by_index::<i64>(0).map(|number| number.to_string()))
            .unwrap();
        assert_eq!(value, expected, "PRAGMA {pragma}");
    }
}

#[tokio::test]
async fn the_sqlite_file_and_its_folder_are_created_on_first_start() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("nested/deeper/bobbin.db");
    let url = format!("sqlite://{}", file.display());

    let app =
        Box::pin(bobbin_server::startup::Application::build(crate::helpers::serve_args(&url))).await.unwrap();

    assert!(file.is_file());
    drop(app);
}

/// A PostgreSQL test server with a team (`team`), and a trigger that records the transaction of
/// every change to the rows of a table (`changed_in`), seen through `other`, a connection of the
/// test's own.
struct Recorded {
    app: std::sync::Arc<TestApp>,
    owner: crate::team_helpers::Person,
    team: String,
    other: sea_orm::sqlx::PgConnection,
}

impl Recorded {
    async fn new(table: &str) -> Self {
        use sea_orm::sqlx::{self, Connection as _, PgConnection};
        let app = std::sync::Arc::new(spawn_app(Backend::Postgres).await);
        let owner = app.person("owner").await;
        let team = app.team(&owner, "Together").await;
        let mut other = PgConnection::connect(&app.database.url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "CREATE TABLE changed_in (transaction_id BIGINT NOT NULL);
             CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS
                 $$ BEGIN INSERT INTO changed_in VALUES (txid_current()); RETURN NEW; END $$;
             CREATE TRIGGER record_change AFTER INSERT OR UPDATE ON {table}
                 FOR EACH ROW EXECUTE FUNCTION record_change();"
        )))
        .execute(&mut other)
        .await
        .unwrap();
        Self { app, owner, team, other }
    }

    /// How many transactions changed the table's rows and were committed.
    async fn transactions(&mut self) -> i64 {
        sea_orm::sqlx::query_scalar("SELECT COUNT(DISTINCT transaction_id) FROM changed_in")
            .fetch_one(&mut self.other)
            .await
            .unwrap()
    }

    /// A new spool's id.
    async fn add(&self, code: &str) -> String {
        let body = serde_json::json!({ "line": "madeira-polyneon", "code": code, "quantity": 0 });
        let added = self.app.api_post(&self.owner, &format!("/teams/{}/threads", self.team), body).await;
        added.assert_status(reqwest::StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned()
    }

    /// Sends a +1 of spool `thread`; its answer's status.
    fn tap(&self, thread: &str) -> tokio::task::JoinHandle<reqwest::StatusCode> {
        let (app, owner) = (self.app.clone(), self.owner.clone());
        let adjust = format!("/teams/{}/threads/{thread}/adjust", self.team);
        tokio::spawn(
            async move { app.api_post(&owner, &adjust, serde_json::json!({ "delta": 1 })).await.status },
        )
    }

    async fn quantity(&self, thread: &str) -> serde_json::Value {
        let listed = self.app.api_get(&self.owner, &format!("/teams/{}/threads/{thread}", self.team)).await;
        listed.assert_status(reqwest::StatusCode::OK)["thread"]["quantity"].clone()
    }

    /// Sends a change of the team's settings; its answer.
    fn patch(&self, body: serde_json::Value) -> tokio::task::JoinHandle<crate::auth_helpers::Answer> {
        let (app, owner, settings) =
            (self.app.clone(), self.owner.clone(), format!("/teams/{}/settings", self.team));
        tokio::spawn(async move { app.api_patch(&owner, &settings, body).await })
    }
}

/// Locks spool `thread` from a connection of its own, until that connection commits.
async fn lock_spool(url: &str, thread: &str) -> sea_orm::sqlx::PgConnection {
    lock(url, "SELECT 1 FROM inventory_threads WHERE public_id = $1 FOR UPDATE", thread).await
}

/// Locks the rows `select` (`… FOR UPDATE`, of `$1`) finds, from a connection of its own, until
/// that connection commits.
async fn lock(url: &str, select: &'static str, of: &str) -> sea_orm::sqlx::PgConnection {
    use sea_orm::sqlx::{self, Connection as _, PgConnection};
    let mut locking = PgConnection::connect(url).await.unwrap();
    sqlx::raw_sql("BEGIN").execute(&mut locking).await.unwrap();
    sqlx::query(select).bind(of).execute(&mut locking).await.unwrap();
    locking
}

async fn commit(mut connection: sea_orm::sqlx::PgConnection) {
    sea_orm::sqlx::raw_sql("COMMIT").execute(&mut connection).await.unwrap();
}

/// On PostgreSQL, changes of one entry that come while another of its changes is being written
/// go to the database together (`db::updated`): 33 taps sent while the spool's row is locked
/// elsewhere take two transactions, the first tap's and one for the other 32, not 33, and every
/// tap counts.
#[tokio::test]
async fn postgresql_changes_of_one_entry_that_come_at_once_are_committed_together() {
    let mut spools = Recorded::new("inventory_threads").await;
    let thread = spools.add("1800").await;
    let locking = lock_spool(&spools.app.database.url, &thread).await;
    let before = spools.transactions().await;
    let taps: Vec<_> = (0..33).map(|_| spools.tap(&thread)).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    commit(locking).await;
    for tap in taps {
        assert_eq!(tap.await.unwrap(), reqwest::StatusCode::OK);
    }
    assert_eq!(spools.transactions().await - before, 2, "the first tap alone, then the other 32 together");
    assert_eq!(spools.quantity(&thread).await, 33.0);
}

/// On PostgreSQL only the changes of one entry wait for each other: while a spool is held by
/// another transaction (an import, another server's change), the taps of another spool of the
/// same team are written and answered.
#[tokio::test]
async fn postgresql_a_held_entry_holds_up_no_other_entrys_changes() {
    let spools = Recorded::new("inventory_threads").await;
    let (free, held) = (spools.add("1800").await, spools.add("1801").await);
    let locking = lock_spool(&spools.app.database.url, &held).await;
    let waiting = [spools.tap(&held), spools.tap(&held)];
    tokio::time::sleep(Duration::from_millis(200)).await;
    let taps: Vec<_> = (0..3).map(|_| spools.tap(&free)).collect();
    for tap in taps {
        let answered = tokio::time::timeout(Duration::from_secs(5), tap).await;
        assert_eq!(
            answered.expect("answered while the other spool is held").unwrap(),
            reqwest::StatusCode::OK
        );
    }
    assert!(waiting.iter().all(|tap| !tap.is_finished()), "the held spool's taps wait for it");
    commit(locking).await;
    for tap in waiting {
        assert_eq!(tap.await.unwrap(), reqwest::StatusCode::OK);
    }
    assert_eq!((spools.quantity(&free).await, spools.quantity(&held).await), (3.0.into(), 2.0.into()));
}

/// A change that fails among changes written together on PostgreSQL (an edit into a thread the
/// team already has) gets its own answer; the others are written, each counted once.
#[tokio::test]
async fn postgresql_a_change_that_fails_among_others_fails_alone() {
    let mut spools = Recorded::new("inventory_threads").await;
    let (black, white) = (spools.add("1800").await, spools.add("1801").await);
    let locking = lock_spool(&spools.app.database.url, &white).await;
    let before = spools.transactions().await;
    let leader = spools.tap(&white);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let second = spools.tap(&white);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Made from the version the leader and the tap before it leave.
    let edit = {
        let (app, owner) = (spools.app.clone(), spools.owner.clone());
        let path = format!("/teams/{}/threads/{white}", spools.team);
        let into_black =
            serde_json::json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 0, "version": 3 });
        tokio::spawn(async move { app.api(&owner, reqwest::Method::PUT, &path, Some(into_black)).await })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = spools.tap(&white);
    tokio::time::sleep(Duration::from_millis(200)).await;
    commit(locking).await;
    for tap in [leader, second, after] {
        assert_eq!(tap.await.unwrap(), reqwest::StatusCode::OK);
    }
    edit.await.unwrap().assert_api_error(reqwest::StatusCode::CONFLICT, "already_in_inventory");
    assert_eq!((spools.quantity(&white).await, spools.quantity(&black).await), (3.0.into(), 0.0.into()));
    assert_eq!(
        spools.transactions().await - before,
        3,
        "the first tap alone; then, the three rolled back, the two taps"
    );
}

/// On PostgreSQL, changes of one setting of a team that come while another is being written go
/// to the database together (`db::written_if`), at most 32 statements a transaction: 33 sent
/// while the setting's row is locked elsewhere take two transactions (the first alone, then the
/// 32 others, each one statement: the change, with the read of the map), and every one is
/// answered.
#[tokio::test]
async fn postgresql_changes_of_one_setting_that_come_at_once_are_committed_together() {
    let mut shop = Recorded::new("team_settings").await;
    shop.patch(serde_json::json!({ "currency": "USD" }))
        .await
        .unwrap()
        .assert_status(reqwest::StatusCode::OK);
    let locking =
        lock(&shop.app.database.url, "SELECT 1 FROM team_settings WHERE key = $1 FOR UPDATE", "currency")
            .await;
    let before = shop.transactions().await;
    let patches: Vec<_> = (0..33).map(|_| shop.patch(serde_json::json!({ "currency": "EUR" }))).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    commit(locking).await;
    for patch in patches {
        let answer = patch.await.unwrap();
        assert_eq!(answer.assert_status(reqwest::StatusCode::OK)["settings"]["currency"], "EUR");
    }
    assert_eq!(shop.transactions().await - before, 2, "the first change alone, then the 32 others");
}

/// A change of several settings is written alone on PostgreSQL, never with others: written
/// together in the order they came, such changes could lock their rows in an order that a change
/// alone, or another server's, locks the other way.
#[tokio::test]
async fn postgresql_a_change_of_several_settings_is_written_alone() {
    let mut shop = Recorded::new("team_settings").await;
    shop.patch(serde_json::json!({ "a": 0, "b": 0 })).await.unwrap().assert_status(reqwest::StatusCode::OK);
    let locking =
        lock(&shop.app.database.url, "SELECT 1 FROM team_settings WHERE key = $1 FOR UPDATE", "a").await;
    let before = shop.transactions().await;
    let patches: Vec<_> = (1..=3).map(|n| shop.patch(serde_json::json!({ "a": n, "b": n }))).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    commit(locking).await;
    for patch in patches {
        patch.await.unwrap().assert_status(reqwest::StatusCode::OK);
    }
    assert_eq!(shop.transactions().await - before, 3, "one transaction each");
}

/// On PostgreSQL, a change whose rows do not let it stand (`db::written_if`'s check), among
/// changes written together, is refused alone: nothing of it is kept, and the others are, once.
#[tokio::test]
async fn postgresql_a_change_that_does_not_stand_among_others_is_refused_alone() {
    use bobbin_server::db::written_if;
    use sea_orm::DbErr;
    let app = std::sync::Arc::new(spawn_app(Backend::Postgres).await);
    app.db
        .execute_unprepared(
            "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
             INSERT INTO counters VALUES (1, 0), (2, 0), (3, 0)",
        )
        .await
        .unwrap();
    // Changes of the counters, named as one row so that they wait in one queue.
    let checked = |id: i32, by: i32, most: i32| {
        let app = app.clone();
        let sql = format!("UPDATE counters SET n = n + {by} WHERE id = {id} RETURNING n");
        tokio::spawn(async move {
            let statement = Statement::from_string(DbBackend::Postgres, sql);
            written_if(&app.db, Some("counters"), vec![statement], move |rows| {
                let count: i32 = rows[0].get_by_index(0)?;
                if count > most { Err(DbErr::Custom(format!("{count} is over {most}"))) } else { Ok(count) }
            })
            .await
        })
    };
    let locking = lock(&app.database.url, "SELECT 1 FROM counters WHERE id = $1::int FOR UPDATE", "1").await;
    let first = checked(1, 1, 40);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let kept = checked(2, 1, 10);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = checked(3, 7, 5);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let after = checked(2, 1, 10);
    tokio::time::sleep(Duration::from_millis(200)).await;
    commit(locking).await;

    assert_eq!(first.await.unwrap().unwrap(), 1);
    assert_eq!(kept.await.unwrap().unwrap(), 1);
    assert_eq!(refused.await.unwrap().unwrap_err().to_string(), "Custom Error: 7 is over 5");
    assert_eq!(after.await.unwrap().unwrap(), 2);
    let counts = app
        .db
        .query_all_raw(Statement::from_string(DbBackend::Postgres, "SELECT n FROM counters ORDER BY id"));
    let counts: Vec<i32> = counts.await.unwrap().iter().map(|row| row.try_get_by_index(0).unwrap()).collect();
    assert_eq!(counts, [1, 2, 0]);
}

/// A TCP relay to a PostgreSQL server that counts the reads of what clients send through it. A
/// client sends a request and waits for its answer before the next: one read each. Requests sent
/// together, without waiting, arrive as one read, or a few.
struct Relay {
    port: u16,
    reads: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Relay {
    async fn to(server: &str) -> Self {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let reads = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (counted, server) = (reads.clone(), server.to_owned());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let upstream = tokio::net::TcpStream::connect(&server).await.unwrap();
                let ((mut from_client, mut to_client), (mut from_server, mut to_server)) =
                    (client.into_split(), upstream.into_split());
                let counted = counted.clone();
                tokio::spawn(async move {
                    let mut sent = vec![0; 1 << 16];
                    while let Ok(length @ 1..) = from_client.read(&mut sent).await {
                        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if to_server.write_all(&sent[..length]).await.is_err() {
                            return;
                        }
                    }
                });
                tokio::spawn(async move { tokio::io::copy(&mut from_server, &mut to_client).await });
            }
        });
        Self { port, reads }
    }

    fn reads(&self) -> usize {
        self.reads.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// On PostgreSQL, a transaction of changes written together goes to the database in one flight
/// (`db/pipelined.rs`), not one round trip a statement: 33 checked changes of one row, sent while
/// the row is held elsewhere, the first written alone and the 32 others together, reach
/// PostgreSQL in a few reads once the row is free, where they took 35 (the first's commit, then
/// a begin, the 32 changes and a commit), and each is answered with its own count.
#[tokio::test]
async fn postgresql_changes_written_together_go_in_one_flight() {
    use bobbin_server::db::written_if;
    let app = spawn_app(Backend::Postgres).await;
    let mut url = url::Url::parse(&app.database.url).unwrap();
    let server = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap_or(5432));
    let relay = Relay::to(&server).await;
    url.set_host(Some("127.0.0.1")).unwrap();
    url.set_port(Some(relay.port)).unwrap();
    let args =
        bobbin_server::config::DatabaseArgs { database_url: url.as_str().into(), db_max_connections: 4 };
    let db = bobbin_server::db::connect(&args).await.unwrap();
    app.db
        .execute_unprepared("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO counters VALUES (1, 0)")
        .await
        .unwrap();
    let change = || {
        let db = db.clone();
        tokio::spawn(async move {
            let statement = Statement::from_string(
                DbBackend::Postgres,
                "UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n",
            );
            written_if(&db, Some("counters"), vec![statement], |rows| rows[0].get_by_index::<i32>(0)).await
        })
    };
    let locking = lock(&app.database.url, "SELECT 1 FROM counters WHERE id = $1::int FOR UPDATE", "1").await;
    let first = change();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let others: Vec<_> = (0..32).map(|_| change()).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = relay.reads();
    commit(locking).await;
    let mut counts = vec![first.await.unwrap().unwrap()];
    for other in others {
        counts.push(other.await.unwrap().unwrap());
    }
    let reads = relay.reads() - before;
    assert_eq!(counts, (1..=33).collect::<Vec<i32>>(), "each change answered with its own count");
    assert!(reads <= 6, "the 33 changes reached PostgreSQL in {reads} reads once the row was free");
}

/// On SQLite the sign-in checks read on the request's own thread (`db::SignInReads`), with each
/// value given its column's Rust type there: each of their queries answers there what it answers
/// through the pool (for a person in a team and one in none, the team they are in, a team they
/// are not in and no team at all), and the server reads nothing through the pool to answer them.
#[tokio::test]
async fn sqlite_sign_in_reads_on_the_request_thread_answer_what_the_pool_does() {
    use bobbin_server::{
        entity::ids::UserId,
        repo::{auth::sessions, teams, users},
    };

    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let loner = app.person("loner").await;
    let team = app.team(&owner, "Shop").await;
    let settings = format!("/teams/{team}/settings");
    app.api_patch(&owner, &settings, serde_json::json!({ "default_reorder_point": 3 }))
        .await
        .assert_status(reqwest::StatusCode::OK);
    for path in ["/teams", "/users/me", &format!("/teams/{team}"), &format!("/teams/{team}/threads")] {
        app.api_get(&owner, path).await.assert_status(reqwest::StatusCode::OK);
        app.api_get(&loner, path).await;
    }
    assert_eq!(app.sign_in_reads.read_through_pool(), 0, "the server read each on the request's thread");

    let here = SignInReads::open(&app.db, sign_in_column_type).await.unwrap();
    let pool = SignInReads::open(&app.db, |_| None).await.unwrap();
    for person in [&owner, &loner] {
        let user_id: Uuid = person.id.parse().unwrap();
        let statement = Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "SELECT id FROM sessions WHERE user_id = ?",
            [user_id.into()],
        );
        let session: Uuid =
            app.db.query_one_raw(statement).await.unwrap().unwrap().try_get("", "id").unwrap();
        let user = UserId(user_id);
        let (signed_in, in_teams) = teams::signed_in_teams(&here, session, user).await.unwrap().unwrap();
        assert_eq!(signed_in.user.email, person.email);
        assert_eq!(in_teams.len(), usize::from(person.email == owner.email), "{in_teams:?}");
        assert_eq!(
            format!("{:?}", (signed_in, in_teams)),
            format!("{:?}", teams::signed_in_teams(&pool, session, user).await.unwrap().unwrap()),
        );
        assert_eq!(
            format!("{:?}", sessions::signed_in(&here, session, user).await.unwrap().unwrap()),
            format!("{:?}", sessions::signed_in(&pool, session, user).await.unwrap().unwrap()),
        );
        assert_eq!(
            format!("{:?}", users::signed_in_profile(&here, session, user).await.unwrap().unwrap()),
            format!("{:?}", users::signed_in_profile(&pool, session, user).await.unwrap().unwrap()),
        );
        for team_id in [team.as_str(), "NoSuchTeam000000"] {
            let (_, membership) =
                teams::signed_in_member(&here, session, user, team_id).await.unwrap().unwrap();
            let member = person.email == owner.email && team_id == team;
            assert_eq!(
                membership.as_ref().is_some_and(|found| found.default_reorder_point.is_some()),
                member
            );
            assert_eq!(
                format!(
                    "{:?}",
                    teams::signed_in_member(&here, session, user, team_id).await.unwrap().unwrap()
                ),
                format!(
                    "{:?}",
                    teams::signed_in_member(&pool, session, user, team_id).await.unwrap().unwrap()
                ),
            );
        }
    }
    assert_eq!(here.read_through_pool(), 0);
    assert_eq!(pool.read_through_pool(), 2 * 5);
}

/// The database raises the sign-in epoch (migration 12) in every transaction that changes what a
/// sign-in check reads, whoever writes, and not for a change of a team's thread inventory, which
/// every `+1` makes: each server uses its copies of the checks (`auth::sign_in_cache`) only while
/// the epoch is the one they were read at.
#[rstest]
#[tokio::test]
async fn the_database_raises_the_sign_in_epoch_with_every_change_a_sign_in_check_reads(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("epoch-owner").await;
    let team = app.team(&owner, "Epoch shop").await;
    let db_backend = app.db.get_database_backend();
    let epoch = async || {
        let statement = Statement::from_string(db_backend, "SELECT epoch FROM sign_in_epoch");
        let row = app.db.query_one_raw(statement).await.unwrap().unwrap();
        row.try_get::<i64>("", "epoch").unwrap()
    };
    // From the time in microseconds (2020 and later), so that it never takes a value twice, even
    // when a backup is restored or the table made again (migration 12).
    assert!(epoch().await > 1_577_836_800_000_000, "{}", epoch().await);
    let person = format!("(SELECT id FROM users WHERE email = '{}')", owner.email);
    let of_team = format!("(SELECT id FROM teams WHERE public_id = '{team}')");

    let changes = [
        ("a person", format!("UPDATE users SET updated_at = updated_at WHERE id = {person}")),
        ("a session", format!("UPDATE sessions SET updated_at = updated_at WHERE user_id = {person}")),
        ("a membership", format!("UPDATE team_members SET role = role WHERE team_id = {of_team}")),
        ("a team's name", format!("UPDATE teams SET name = 'Renamed shop' WHERE id = {of_team}")),
    ];
    for (what, sql) in changes {
        let before = epoch().await;
        app.db.execute_unprepared(&sql).await.unwrap();
        assert!(epoch().await > before, "a change of {what} raises the epoch");
    }
    let before = epoch().await;
    let token = &owner.token;
    app.auth_post_as(token, "/factors", &serde_json::json!({ "factor_type": "totp" })).await;
    assert!(epoch().await > before, "a second factor added raises the epoch");

    // The team's default reorder point, which the team routes' check reads, set, changed and
    // removed; its other settings are not the check's.
    let settings = format!("/teams/{team}/settings");
    for value in [serde_json::json!(5), serde_json::json!(7), serde_json::Value::Null] {
        let before = epoch().await;
        let change = serde_json::json!({ "default_reorder_point": value });
        app.api_patch(&owner, &settings, change).await.assert_status(reqwest::StatusCode::OK);
        assert!(epoch().await > before, "the default reorder point set to {value} raises the epoch");
    }
    let before = epoch().await;
    let currency = serde_json::json!({ "currency": "EUR" });
    app.api_patch(&owner, &settings, currency).await.assert_status(reqwest::StatusCode::OK);
    assert_eq!(epoch().await, before, "the currency leaves the epoch");

    // The thread inventory's revision, raised by every change of an entry, is not the sign-in's.
    let before = epoch().await;
    let revision = format!("UPDATE teams SET threads_revision = threads_revision + 1 WHERE id = {of_team}");
    app.db.execute_unprepared(&revision).await.unwrap();
    assert_eq!(epoch().await, before, "a thread change leaves the epoch");

    // Several changes in one transaction: raised, on PostgreSQL once, at the commit.
    let txn = app.db.begin().await.unwrap();
    txn.execute_unprepared(&format!("UPDATE users SET updated_at = updated_at WHERE id = {person}"))
        .await
        .unwrap();
    txn.execute_unprepared(&format!("UPDATE teams SET name = 'Renamed again' WHERE id = {of_team}"))
        .await
        .unwrap();
    assert_eq!(epoch().await, before, "not before the commit");
    txn.commit().await.unwrap();
    let after = epoch().await;
    assert!(after > before, "raised by the transaction");

    // Ends: a session signed out, a team removed, and on PostgreSQL a table emptied at once.
    let mut ends = vec![
        format!("DELETE FROM sessions WHERE user_id = {person}"),
        format!("DELETE FROM teams WHERE id = {of_team}"),
    ];
    if backend == Backend::Postgres {
        ends.push("TRUNCATE mfa_challenges, mfa_factors".to_owned());
    }
    for sql in ends {
        let before = epoch().await;
        app.db.execute_unprepared(&sql).await.unwrap();
        assert!(epoch().await > before, "{sql} raises the epoch");
    }
}

/// A copy of a sign-in check is used only at the very epoch it was read at: a database whose
/// epoch went back (a backup restored under a running server) holds a state the copy may not
/// show, here a session it no longer has, and the next request reads the check again.
#[rstest]
#[tokio::test]
async fn a_copy_of_a_sign_in_check_is_not_used_once_the_epoch_went_back(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let person = app.person("restored").await;
    // Read twice: the second answer comes from the server's copy.
    for _ in 0..2 {
        app.api_get(&person, "/teams").await.assert_status(reqwest::StatusCode::OK);
    }
    let db_backend = app.db.get_database_backend();
    let statement = Statement::from_string(db_backend, "SELECT epoch FROM sign_in_epoch");
    let row = app.db.query_one_raw(statement).await.unwrap().unwrap();
    let epoch = row.try_get::<i64>("", "epoch").unwrap();

    // The session goes, and the epoch ends lower than the copy's, as after a restore.
    let txn = app.db.begin().await.unwrap();
    let session = format!(
        "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = '{}')",
        person.email
    );
    txn.execute_unprepared(&session).await.unwrap();
    if backend == Backend::Postgres {
        // PostgreSQL raises the epoch at the commit: now, so that the line below comes after it.
        txn.execute_unprepared("SET CONSTRAINTS ALL IMMEDIATE").await.unwrap();
    }
    txn.execute_unprepared(&format!("UPDATE sign_in_epoch SET epoch = {}", epoch - 5)).await.unwrap();
    txn.commit().await.unwrap();

    let refused = app.api_get(&person, "/teams").await;
    assert_eq!(refused.status, reqwest::StatusCode::UNAUTHORIZED, "{refused:?}");
}

/// On PostgreSQL an import that adds many entries has the inventories' statistics gathered
/// (`ANALYZE`): without them, the planner read a `+1`'s entry by the team's index, through every
/// entry of the team, rather than by the entry's own key (README, "API speed"), until autovacuum
/// came by a minute later, or never where it is off.
#[tokio::test]
async fn an_import_of_many_entries_on_postgresql_has_the_statistics_gathered() {
    let app = spawn_app(Backend::Postgres).await;
    let owner = app.person("importer").await;
    let team = app.team(&owner, "Import shop").await;
    let counted = async || {
        let statement = Statement::from_string(
            DbBackend::Postgres,
            "SELECT reltuples::bigint AS counted FROM pg_class WHERE relname = 'inventory_threads'",
        );
        let row = app.db.query_one_raw(statement).await.unwrap().unwrap();
        row.try_get::<i64>("", "counted").unwrap()
    };
    let rows: Vec<String> = (0..150).map(|n| format!("Import thread {n},#336699,1")).collect();
    let csv = format!("name,colour,quantity\n{}\n", rows.join("\n"));
    assert!(counted().await < 150, "not gathered before: {}", counted().await);

    let import = format!("/teams/{team}/threads/import");
    let body = app.api_post(&owner, &import, serde_json::json!({ "csv": csv, "commit": true })).await;
    assert_eq!(body.assert_status(reqwest::StatusCode::OK)["added"], 150);
    assert_eq!(counted().await, 150, "the statistics count the imported entries");
}
