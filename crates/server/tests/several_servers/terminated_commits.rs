//! `+1`s tapped through two servers while PostgreSQL's backends are terminated under them, at
//! moments when one of them is in the middle of a `COMMIT` (issue 47). A `+1` whose connection is
//! cut may have been committed or not, and its server cannot know which: it must answer 503 and
//! never write it again. The group-commit queue the servers once had wrote some acknowledged
//! `+1`s twice when backends were terminated.
//!
//! An audit trigger, added to the test's database only, records each committed change of an
//! entry with who made it and the time the server stamped on it (the machine's clock, which the
//! test reads too). Each tapper sends its `+1`s one after the other, so that time falls within
//! exactly one of its requests: each committed `+1` is tied to the request that made it, and no
//! request may have made two.

use std::{
    collections::{HashMap, HashSet},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use reqwest::StatusCode;
use sea_orm::sqlx::{self, Connection as _, PgConnection, Row as _};
use serde_json::json;

use crate::{
    fleet::{self, Fleet, Request, Server},
    load::{self, Person, Shop},
    postgres::PostgresDatabase,
};

/// The longest the test may run.
const TEST_LIMIT: Duration = Duration::from_secs(50);
/// How long the tappers tap.
const LOAD: Duration = Duration::from_secs(10);
/// The most `+1`s a tapper sends, however fast the servers answer: the load stays bounded.
const MOST_TAPS: usize = 5_000;
/// People tapping in each of the two teams, each on their own, one request at a time.
const TAPPERS_PER_SHOP: usize = 8;
/// The pause between two rounds of terminations: at least the first, at most the sum.
const TERMINATION_PAUSE: (u64, u64) = (300, 200);

/// Records every committed change of an inventory entry: which entry, who made it and when the
/// server stamped it (`updated_by`, `updated_at`, set per request), and the quantity and version
/// before and after. A change rolled back leaves no row.
const AUDIT: &str = "
    CREATE TABLE tap_audit (
        entry TEXT NOT NULL,
        changed_by TEXT,
        changed_at_us BIGINT NOT NULL,
        old_quantity BIGINT NOT NULL,
        new_quantity BIGINT NOT NULL,
        old_version INTEGER NOT NULL,
        new_version INTEGER NOT NULL,
        transaction_id BIGINT NOT NULL
    );
    CREATE FUNCTION audit_tap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO tap_audit VALUES (
            NEW.public_id, NEW.updated_by::text,
            (extract(epoch FROM NEW.updated_at) * 1000000)::bigint,
            OLD.quantity, NEW.quantity, OLD.version, NEW.version, txid_current()
        );
        RETURN NULL;
    END $$;
    CREATE TRIGGER audit_tap AFTER UPDATE ON inventory_threads
        FOR EACH ROW EXECUTE FUNCTION audit_tap();";

/// Terminates every backend of the servers (`application_name` bobbin) on the database, if one
/// of them is running a `COMMIT` just now, and none otherwise: how many, and how many of those
/// were committing.
const TERMINATE_MID_COMMIT: &str = "
    SELECT count(*) FILTER (WHERE terminated), count(*) FILTER (WHERE terminated AND committing)
    FROM (
        SELECT pg_terminate_backend(pid) AS terminated, committing
        FROM (
            SELECT pid, committing, bool_or(committing) OVER () AS one_is_committing
            FROM (
                SELECT pid, state = 'active' AND query ILIKE 'commit%' AS committing
                FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = 'bobbin'
                    AND pid <> pg_backend_pid()
            ) AS backends
        ) AS seen
        WHERE one_is_committing
    ) AS terminated";
/// How many times a round looks for a `COMMIT` under way before it gives up until the next.
const LOOKS_FOR_A_COMMIT: u32 = 200;

/// Two servers on one PostgreSQL database; sixteen people tap `+1` on four entries of two teams
/// through both, one request after another each, while every backend the servers hold is
/// terminated two or three times a second, each time while one of them is running a `COMMIT`.
/// Every answer is a 200 or a 503. Then every committed `+1` (the audit trigger's rows) belongs to exactly one
/// request of the person who made it, on that entry; no request committed two; every 200 was
/// committed, with the version and quantity it answered, and no two 200s answered the same
/// version of an entry; each entry's quantity and version went up by one for each committed `+1`
/// and by nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_plus_one_is_applied_twice_when_backends_are_terminated_mid_commit_on_two_servers() {
    tokio::time::timeout(TEST_LIMIT, terminated_mid_commit()).await.expect("the test ends within its limit");
}

