//! A team's archive of a large team (docs/behaviour.md, "A team's data"): written as it is read,
//! a page of rows at a time, so it costs the server little memory whatever the team holds; one at
//! a time for each team and `--max-exports` at once on a server, past which it answers
//! `503 server_busy` with `Retry-After`.

use std::{
    collections::HashSet,
    fs::File,
    io::Read as _,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use bobbin_core::{catalogue::Catalogue, colour::Rgb8, inventory::ThreadSource};
use bobbin_server::entity::{
    ids::{LogId, MachineId, QuoteId, StoredMaintenanceKind, TeamId, ThreadId},
    inventory_thread, machine, machine_maintenance, quote, team,
};
use futures_util::future::join_all;
use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
use reqwest::StatusCode;
use rstest::rstest;
use sea_orm::{
    ActiveValue::Set, ColumnTrait as _, EntityTrait as _, QueryFilter as _, TransactionTrait as _,
};
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::{
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    quotes::{polos, quote},
    team_helpers::Person,
};

/// The large team: 20,000 threads with long notes (the most a team may hold, with the
/// longest notes allowed), 10,000 quotes (the most) and 50,000 maintenance log entries.
const LARGE: Size = Size { threads: 20_000, quotes: 10_000, machines: 5, log_per_machine: 10_000 };

/// How far a server's resident memory may rise while it writes [`LARGE`]'s archive, for the
/// sixth time at once (docs/behaviour.md, "A team's data": a few pages of rows, the threads'
/// order, and the compressor's buffers). Writing the whole archive in memory first took many
/// times this for one export, and six at once took six times that.
const EXPORT_MEMORY_BOUND_MIB: u64 = 48;

/// How many rows of each kind a team is filled with.
struct Size {
    threads: usize,
    quotes: usize,
    machines: usize,
    log_per_machine: usize,
}

/// `count` characters of random letters and spaces: notes that compress no better than real
/// ones, so the archive is as large as a real team's.
fn random_text(rng: &mut StdRng, count: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz     ABCDEFGHIJKLMNOPQRSTUVWXYZ.,";
    (0..count).map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())])).collect()
}

