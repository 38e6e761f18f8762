//! The traffic: people signing up and in, opening teams and inviting; two shops working their
//! thread and machine inventories; and a watcher checking that each server's list of threads
//! follows writes made through the other. Each worker writes down what the servers
//! acknowledged (answered 2xx) and what they were sent without answering (the killed server's
//! requests in flight), and checks it afterwards through the surviving server.

use std::{
    collections::HashSet,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fleet::{Fleet, Request};

pub const PASSWORD: &str = "Stitch-Count-4812";
/// The most rounds a worker makes, however long the load runs: the work stays bounded.
const MAX_ROUNDS: usize = 400;

/// A signed-in person.
#[derive(Debug, Clone)]
pub struct Person {
    pub email: String,
    pub id: String,
    pub access: String,
    pub refresh: String,
}

impl Person {
    fn of(email: &str, session: &Value) -> Self {
        let text =
            |value: &Value| value.as_str().unwrap_or_else(|| panic!("not a session: {session}")).to_owned();
        Self {
            email: email.to_owned(),
            id: text(&session["user"]["id"]),
            access: text(&session["access_token"]),
            refresh: text(&session["refresh_token"]),
        }
    }
}

/// A write's body when `server` acknowledged it; `None` when it did not answer. Any other
/// answer fails the test: the load is made of valid requests only.
async fn write(fleet: &Fleet, server: &str, request: Request) -> Option<Value> {
    let described = format!("{request:?} to {server}");
    match fleet.send(server, request).await {
        Ok(answer) => {
            assert!(answer.status.is_success(), "{described} answered {answer:?}");
            Some(answer.body)
        }
        Err(_) => None,
    }
}

/// Signs up (confirmed at once: the servers run with `--autoconfirm`); `None` if unanswered.
async fn sign_up(fleet: &Fleet, server: &str, email: &str) -> Option<Person> {
    let body = json!({ "email": email, "password": PASSWORD });
    let session = write(fleet, server, Request::post("/auth/v1/signup", body)).await?;
    Some(Person::of(email, &session))
}

/// A new session of `email`, signed in on `server`, which must answer.
pub async fn signed_in(fleet: &Fleet, server: &str, email: &str) -> Person {
    sign_in(fleet, server, email)
        .await
        .unwrap_or_else(|| panic!("{server} did not answer the sign-in of {email}"))
}

/// Signs in with the password; `None` if unanswered.
async fn sign_in(fleet: &Fleet, server: &str, email: &str) -> Option<Person> {
    let body = json!({ "email": email, "password": PASSWORD });
    let session = write(fleet, server, Request::post("/auth/v1/token?grant_type=password", body)).await?;
    Some(Person::of(email, &session))
}

/// A new account, signed up on `server`, which must answer.
pub async fn person(fleet: &Fleet, server: &str, email: &str) -> Person {
    sign_up(fleet, server, email)
        .await
        .unwrap_or_else(|| panic!("{server} did not answer the sign-up of {email}"))
}

fn text(body: &Value, pointer: &str) -> String {
    body.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {pointer} in {body}"))
        .to_owned()
}

/// A custom thread (a name and a colour; custom, so that names never collide with catalogue codes).
fn thread_body(name: &str) -> Value {
    json!({ "name": name, "colour": "#336699", "quantity": 1 })
}

/// Everything a team of two does its inventory work with.
#[derive(Debug, Clone)]
pub struct Shop {
    pub name: String,
    pub team: String,
    pub owner: Person,
    pub member: Person,
    /// A thread every round adds one spool to.
    pub counter: String,
    /// A thread every round edits in full, from the version the last edit answered.
    pub edited: String,
    /// A machine edited the same way.
    pub machine: String,
}

impl Shop {
    pub fn path(&self, rest: &str) -> String {
        format!("/api/v2/teams/{}{rest}", self.team)
    }

    /// The owner signs up on the first server, the member on the second; the team is opened,
    /// the member invited and the invite accepted, each on the other server than the step
    /// before.
    pub async fn open(fleet: &Fleet, name: &str) -> Self {
        let (first, second) = (fleet.first(), fleet.second());
        let slug = name.to_lowercase().replace(' ', "-");
        let owner = person(fleet, first, &format!("{slug}-owner@example.com")).await;
        let member = person(fleet, second, &format!("{slug}-member@example.com")).await;
        let team =
            fleet.answer(second, Request::post("/api/v2/teams", json!({ "name": name })).by(&owner.access));
        let team = text(&team.await.ok(), "/team/public_id");
        let invite = json!({ "email": member.email, "role": "member" });
        let invite = fleet
            .answer(first, Request::post(format!("/api/v2/teams/{team}/invites"), invite).by(&owner.access));
        let invite = text(&invite.await.ok(), "/invite/public_id");
        let accept = Request::post(format!("/api/v2/invites/{invite}/accept"), json!({})).by(&member.access);
        fleet.answer(second, accept).await.ok();
        let threads = format!("/api/v2/teams/{team}/threads");
        let create = |name: &str| Request::post(&threads, thread_body(name)).by(&owner.access);
        let counter = text(&fleet.answer(first, create("Counter")).await.ok(), "/thread/id");
        let edited = text(&fleet.answer(second, create("Edited")).await.ok(), "/thread/id");
        let machine = Request::post(format!("/api/v2/teams/{team}/machines"), json!({ "name": "Tajima" }));
        let machine = text(&fleet.answer(first, machine.by(&member.access)).await.ok(), "/machine/id");
        Self { name: name.to_owned(), team, owner, member, counter, edited, machine }
    }
}

/// Full edits of one record (a thread or a machine), each sent with the `version` the previous
/// answer gave and notes that number it: "edit 7".
#[derive(Debug)]
pub struct Edits {
    path: String,
    /// Every field of the edit but the notes and the version.
    fields: Value,
    /// `thread` or `machine`: the key of the record in the answers.
    kind: &'static str,
    version: i64,
    /// The last acknowledged edit.
    acknowledged: Option<u32>,
    /// Edits sent later than that without an answer: applied or not, nobody was told.
    unanswered: Vec<u32>,
}

impl Edits {
    fn new(path: String, fields: Value, kind: &'static str) -> Self {
        Self { path, fields, kind, version: 1, acknowledged: None, unanswered: Vec::new() }
    }

    async fn send(&mut self, fleet: &Fleet, server: &str, who: &Person, number: u32) {
        let mut body = self.fields.clone();
        body["notes"] = json!(format!("edit {number}"));
        body["version"] = json!(self.version);
        let sent = fleet.send(server, Request::put(&self.path, body).by(&who.access)).await;
        match sent {
            Ok(answer) if answer.status.is_success() => {
                self.version = answer.body[self.kind]["version"].as_i64().expect("the new version");
                self.acknowledged = Some(number);
                self.unanswered.clear();
            }
            // An edit the killed server never answered may still have been applied (its commit
            // reached the database just before the process died), after the version was read
            // again: this edit is then refused as made from an old version, which is the point.
            Ok(answer) if answer.status == StatusCode::CONFLICT && !self.unanswered.is_empty() => {
                self.reread(fleet, who).await;
            }
            Ok(answer) => panic!("edit {number} of {} on {server} answered {answer:?}", self.path),
            Err(_) => {
                self.unanswered.push(number);
                self.reread(fleet, who).await;
            }
        }
    }

    /// Reads the current version through the server that lives.
    async fn reread(&mut self, fleet: &Fleet, who: &Person) {
        let current = fleet.answer(fleet.second(), Request::get(&self.path).by(&who.access)).await.ok();
        self.version = current[self.kind]["version"].as_i64().expect("a version");
    }

    /// The record as stored now carries the last acknowledged edit, or one sent after it
    /// that went unanswered; never an older one.
    async fn check(&self, fleet: &Fleet, who: &Person) {
        let stored = fleet.answer(fleet.second(), Request::get(&self.path).by(&who.access)).await.ok();
        let notes = stored[self.kind]["notes"].as_str().expect("notes").to_owned();
        let last = self.acknowledged.expect("at least one edit was acknowledged");
        let allowed: Vec<String> = std::iter::once(last)
            .chain(self.unanswered.iter().copied())
            .map(|n| format!("edit {n}"))
            .collect();
        assert!(
            allowed.contains(&notes),
            "{} holds `{notes}`; acknowledged up to edit {last}, unanswered after it {:?}",
            self.path,
            self.unanswered
        );
    }
}

/// What one shop's worker was told, and what it sent without an answer.
#[derive(Debug)]
pub struct ShopLog {
    pub shop: Shop,
    /// Threads whose creation was acknowledged, and the server that acknowledged it.
    pub created: Vec<(String, String)>,
    pub creates_unanswered: usize,
    pub adjusts: u32,
    pub adjusts_unanswered: u32,
    pub machines: Vec<String>,
    thread_edits: Edits,
    machine_edits: Edits,
    pub reads: u32,
}

/// Works the shop's inventory until `done`: each round as the owner or the member, each
/// request to the next server, a new thread, `+1` on the counter, a full edit of a thread and
/// of a machine, every third round a new machine, and a read of each list.
pub async fn work_the_shop(fleet: Arc<Fleet>, shop: Shop, done: Arc<AtomicBool>) -> ShopLog {
    let thread_fields = thread_body("Edited");
    let machine_fields = json!({ "name": "Tajima" });
    let mut log = ShopLog {
        thread_edits: Edits::new(shop.path(&format!("/threads/{}", shop.edited)), thread_fields, "thread"),
        machine_edits: Edits::new(
            shop.path(&format!("/machines/{}", shop.machine)),
            machine_fields,
            "machine",
        ),
        shop,
        created: Vec::new(),
        creates_unanswered: 0,
        adjusts: 0,
        adjusts_unanswered: 0,
        machines: Vec::new(),
        reads: 0,
    };
    for round in 0..MAX_ROUNDS {
        if done.load(Ordering::SeqCst) {
            break;
        }
        shop_round(&fleet, &mut log, round).await;
    }
    log
}

async fn shop_round(fleet: &Fleet, log: &mut ShopLog, round: usize) {
    let shop = log.shop.clone();
    let who = if round.is_multiple_of(2) { &shop.owner } else { &shop.member };
    let server = |step: usize| fleet.pick(round + step);
    let number = u32::try_from(round).expect("few rounds");

    let create = Request::post(shop.path("/threads"), thread_body(&format!("{} {round}", shop.name)));
    match write(fleet, server(0), create.by(&who.access)).await {
        Some(body) => log.created.push((text(&body, "/thread/id"), server(0).to_owned())),
        None => log.creates_unanswered += 1,
    }
    let adjust =
        Request::post(shop.path(&format!("/threads/{}/adjust", shop.counter)), json!({ "delta": 1 }));
    match write(fleet, server(1), adjust.by(&who.access)).await {
        Some(_) => log.adjusts += 1,
        None => log.adjusts_unanswered += 1,
    }
    log.thread_edits.send(fleet, server(2), who, number).await;
    log.machine_edits.send(fleet, server(3), who, number).await;
    if round.is_multiple_of(3) {
        let machine = Request::post(shop.path("/machines"), json!({ "name": format!("Brother {round}") }));
        if let Some(body) = write(fleet, server(4), machine.by(&who.access)).await {
            log.machines.push(text(&body, "/machine/id"));
        }
    }
    for (step, list) in [(5, "/threads?per_page=50"), (6, "/machines")] {
        if write(fleet, server(step), Request::get(shop.path(list)).by(&who.access)).await.is_some() {
            log.reads += 1;
        }
    }
}

impl ShopLog {
    /// Through the surviving server: every acknowledged thread and machine is there and
    /// nothing that was never sent; the counter holds every acknowledged `+1` (and at most the
    /// unanswered ones besides); the edited records hold the last acknowledged edit or a later one.
    pub async fn check(&self, fleet: &Fleet) {
        let owner = &self.shop.owner;
        let stored = all_threads(fleet, fleet.second(), &self.shop.team, &owner.access).await;
        let ids: HashSet<&str> = stored.iter().map(|thread| thread["id"].as_str().expect("an id")).collect();
        for (id, server) in &self.created {
            assert!(ids.contains(id.as_str()), "thread {id}, acknowledged by {server}, is gone");
        }
        let besides_the_two = stored.len() - 2;
        assert!(
            besides_the_two <= self.created.len() + self.creates_unanswered,
            "{besides_the_two} threads stored, {} created and {} unanswered",
            self.created.len(),
            self.creates_unanswered
        );

        let counter =
            stored.iter().find(|thread| thread["id"] == self.shop.counter.as_str()).expect("the counter");
        let spools = counter["quantity"].as_f64().expect("a quantity");
        let least = 1.0 + f64::from(self.adjusts);
        assert!(
            (least..=least + f64::from(self.adjusts_unanswered)).contains(&spools),
            "the counter holds {spools} spools: 1 + {} acknowledged `+1`s, {} unanswered",
            self.adjusts,
            self.adjusts_unanswered
        );

        let machines =
            fleet.answer(fleet.second(), Request::get(self.shop.path("/machines")).by(&owner.access));
        let machines = machines.await.ok();
        let stored: HashSet<&str> = machines["machines"]
            .as_array()
            .expect("machines")
            .iter()
            .filter_map(|m| m["id"].as_str())
            .collect();
        for id in &self.machines {
            assert!(stored.contains(id.as_str()), "machine {id} was acknowledged and is gone");
        }
        self.thread_edits.check(fleet, owner).await;
        self.machine_edits.check(fleet, owner).await;
    }
}

/// Every thread of a team, page by page.
async fn all_threads(fleet: &Fleet, server: &str, team: &str, token: &str) -> Vec<Value> {
    let mut threads = Vec::new();
    for page in 1.. {
        let path = format!("/api/v2/teams/{team}/threads?per_page=200&page={page}");
        let body = fleet.answer(server, Request::get(path).by(token)).await.ok();
        let listed = body["threads"].as_array().expect("threads");
        threads.extend(listed.iter().cloned());
        if listed.is_empty()
            || threads.len() >= body["total"].as_u64().and_then(|n| usize::try_from(n).ok()).expect("a total")
        {
            return threads;
        }
    }
    unreachable!("pages run out")
}

/// What the people and teams worker was told.
#[derive(Debug, Default)]
pub struct TeamsLog {
    /// Everyone whose sign-up was acknowledged.
    pub people: Vec<Person>,
    /// Sessions the first server issued (sign-ups and sign-ins): they must go on working on
    /// the second once the first is gone.
    pub sessions_from_first: Vec<Person>,
    /// Acknowledged teams, with the owner's session and the invites acknowledged for each and
    /// whether the invitee's acceptance was acknowledged.
    pub teams: Vec<OpenedTeam>,
}

#[derive(Debug)]
pub struct OpenedTeam {
    pub owner: Person,
    pub team: String,
    pub invite: Option<String>,
    pub joined: Option<Person>,
}

/// Until `done`, round after round: someone signs up on one server and in on the other, opens a
/// team, invites a newcomer, who signs up and accepts; each step on the next server.
pub async fn open_teams(fleet: Arc<Fleet>, done: Arc<AtomicBool>) -> TeamsLog {
    let mut log = TeamsLog::default();
    for round in 0..MAX_ROUNDS {
        if done.load(Ordering::SeqCst) {
            break;
        }
        // A step without an answer ends the round: what follows it would rest on a guess.
        let _ = open_a_team(&fleet, &mut log, round).await;
    }
    log
}

async fn open_a_team(fleet: &Fleet, log: &mut TeamsLog, round: usize) -> Option<()> {
    let server = |step: usize| fleet.pick(round + step);
    let keep = |log: &mut TeamsLog, person: &Person, on: &str| {
        if on == fleet.first() {
            log.sessions_from_first.push(person.clone());
        }
    };
    let email = format!("owner-{round}@example.com");
    let signed_up = sign_up(fleet, server(0), &email).await?;
    log.people.push(signed_up.clone());
    keep(log, &signed_up, server(0));
    let owner = sign_in(fleet, server(1), &email).await?;
    keep(log, &owner, server(1));

    let team =
        write(fleet, server(2), Request::post("/api/v2/teams", json!({ "name": email })).by(&owner.access));
    let team = text(&team.await?, "/team/public_id");
    log.teams.push(OpenedTeam { owner: owner.clone(), team: team.clone(), invite: None, joined: None });
    let newcomer = format!("newcomer-{round}@example.com");
    let invite = Request::post(
        format!("/api/v2/teams/{team}/invites"),
        json!({ "email": newcomer, "role": "viewer" }),
    );
    let invite = text(&write(fleet, server(3), invite.by(&owner.access)).await?, "/invite/public_id");
    log.teams.last_mut().expect("the team").invite = Some(invite.clone());

    let joining = sign_up(fleet, server(4), &newcomer).await?;
    log.people.push(joining.clone());
    keep(log, &joining, server(4));
    let accept = Request::post(format!("/api/v2/invites/{invite}/accept"), json!({})).by(&joining.access);
    write(fleet, server(5), accept).await?;
    log.teams.last_mut().expect("the team").joined = Some(joining);
    Some(())
}

impl TeamsLog {
    /// Through the surviving server: everyone acknowledged can sign in, every acknowledged team,
    /// invite and membership is there.
    pub async fn check(&self, fleet: &Fleet) {
        let second = fleet.second();
        for person in &self.people {
            let body = json!({ "email": person.email, "password": PASSWORD });
            let session =
                fleet.answer(second, Request::post("/auth/v1/token?grant_type=password", body)).await;
            assert_eq!(
                session.status,
                StatusCode::OK,
                "{} was signed up and cannot sign in: {session:?}",
                person.email
            );
        }
        for opened in &self.teams {
            let path = |rest: &str| format!("/api/v2/teams/{}{rest}", opened.team);
            let team = fleet.answer(second, Request::get(path("")).by(&opened.owner.access)).await;
            assert_eq!(team.status, StatusCode::OK, "team {} was acknowledged: {team:?}", opened.team);
            if let Some(invite) = &opened.invite {
                let invites =
                    fleet.answer(second, Request::get(path("/invites")).by(&opened.owner.access)).await.ok();
                let listed = invites["invites"]
                    .as_array()
                    .expect("invites")
                    .iter()
                    .any(|i| i["public_id"] == invite.as_str());
                assert!(listed, "invite {invite} was acknowledged and is gone: {invites}");
            }
            if let Some(joined) = &opened.joined {
                let members =
                    fleet.answer(second, Request::get(path("/members")).by(&opened.owner.access)).await.ok();
                let member = members["members"]
                    .as_array()
                    .expect("members")
                    .iter()
                    .any(|m| m["userId"] == joined.id.as_str());
                assert!(
                    member,
                    "{} joined {} (acknowledged) and is not a member: {members}",
                    joined.email, opened.team
                );
            }
        }
    }
}

/// How many times the watcher saw a write through one server in the list of the other.
#[derive(Debug, Default)]
pub struct WatchLog {
    pub across: u32,
    pub checks: u32,
}

/// Until `done`: a thread is added through one server and must be in the other's list at once;
/// then removed through that one and must be gone from the first's list at once, the total
/// agreeing with the entries listed. The lists are read through each server's copy of the
/// team's threads, which is checked against the team's revision in the database.
pub async fn watch_the_list(fleet: Arc<Fleet>, shop: Shop, done: Arc<AtomicBool>) -> WatchLog {
    let mut log = WatchLog::default();
    for round in 0..MAX_ROUNDS {
        if done.load(Ordering::SeqCst) {
            break;
        }
        let _ = add_and_remove(&fleet, &shop, round, &mut log).await;
    }
    log
}

async fn add_and_remove(fleet: &Fleet, shop: &Shop, round: usize, log: &mut WatchLog) -> Option<()> {
    let token = &shop.owner.access;
    let writer = fleet.pick(round);
    let created = Request::post(shop.path("/threads"), thread_body(&format!("Watched {round}"))).by(token);
    let id = text(&write(fleet, writer, created).await?, "/thread/id");
    let reader = fleet.other(writer);
    let (ids, total) = listed(fleet, reader, shop).await?;
    assert!(ids.contains(&id), "thread {id} added through {writer} is missing from the list on {reader}");
    assert_eq!(ids.len(), total, "the list on {reader} counts entries it does not show");
    log.record(writer, reader);

    let writer = reader;
    write(fleet, writer, Request::delete(shop.path(&format!("/threads/{id}"))).by(token)).await?;
    let reader = fleet.other(writer);
    let (ids, total) = listed(fleet, reader, shop).await?;
    assert!(!ids.contains(&id), "thread {id} removed through {writer} is still listed on {reader}");
    assert_eq!(ids.len(), total, "the list on {reader} counts an entry removed through {writer}");
    log.record(writer, reader);
    Some(())
}

impl WatchLog {
    fn record(&mut self, writer: &str, reader: &str) {
        self.checks += 1;
        if writer != reader {
            self.across += 1;
        }
    }
}

/// The ids on the first page of the team's list (newest first) and the list's total; `None`
/// if the server did not answer.
async fn listed(fleet: &Fleet, server: &str, shop: &Shop) -> Option<(Vec<String>, usize)> {
    let list =
        Request::get(shop.path("/threads?sort=updated&order=desc&per_page=200")).by(&shop.owner.access);
    let body = write(fleet, server, list).await?;
    let ids = body["threads"].as_array().expect("threads").iter().map(|t| text(t, "/id")).collect();
    Some((ids, body["total"].as_u64().and_then(|n| usize::try_from(n).ok()).expect("a total")))
}