async fn terminated_mid_commit() {
    let database = PostgresDatabase::create().await;
    let client = fleet::client();
    let (first, second) = Server::two_in_turn(&database.url, &client).await;
    let fleet = Arc::new(Fleet::new(client, &first, &second));

    let mut tappers = Vec::new();
    let mut entries = Vec::new();
    for name in ["Tap Street", "Spool Row"] {
        let shop = Shop::open(&fleet, name).await;
        entries.extend([shop.counter.clone(), shop.edited.clone()]);
        tappers.extend([(shop.clone(), shop.owner.clone()), (shop.clone(), shop.member.clone())]);
        for n in 2..TAPPERS_PER_SHOP {
            let person = joined(&fleet, &shop, n).await;
            tappers.push((shop.clone(), person));
        }
    }

    let mut watcher = PgConnection::connect(&database.url).await.expect("the test's own connection");
    sqlx::raw_sql(AUDIT).execute(&mut watcher).await.expect("the audit trigger");
    let before = entry_states(&mut watcher, &entries).await;

    let done = Arc::new(AtomicBool::new(false));
    let terminator = tokio::spawn(terminate_until(database.url.clone(), Arc::clone(&done)));
    let workers: Vec<_> = tappers
        .into_iter()
        .enumerate()
        .map(|(n, (shop, person))| tokio::spawn(tap(Arc::clone(&fleet), shop, person, n)))
        .collect();
    let mut taps = Vec::new();
    for worker in workers {
        taps.push(crate::finished(worker).await);
    }
    done.store(true, Ordering::SeqCst);
    let terminations = crate::finished(terminator).await;

    let after = entry_states(&mut watcher, &entries).await;
    let audit = audit_rows(&mut watcher).await;
    let tally = check(&taps, &audit, &before, &after);
    eprintln!("{tally:?}, {terminations:?}");

    // The load did what it is for: many `+1`s acknowledged, connections cut under requests.
    assert!(tally.applied > 100, "{tally:?}");
    assert_eq!(tally.acknowledged_by.len(), 2, "{tally:?}");
    assert!(tally.unknown > 0, "no request met a terminated backend: {tally:?}");
    assert!(terminations.in_commit > 0, "no backend was terminated in a COMMIT: {terminations:?}");
    drop((first, second));
}

/// A new person in `shop`, signed up on the second server, invited by the owner on the first and
/// joined on the second.
async fn joined(fleet: &Fleet, shop: &Shop, n: usize) -> Person {
    let email = format!("tapper-{n}-{}@example.com", shop.team.to_lowercase());
    let person = load::person(fleet, fleet.second(), &email).await;
    let invite = json!({ "email": email, "role": "member" });
    let invite = Request::post(shop.path("/invites"), invite).by(&shop.owner.access);
    let invite = fleet.answer(fleet.first(), invite).await.ok();
    let invite = invite["invite"]["public_id"].as_str().expect("an invite id");
    let accept = Request::post(format!("/api/v2/invites/{invite}/accept"), json!({})).by(&person.access);
    fleet.answer(fleet.second(), accept).await.ok();
    person
}

/// One `+1` as its tapper saw it: the entry, the server, when it was sent and when its answer
/// came (microseconds since 1970, on the clock the servers stamp changes with), and the answer.
#[derive(Debug)]
struct Tap {
    entry: String,
    server: String,
    sent: i64,
    answered: i64,
    outcome: Outcome,
}

#[derive(Debug, Clone, Copy)]
enum Outcome {
    /// 200, with the entry's quantity and version after it.
    Applied { quantity: f64, version: i64 },
    /// 503: the database connection broke, and the `+1` may or may not have been committed.
    Unknown,
}

/// Everything one person sent, in order.
#[derive(Debug)]
struct Tapper {
    person: Person,
    taps: Vec<Tap>,
}

fn now_us() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970");
    i64::try_from(since.as_micros()).expect("a time")
}