/// Fills `team` with `size` rows, written straight into the database: through the API, the
/// notes alone would take 20,000 requests (an import's body holds at most 1 MiB). One quote and
/// each machine are made through the API, and the rest of the quotes are copies of that one.
#[expect(clippy::too_many_lines, reason = "one table after another, in the order the archive reads them")]
async fn fill(app: &TestApp, owner: &Person, team: &str, size: &Size) {
    // What goes through the API first: on SQLite the inserts below hold the one writer.
    let (rates, job) = polos();
    let saved =
        app.api_post(owner, &format!("/teams/{team}/quotes"), quote("Polos", "EUR", &rates, &job)).await;
    saved.assert_status(StatusCode::CREATED);
    let mut machines = Vec::new();
    for m in 0..size.machines {
        let made = app
            .api_post(
                owner,
                &format!("/teams/{team}/machines"),
                json!({ "name": format!("Tajima {m}"), "heads": 6, "needles_per_head": 15 }),
            )
            .await;
        machines.push(made.assert_status(StatusCode::CREATED)["machine"]["id"].as_str().unwrap().to_owned());
    }

    let db = app.db.writes();
    let team_id: TeamId = team::Entity::find()
        .filter(team::Column::PublicId.eq(team))
        .one(db)
        .await
        .unwrap()
        .expect("the team")
        .id;
    let mut rng = StdRng::seed_from_u64(48);
    let now = OffsetDateTime::now_utc();
    let txn = db.begin().await.unwrap();

    // Threads: catalogue threads of every line, then custom ones, each with the longest notes.
    let catalogue = Catalogue::builtin();
    let mut seen = HashSet::new();
    let sources: Vec<(ThreadSource, String)> = catalogue
        .threads()
        .map(|(_, thread)| {
            let line = catalogue.line(thread.line).id.to_owned();
            (ThreadSource::Catalogue { line, code: thread.code.to_owned() }, thread.rgb.to_hex())
        })
        .chain((0..).map(|n| {
            let colour = Rgb8::parse_hex("#336699").unwrap();
            (ThreadSource::Custom { name: format!("Thread {n}"), colour }, colour.to_hex())
        }))
        .filter(|(source, _)| seen.insert(source.identity()))
        .take(size.threads)
        .collect();
    let rows: Vec<inventory_thread::ActiveModel> = sources
        .into_iter()
        .enumerate()
        .map(|(n, (source, colour))| {
            let (line_id, code, name) = match &source {
                ThreadSource::Catalogue { line, code } => (Some(line.clone()), Some(code.clone()), None),
                ThreadSource::Custom { name, .. } => (None, None, Some(name.clone())),
            };
            inventory_thread::ActiveModel {
                id: Set(ThreadId::new()),
                public_id: Set(format!("th{n:014}")),
                team_id: Set(team_id),
                identity: Set(source.identity()),
                line_id: Set(line_id),
                code: Set(code),
                name: Set(name),
                colour: Set(colour),
                quantity: Set(rng.random_range(0..10_000)),
                spool_length_m: Set(Some(1000)),
                location: Set(format!("Shelf {}", n % 40)),
                reorder_point: Set(Some(200)),
                cost_per_spool: Set(Some(450)),
                notes: Set(random_text(&mut rng, 2_000)),
                version: Set(1),
                updated_by: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
            }
        })
        .collect();
    for batch in rows.chunks(500) {
        inventory_thread::Entity::insert_many(batch.to_vec()).exec(&txn).await.unwrap();
    }

    // Quotes: copies of the one saved, one a second older than the one before.
    let template =
        quote::Entity::find().filter(quote::Column::TeamId.eq(team_id)).one(&txn).await.unwrap().unwrap();
    let rows: Vec<quote::ActiveModel> = (1..size.quotes)
        .map(|n| quote::ActiveModel {
            id: Set(QuoteId::new()),
            public_id: Set(format!("qu{n:014}")),
            // Numbers run on from the one saved, as the team's counter gives them.
            number: Set(template.number + i32::try_from(n).unwrap()),
            name: Set(format!("Quote {n:05} {}", random_text(&mut rng, 40))),
            created_at: Set(template.created_at - Duration::from_secs(n as u64)),
            ..quote::ActiveModel::from(template.clone())
        })
        .collect();
    for batch in rows.chunks(500) {
        quote::Entity::insert_many(batch.to_vec()).exec(&txn).await.unwrap();
    }

    // Each machine's log.
    for (m, public_id) in machines.into_iter().enumerate() {
        let machine_id: MachineId = machine::Entity::find()
            .filter(machine::Column::PublicId.eq(public_id))
            .one(&txn)
            .await
            .unwrap()
            .unwrap()
            .id;
        let kinds = bobbin_core::inventory::machine::MaintenanceKind::ALL;
        let rows: Vec<machine_maintenance::ActiveModel> = (0..size.log_per_machine)
            .map(|n| {
                let day = time::Date::from_calendar_date(2000, time::Month::January, 1).unwrap()
                    + time::Duration::days(i64::try_from(n / 3).unwrap());
                machine_maintenance::ActiveModel {
                    id: Set(LogId::new()),
                    public_id: Set(format!("lg{m}{n:013}")),
                    machine_id: Set(machine_id),
                    performed_on: Set(day.to_string()),
                    kind: Set(StoredMaintenanceKind(kinds[n % kinds.len()])),
                    notes: Set(random_text(&mut rng, 200)),
                    stitch_counter: Set(Some(i64::try_from(n).unwrap() * 1_000)),
                    recorded_by: Set(None),
                    created_at: Set(now - Duration::from_secs(n as u64 % 7)),
                }
            })
            .collect();
        for batch in rows.chunks(1_000) {
            machine_maintenance::Entity::insert_many(batch.to_vec()).exec(&txn).await.unwrap();
        }
    }
    txn.commit().await.unwrap();
}

