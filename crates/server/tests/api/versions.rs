//! Every change to a thread or a machine raises its `version`, so a full edit prepared before the
//! change answers `409 edit_conflict` instead of quietly putting the old values back
//! (docs/behaviour.md, "Thread inventory").

use reqwest::{Method, StatusCode};
use rstest::rstest;
use sea_orm::{ConnectionTrait as _, Statement};
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, TestApp, spawn_app},
    team_helpers::Person,
};

/// A team and its owner.
async fn a_team(app: &TestApp) -> (Person, String) {
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    (owner, team)
}

/// One thread in the team (2 spools of Madeira Polyneon 1800, on Shelf A): its path and the
/// thread as the API answered.
async fn a_thread(app: &TestApp, owner: &Person, team: &str) -> (String, Value) {
    let added = app
        .api_post(
            owner,
            &format!("/teams/{team}/threads"),
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 2, "location": "Shelf A" }),
        )
        .await;
    let thread = added.assert_status(StatusCode::CREATED)["thread"].clone();
    let path = format!("/teams/{team}/threads/{}", thread["id"].as_str().unwrap());
    (path, thread)
}

/// One machine in the team: its path and its fields as a full edit sends them.
async fn a_machine(app: &TestApp, owner: &Person, team: &str) -> (String, Value) {
    let fields = json!({ "name": "Tajima 6-head", "heads": 6, "needles_per_head": 15, "notes": "Bay 2" });
    let added = app.api_post(owner, &format!("/teams/{team}/machines"), fields.clone()).await;
    let machine = &added.assert_status(StatusCode::CREATED)["machine"];
    assert_eq!(machine["version"], 1);
    let path = format!("/teams/{team}/machines/{}", machine["id"].as_str().unwrap());
    (path, fields)
}

/// The full edit the thread page sends: every field as it was read, with `quantity` and the
/// version the page was opened at.
fn thread_edit(quantity: f64, version: i32) -> Value {
    json!({ "line": "madeira-polyneon", "code": "1800", "quantity": quantity, "location": "Shelf B", "version": version })
}

fn machine_edit(fields: &Value, version: i32) -> Value {
    let mut edit = fields.clone();
    edit["notes"] = json!("Bay 3");
    edit["version"] = json!(version);
    edit
}

async fn version_of(app: &TestApp, who: &Person, path: &str, what: &str) -> Value {
    let answer = app.api_get(who, path).await;
    answer.assert_status(StatusCode::OK)[what]["version"].clone()
}

/// Sets every stored thread's and machine's version, as only 2^31 changes would.
async fn set_stored_versions(app: &TestApp, version: i32) {
    let backend = app.db.get_database_backend();
    for table in ["inventory_threads", "machines"] {
        let sql = format!("UPDATE {table} SET version = {version}");
        app.db.execute_raw(Statement::from_string(backend, sql)).await.unwrap();
    }
}

#[rstest]
#[tokio::test]
async fn an_edit_opened_before_an_adjustment_is_refused_and_the_adjustment_stays(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = a_team(&app).await;
    let (path, thread) = a_thread(&app, &owner, &team).await;
    assert_eq!(thread["version"], 1);

    // Someone opens the edit page (version 1, 2 spools); meanwhile a spool is put back.
    let adjusted = app.api_post(&owner, &format!("{path}/adjust"), json!({ "delta": 1 })).await;
    let adjusted = &adjusted.assert_status(StatusCode::OK)["thread"];
    assert_eq!((adjusted["quantity"].clone(), adjusted["version"].clone()), (json!(3.0), json!(2)));

    let stale = app.api(&owner, Method::PUT, &path, Some(thread_edit(2.0, 1))).await;
    stale.assert_api_error(StatusCode::CONFLICT, "edit_conflict");
    let stored = app.api_get(&owner, &path).await;
    let stored = &stored.assert_status(StatusCode::OK)["thread"];
    assert_eq!((stored["quantity"].clone(), stored["location"].clone()), (json!(3.0), json!("Shelf A")));

    // Made again from the version the adjustment left, the edit is written.
    let again = app.api(&owner, Method::PUT, &path, Some(thread_edit(3.0, 2))).await;
    let again = &again.assert_status(StatusCode::OK)["thread"];
    assert_eq!((again["location"].clone(), again["version"].clone()), (json!("Shelf B"), json!(3)));

    // A refused adjustment changes nothing, its version included.
    app.api_post(&owner, &format!("{path}/adjust"), json!({ "delta": -10 }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "negative_quantity");
    assert_eq!(version_of(&app, &owner, &path, "thread").await, 3);
}

#[rstest]
#[tokio::test]
async fn an_import_raises_the_version_of_each_entry_it_replaces_and_a_bulk_add_leaves_owned_ones(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = a_team(&app).await;
    let (path, _thread) = a_thread(&app, &owner, &team).await;

    // A bulk add skips the codes already owned: that entry is not changed, so keeps its version.
    let bulk = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads/bulk"),
            json!({ "line": "madeira-polyneon", "codes": ["1800", "1801"] }),
        )
        .await;
    assert_eq!(bulk.assert_status(StatusCode::CREATED)["already_owned"], json!(["1800"]));
    assert_eq!(version_of(&app, &owner, &path, "thread").await, 1);

    let csv = "line,code,quantity,location\nmadeira-polyneon,1800,7,Drawer 1\n";
    let import = app
        .api_post(&owner, &format!("/teams/{team}/threads/import"), json!({ "csv": csv, "commit": true }))
        .await;
    assert_eq!(import.assert_status(StatusCode::OK)["updated"], 1);
    assert_eq!(version_of(&app, &owner, &path, "thread").await, 2);
    app.api(&owner, Method::PUT, &path, Some(thread_edit(2.0, 1)))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");
    assert_eq!(app.api_get(&owner, &path).await.body["thread"]["quantity"], 7.0);
}