/// `person` taps `+1` on the two entries of `shop` in turn, each request to the next server,
/// until [`LOAD`] has passed; the `n`th tapper starts on the `n`th entry and server.
async fn tap(fleet: Arc<Fleet>, shop: Shop, person: Person, n: usize) -> Tapper {
    let entries = [&shop.counter, &shop.edited];
    let started = Instant::now();
    let mut taps = Vec::new();
    for round in 0..MOST_TAPS {
        if started.elapsed() >= LOAD {
            break;
        }
        let entry = entries[(n + round) % entries.len()];
        let server = fleet.pick(n + round);
        let adjust = Request::post(shop.path(&format!("/threads/{entry}/adjust")), json!({ "delta": 1 }));
        let sent = now_us();
        let answer = fleet.send(server, adjust.by(&person.access)).await;
        let answered = now_us();
        let answer =
            answer.unwrap_or_else(|error| panic!("a +1 of {entry} on {server}: no answer ({error})"));
        let outcome = match answer.status {
            StatusCode::OK => {
                let thread = &answer.body["thread"];
                let quantity = thread["quantity"].as_f64().expect("a quantity");
                Outcome::Applied { quantity, version: thread["version"].as_i64().expect("a version") }
            }
            StatusCode::SERVICE_UNAVAILABLE => Outcome::Unknown,
            _ => panic!("a +1 of {entry} on {server} answered {answer:?}"),
        };
        taps.push(Tap { entry: entry.clone(), server: server.to_owned(), sent, answered, outcome });
    }
    Tapper { person, taps }
}

/// What the terminator did.
#[derive(Debug, Default)]
struct Terminations {
    rounds: u32,
    backends: i64,
    /// Of those, the ones running a `COMMIT` as they were terminated.
    in_commit: i64,
}