/// A `bobbin serve` process of its own on `app`'s database, so that its memory is the server's
/// alone (a test's own server shares the test process with every other test). Killed on drop.
struct Process {
    address: String,
    child: Child,
    log: tempfile::NamedTempFile,
}

impl Process {
    async fn start(app: &TestApp, max_exports: u32) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let log = tempfile::NamedTempFile::new().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_bobbin"))
            .args(["serve", "--env", "development", "--bind", &format!("127.0.0.1:{port}")])
            // The test server's site: its access tokens name it as their issuer.
            .args(["--site-url", &format!("{}/", app.address), "--database-url", &app.database.url])
            .args(["--max-exports", &max_exports.to_string()])
            .env_clear()
            .env("BOBBIN_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(log.path()).unwrap())
            .spawn()
            .expect("bobbin starts");
        let process = Self { address: format!("http://127.0.0.1:{port}"), child, log };
        let started = Instant::now();
        while !app
            .client
            .get(format!("{}/healthz", process.address))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(started.elapsed() < Duration::from_secs(20), "bobbin did not serve: {}", process.log());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        process
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap_or_default()
    }

    /// A field of `/proc/<pid>/status`, in KiB.
    fn status_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|line| line.starts_with(&format!("{field}:"))).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Sets the peak resident memory (`VmHWM`) back to what is resident now.
    fn reset_peak(&self) {
        std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5").unwrap();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The archive's files, by name.
fn unzip(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            (file.name().unwrap().into_owned(), text)
        })
        .collect()
}

/// The attack: six exports of a large team at once. One is made, the others answer 503
/// at once; the server's memory rises by little while it writes the archive, which holds every
/// row, the threads exactly as the CSV export writes them.
#[rstest]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_exports_of_a_large_team_at_once_cost_one_export_of_bounded_memory(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Big shop").await;
    fill(&app, &owner, &team, &LARGE).await;
    let server = Process::start(&app, 2).await;
    let client = reqwest::Client::builder().timeout(Duration::from_mins(2)).build().unwrap();
    let export = format!("{}/api/v2/teams/{team}/export", server.address);
    // A first request, so that what every request sets up once is not counted.
    let small = app.team(&owner, "Small shop").await;
    let warm =
        client.get(format!("{}/api/v2/teams/{small}/export", server.address)).bearer_auth(&owner.token);
    assert_eq!(warm.send().await.unwrap().status(), StatusCode::OK);
    server.reset_peak();
    let before = server.status_kib("VmRSS");

    let answers = join_all((0..6).map(|_| {
        let request = client.get(&export).bearer_auth(&owner.token);
        async move {
            let answer = request.send().await.unwrap();
            let (status, headers) = (answer.status(), answer.headers().clone());
            (status, headers, answer.bytes().await.unwrap())
        }
    }))
    .await;

    let peak = server.status_kib("VmHWM");
    let rise_mib = peak.saturating_sub(before) / 1024;
    let (made, refused): (Vec<_>, Vec<_>) =
        answers.into_iter().partition(|(status, ..)| *status == StatusCode::OK);
    eprintln!("memory: {before} KiB before, peak {peak} KiB, rise {rise_mib} MiB; {} made", made.len());
    assert_eq!((made.len(), refused.len()), (1, 5), "one export of a team at a time");
    for (status, headers, body) in &refused {
        assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(headers.contains_key("retry-after"), "{headers:?}");
        let body: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(body["code"], "server_busy", "{body}");
    }
    assert!(
        rise_mib <= EXPORT_MEMORY_BOUND_MIB,
        "the server's memory rose by {rise_mib} MiB while it wrote the archive (at most {EXPORT_MEMORY_BOUND_MIB})"
    );

    let files = unzip(&made[0].2);
    assert_eq!(
        files.keys().map(String::as_str).collect::<Vec<_>>(),
        ["machines.json", "members.json", "quotes.json", "settings.json", "team.json", "threads.csv"]
    );
    let csv = app
        .client
        .get(app.url(&format!("/api/v2/teams/{team}/threads/export.csv")))
        .bearer_auth(&owner.token)
        .timeout(Duration::from_mins(1))
        .send()
        .await
        .unwrap();
    let csv = csv.text().await.unwrap();
    assert_eq!(csv.lines().count(), LARGE.threads + 1);
    assert!(files["threads.csv"] == csv, "threads.csv is the CSV export, byte for byte");
    let quotes: Value = serde_json::from_str(&files["quotes.json"]).unwrap();
    let quotes = quotes.as_array().unwrap();
    assert_eq!(quotes.len(), LARGE.quotes);
    assert_eq!(quotes[1]["name"].as_str().unwrap()[..11], *"Quote 00001", "newest first");
    assert_eq!(quotes.last().unwrap()["name"].as_str().unwrap()[..11], *"Quote 09999");
    let quote =
        app.api_get(&owner, &format!("/teams/{team}/quotes/{}", quotes[4_321]["id"].as_str().unwrap())).await;
    assert_eq!(quotes[4_321], quote.assert_status(StatusCode::OK)["quote"], "a quote as the API answers it");
    let machines: Value = serde_json::from_str(&files["machines.json"]).unwrap();
    let machines = machines.as_array().unwrap();
    assert_eq!(machines.len(), LARGE.machines);
    for machine in machines {
        assert_eq!(machine["maintenance"].as_array().unwrap().len(), LARGE.log_per_machine);
        let one =
            app.api_get(&owner, &format!("/teams/{team}/machines/{}", machine["id"].as_str().unwrap())).await;
        assert!(
            *machine == one.assert_status(StatusCode::OK)["machine"],
            "a machine and its log as the API answers them"
        );
    }
}