#[rstest]
#[tokio::test]
async fn logging_or_removing_maintenance_raises_the_machines_version(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = a_team(&app).await;
    let (path, fields) = a_machine(&app, &owner, &team).await;

    let logged = app
        .api_post(
            &owner,
            &format!("{path}/maintenance"),
            json!({ "performed_on": "2026-01-05", "kind": "oiling", "stitch_counter": 1_000 }),
        )
        .await;
    let entry = logged.assert_status(StatusCode::CREATED)["entry"]["id"].as_str().unwrap().to_owned();
    assert_eq!(version_of(&app, &owner, &path, "machine").await, 2, "the log entry changed the machine");
    // An edit opened before the oiling was logged shows the machine as it was then.
    app.api(&owner, Method::PUT, &path, Some(machine_edit(&fields, 1)))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    app.api_delete(&owner, &format!("{path}/maintenance/{entry}"))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    assert_eq!(version_of(&app, &owner, &path, "machine").await, 3);
    app.api(&owner, Method::PUT, &path, Some(machine_edit(&fields, 2)))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    let edited = app.api(&owner, Method::PUT, &path, Some(machine_edit(&fields, 3))).await;
    let edited = &edited.assert_status(StatusCode::OK)["machine"];
    assert_eq!((edited["notes"].clone(), edited["version"].clone()), (json!("Bay 3"), json!(4)));
    // Removing an entry that is not there changes nothing.
    app.api_delete(&owner, &format!("{path}/maintenance/{entry}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(version_of(&app, &owner, &path, "machine").await, 4);
}

#[rstest]
#[tokio::test]
async fn the_largest_version_is_followed_by_1_and_every_change_still_works(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = a_team(&app).await;
    let (thread, _) = a_thread(&app, &owner, &team).await;
    let (machine, fields) = a_machine(&app, &owner, &team).await;
    set_stored_versions(&app, i32::MAX).await;

    let adjusted = app.api_post(&owner, &format!("{thread}/adjust"), json!({ "delta": 1 })).await;
    assert_eq!(adjusted.assert_status(StatusCode::OK)["thread"]["version"], 1);
    set_stored_versions(&app, i32::MAX).await;
    let edited = app.api(&owner, Method::PUT, &thread, Some(thread_edit(1.0, i32::MAX))).await;
    assert_eq!(edited.assert_status(StatusCode::OK)["thread"]["version"], 1);
    // The edit from before the wrap is still refused.
    app.api(&owner, Method::PUT, &thread, Some(thread_edit(1.0, i32::MAX)))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    set_stored_versions(&app, i32::MAX).await;
    app.api_post(
        &owner,
        &format!("{machine}/maintenance"),
        json!({ "performed_on": "2026-01-05", "kind": "oiling" }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    assert_eq!(version_of(&app, &owner, &machine, "machine").await, 1);
    set_stored_versions(&app, i32::MAX).await;
    let edited = app.api(&owner, Method::PUT, &machine, Some(machine_edit(&fields, i32::MAX))).await;
    assert_eq!(edited.assert_status(StatusCode::OK)["machine"]["version"], 1);

    // No entry is ever read at version 0 or below: such an edit is the request's mistake.
    for version in [0, -1, i32::MIN] {
        app.api(&owner, Method::PUT, &thread, Some(thread_edit(1.0, version)))
            .await
            .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    }
}