/// Until `done`, round after round: watches the servers' backends until one is running a
/// `COMMIT` (up to [`LOOKS_FOR_A_COMMIT`] times) and terminates them all then, pauses a little
/// over [`TERMINATION_PAUSE`]`.0` ms, and again.
async fn terminate_until(database_url: String, done: Arc<AtomicBool>) -> Terminations {
    let mut admin = PgConnection::connect(&database_url).await.expect("the terminator's connection");
    let mut terminations = Terminations::default();
    let (least, spread) = TERMINATION_PAUSE;
    while !done.load(Ordering::SeqCst) {
        terminations.rounds += 1;
        for _ in 0..LOOKS_FOR_A_COMMIT {
            let (backends, in_commit): (i64, i64) = sqlx::query_as(TERMINATE_MID_COMMIT)
                .fetch_one(&mut admin)
                .await
                .expect("backends terminated");
            terminations.backends += backends;
            terminations.in_commit += in_commit;
            if backends > 0 {
                break;
            }
        }
        let pause = least + u64::from(terminations.rounds) * 67 % spread;
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
    terminations
}

/// An entry's quantity (in hundredths) and version.
type EntryState = (i64, i64);

async fn entry_states(db: &mut PgConnection, entries: &[String]) -> HashMap<String, EntryState> {
    let rows: Vec<(String, i64, i32)> = sqlx::query_as(
        "SELECT public_id, quantity, version FROM inventory_threads WHERE public_id = ANY($1)",
    )
    .bind(entries)
    .fetch_all(db)
    .await
    .expect("the entries");
    assert_eq!(rows.len(), entries.len(), "{rows:?}");
    rows.into_iter().map(|(entry, quantity, version)| (entry, (quantity, i64::from(version)))).collect()
}

/// One committed change, as the audit trigger recorded it.
#[derive(Debug)]
struct Audited {
    entry: String,
    changed_by: Option<String>,
    changed_at_us: i64,
    old_quantity: i64,
    new_quantity: i64,
    old_version: i32,
    new_version: i32,
    transaction_id: i64,
}

async fn audit_rows(db: &mut PgConnection) -> Vec<Audited> {
    let rows = sqlx::query("SELECT * FROM tap_audit").fetch_all(db).await.expect("the audit");
    rows.iter()
        .map(|row| Audited {
            entry: row.get("entry"),
            changed_by: row.get("changed_by"),
            changed_at_us: row.get("changed_at_us"),
            old_quantity: row.get("old_quantity"),
            new_quantity: row.get("new_quantity"),
            old_version: row.get("old_version"),
            new_version: row.get("new_version"),
            transaction_id: row.get("transaction_id"),
        })
        .collect()
}

/// What the checks counted.
#[derive(Debug, Default)]
struct Tally {
    sent: usize,
    /// Answered 200.
    applied: usize,
    /// Answered 503.
    unknown: usize,
    /// Committed, by the audit.
    committed: usize,
    /// Answered 503 and committed all the same.
    unknown_but_committed: usize,
    /// The servers that answered 200s.
    acknowledged_by: HashSet<String>,
}

/// The invariants of the test's doc comment, over what the tappers were told and what the
/// audit trigger recorded.
fn check(
    tappers: &[Tapper],
    audit: &[Audited],
    before: &HashMap<String, EntryState>,
    after: &HashMap<String, EntryState>,
) -> Tally {
    let mut tally = Tally { committed: audit.len(), ..Tally::default() };

    // Every change is a `+1` of one of the entries, by a tapper.
    for row in audit {
        assert_eq!(
            (row.new_quantity, row.new_version),
            (row.old_quantity + 100, row.old_version + 1),
            "not a +1: {row:?}"
        );
    }

    // Each entry went up by exactly its committed `+1`s, one version each.
    for (entry, &(quantity, version)) in before {
        let mut versions: Vec<i64> =
            audit.iter().filter(|row| &row.entry == entry).map(|row| i64::from(row.new_version)).collect();
        versions.sort_unstable();
        let count = i64::try_from(versions.len()).expect("a count");
        assert_eq!(versions, (version + 1..=version + count).collect::<Vec<_>>(), "the versions of {entry}");
        assert_eq!(
            after[entry],
            (quantity + 100 * count, version + count),
            "{entry}: {count} `+1`s committed"
        );
    }

    // Each committed `+1` belongs to exactly one request of the person who made it, on that
    // entry; no request made two.
    let by_person: HashMap<&str, &Tapper> =
        tappers.iter().map(|tapper| (tapper.person.id.as_str(), tapper)).collect();
    let mut committed_by: HashMap<(&str, usize), &Audited> = HashMap::new();
    for row in audit {
        let who = row.changed_by.as_deref().unwrap_or_else(|| panic!("nobody made {row:?}"));
        let tapper = by_person.get(who).unwrap_or_else(|| panic!("no tapper made {row:?}"));
        // The taps are in order and one at a time: the first answered at or after the change.
        let index = tapper.taps.partition_point(|tap| tap.answered < row.changed_at_us);
        let tap = tapper.taps.get(index).filter(|tap| tap.sent <= row.changed_at_us).unwrap_or_else(|| {
            panic!("{row:?}, committed while {} had no request on the way", tapper.person.email)
        });
        assert_eq!(tap.entry, row.entry, "{row:?} made by a request for another entry: {tap:?}");
        if let Some(earlier) = committed_by.insert((who, index), row) {
            panic!("one +1 applied twice: {tap:?} committed both {earlier:?} and {row:?}");
        }
    }

    // Every 200 was committed, as answered; no two answered the same version of an entry.
    let mut answered_versions = HashSet::new();
    for tapper in tappers {
        let who = tapper.person.id.as_str();
        for (index, tap) in tapper.taps.iter().enumerate() {
            tally.sent += 1;
            let committed = committed_by.get(&(who, index));
            match tap.outcome {
                Outcome::Applied { quantity, version } => {
                    tally.applied += 1;
                    tally.acknowledged_by.insert(tap.server.clone());
                    assert!(
                        answered_versions.insert((&tap.entry, version)),
                        "two 200s answered version {version} of {}: {tap:?}",
                        tap.entry
                    );
                    let row =
                        committed.unwrap_or_else(|| panic!("acknowledged and never committed: {tap:?}"));
                    assert_eq!(
                        i64::from(row.new_version),
                        version,
                        "{tap:?} answered another version: {row:?}"
                    );
                    let stored = i32::try_from(row.new_quantity).map(f64::from).expect("a small quantity");
                    assert!(
                        (stored / 100.0 - quantity).abs() < 1e-6,
                        "{tap:?} answered another quantity: {row:?}"
                    );
                }
                Outcome::Unknown => {
                    tally.unknown += 1;
                    if committed.is_some() {
                        tally.unknown_but_committed += 1;
                    }
                }
            }
        }
    }
    assert!(tally.applied <= tally.committed && tally.committed <= tally.sent, "{tally:?}");
    // And each in a transaction of its own (checked last, so that a +1 applied twice is named
    // as such when changes are written together).
    let transactions: HashSet<i64> = audit.iter().map(|row| row.transaction_id).collect();
    assert_eq!(transactions.len(), audit.len(), "a transaction changed two entries, or one twice");
    tally
}