/// Past the bounds an export answers at once, 503 with `Retry-After`: a second of the same team,
/// and one of another team while the server makes `--max-exports`. An export whose download is
/// given up frees its place.
#[rstest]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_past_their_bounds_answer_503_and_a_download_given_up_frees_its_place(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.max_exports = std::num::NonZeroU32::MIN).await;
    let owner = app.person("owner").await;
    let large = app.team(&owner, "Big shop").await;
    let other = app.team(&owner, "Small shop").await;
    fill(&app, &owner, &large, &Size { threads: LARGE.threads, quotes: 1, machines: 0, log_per_machine: 0 })
        .await;
    let export = |team: &str| {
        app.client.get(app.url(&format!("/api/v2/teams/{team}/export"))).bearer_auth(&owner.token).send()
    };

    // A download that reads nothing: the archive waits for it, far larger than what the
    // connection holds.
    let held = export(&large).await.unwrap();
    assert_eq!(held.status(), StatusCode::OK);
    for team in [&large, &other] {
        let refused = export(team).await.unwrap();
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE, "{team}");
        assert!(refused.headers().contains_key("retry-after"));
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["code"], "server_busy", "{body}");
        assert!(body["message"].as_str().is_some_and(|message| message.contains("archive")), "{body}");
    }

    drop(held);
    let started = Instant::now();
    loop {
        let answer = export(&other).await.unwrap();
        if answer.status() == StatusCode::OK {
            assert!(unzip(&answer.bytes().await.unwrap()).contains_key("team.json"));
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the place was not freed: {}", answer.status());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A browser asks for gzip: the archive, compressed already, is sent as it is.
#[tokio::test]
async fn an_archive_is_not_compressed_again() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;

    let answer = app
        .client
        .get(app.url(&format!("/api/v2/teams/{team}/export")))
        .bearer_auth(&owner.token)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();

    assert_eq!(answer.status(), StatusCode::OK);
    assert!(!answer.headers().contains_key("content-encoding"), "{:?}", answer.headers());
    assert!(unzip(&answer.bytes().await.unwrap()).contains_key("team.json"));
}
