//! The machine inventory and maintenance log API (docs/behaviour.md, "Machines and maintenance").

use reqwest::{Method, StatusCode};
use rstest::rstest;
use serde_json::{Value, json};

use crate::helpers::{Backend, spawn_app};

#[rstest]
#[tokio::test]
async fn a_machine_is_added_edited_from_its_version_and_its_maintenance_logged(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let machines = format!("/teams/{team}/machines");

    let body = json!({
        "name": "Tajima 6-head", "brand": "Tajima", "model": "TMEZ-SC", "serial_number": "T123",
        "heads": 6, "needles_per_head": 15, "max_spm": 1200, "typical_spm": 650,
        "hoops": [{ "name": "Cap", "width_mm": 130, "height_mm": 60 }, { "width_mm": 360, "height_mm": 500 }],
        "purchase_date": "2025-06-01", "notes": "Bay 2"
    });
    let added = app.api_post(&owner, &machines, body.clone()).await;
    let machine = added.assert_status(StatusCode::CREATED)["machine"].clone();
    assert_eq!(machine["status"], "active");
    assert_eq!(machine["heads"], 6);
    assert_eq!(machine["hoops"][1], json!({ "name": "", "width_mm": 360, "height_mm": 500 }));
    assert_eq!(machine["version"], 1);
    let kinds: Vec<&str> =
        machine["due"].as_array().unwrap().iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["oiling", "hook_cleaning", "needle_change", "service"],
        "soonest first, `other` has no interval"
    );
    // Issue 52: "A schedule counts from when the machine was added or last serviced, so nothing
    // is overdue on day one" (bought in 2025, added today).
    let today = time::OffsetDateTime::now_utc().date();
    let iso = |d: time::Date| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    assert_eq!(machine["due"][0]["never_done"], true);
    assert_eq!(machine["due"][0]["date"], iso(today + time::Duration::days(7)), "counted from today");
    assert!(machine["due"].as_array().unwrap().iter().all(|due| due["overdue"] == false), "{machine}");
    assert_eq!(
        machine["intervals"][0],
        json!({ "kind": "oiling", "days": 7, "stitches": 1_000_000 }),
        "the defaults of each kind"
    );
    let id = machine["id"].as_str().unwrap().to_owned();

    // Oiled today, with the stitch counter read: next oiling in 7 days or 1,000,000 stitches.
    let logged = app
        .api_post(&owner, &format!("{machines}/{id}/maintenance"), json!({ "performed_on": iso(today), "kind": "oiling", "stitch_counter": 2_000_000, "notes": "Hook oiled" }))
        .await;
    let entry = logged.assert_status(StatusCode::CREATED)["entry"].clone();
    assert_eq!(entry["kind"], "oiling");
    let detail = app.api_get(&owner, &format!("{machines}/{id}")).await;
    let detail = detail.assert_status(StatusCode::OK)["machine"].clone();
    assert_eq!(detail["maintenance"][0]["notes"], "Hook oiled");
    assert_eq!(detail["stitch_counter"], 2_000_000);
    let oiling = detail["due"].as_array().unwrap().iter().find(|d| d["kind"] == "oiling").unwrap().clone();
    assert_eq!(oiling["date"], iso(today + time::Duration::days(7)));
    assert_eq!(oiling["at_stitches"], 3_000_000);
    assert_eq!((oiling["overdue"].clone(), oiling["never_done"].clone()), (json!(false), json!(false)));
    // A later reading past the mark makes it due before the date.
    app.api_post(
        &owner,
        &format!("{machines}/{id}/maintenance"),
        json!({ "performed_on": iso(today), "kind": "other", "stitch_counter": 3_100_000 }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let later = app.api_get(&owner, &format!("{machines}/{id}")).await;
    let oiling = later.body["machine"]["due"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "oiling")
        .unwrap()
        .clone();
    assert_eq!(oiling["overdue"], true, "{oiling}");

    // Each log entry raised the machine's version: the edit is made from the version last read.
    assert_eq!(later.body["machine"]["version"], 3);
    let mut edit = body.clone();
    edit["status"] = json!("maintenance");
    edit["version"] = later.body["machine"]["version"].clone();
    let edited = app.api(&owner, Method::PUT, &format!("{machines}/{id}"), Some(edit.clone())).await;
    assert_eq!(edited.assert_status(StatusCode::OK)["machine"]["status"], "maintenance");
    app.api(&owner, Method::PUT, &format!("{machines}/{id}"), Some(edit))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    let listed = app.api_get(&owner, &machines).await;
    let listed = &listed.assert_status(StatusCode::OK)["machines"];
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert!(listed[0].get("maintenance").is_none(), "the list leaves the logs out");

    let entry_id = entry["id"].as_str().unwrap();
    app.api_delete(&owner, &format!("{machines}/{id}/maintenance/{entry_id}"))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    app.api_delete(&owner, &format!("{machines}/{id}/maintenance/{entry_id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.api_delete(&owner, &format!("{machines}/{id}")).await.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(app.api_get(&owner, &machines).await.body["machines"], json!([]));
}

// Issue 52: "Intervals can be set per machine, in days and/or stitches, with sensible defaults by
// kind."
#[rstest]
#[tokio::test]
async fn each_machine_keeps_its_own_intervals_and_a_service_restarts_every_schedule(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let machines = format!("/teams/{team}/machines");
    let today = time::OffsetDateTime::now_utc().date();
    let iso = |d: time::Date| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
    let body = json!({
        "name": "Brother PR1050X",
        "intervals": [
            { "kind": "oiling", "days": 2, "stitches": null },
            { "kind": "needle_change", "days": null, "stitches": 2_000_000 },
            { "kind": "service", "days": null, "stitches": null },
        ]
    });
    let added = app.api_post(&owner, &machines, body.clone()).await;
    let machine = added.assert_status(StatusCode::CREATED)["machine"].clone();
    assert_eq!(
        machine["intervals"],
        json!([
            { "kind": "oiling", "days": 2, "stitches": null },
            { "kind": "hook_cleaning", "days": 30, "stitches": 5_000_000 },
            { "kind": "needle_change", "days": null, "stitches": 2_000_000 },
            { "kind": "service", "days": null, "stitches": null },
        ]),
        "the kinds left out keep their defaults"
    );
    // Needles by stitches alone have no mark until the counter is read; service is not scheduled.
    let due = |machine: &Value| -> Vec<(String, Value, Value)> {
        machine["due"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["kind"].as_str().unwrap().to_owned(), d["date"].clone(), d["at_stitches"].clone()))
            .collect()
    };
    assert_eq!(
        due(&machine),
        [
            ("oiling".to_owned(), json!(iso(today + time::Duration::days(2))), Value::Null),
            ("hook_cleaning".to_owned(), json!(iso(today + time::Duration::days(30))), Value::Null),
        ]
    );
    let id = machine["id"].as_str().unwrap().to_owned();

    // A service, with the counter read, counts for every kind.
    app.api_post(
        &owner,
        &format!("{machines}/{id}/maintenance"),
        json!({ "performed_on": iso(today), "kind": "service", "stitch_counter": 40_000_000 }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let serviced = app.api_get(&owner, &format!("{machines}/{id}")).await.body["machine"].clone();
    assert_eq!(
        due(&serviced),
        [
            ("oiling".to_owned(), json!(iso(today + time::Duration::days(2))), Value::Null),
            ("hook_cleaning".to_owned(), json!(iso(today + time::Duration::days(30))), json!(45_000_000)),
            ("needle_change".to_owned(), Value::Null, json!(42_000_000)),
        ]
    );
    assert!(serviced["due"].as_array().unwrap().iter().all(|d| d["never_done"] == false));

    // Changed in an edit; a bad one names its place.
    let mut edit = body.clone();
    edit["intervals"] = json!([{ "kind": "oiling", "days": 14, "stitches": 500_000 }]);
    edit["version"] = serviced["version"].clone();
    let edited = app.api(&owner, Method::PUT, &format!("{machines}/{id}"), Some(edit)).await;
    assert_eq!(
        edited.assert_status(StatusCode::OK)["machine"]["intervals"][0],
        json!({ "kind": "oiling", "days": 14, "stitches": 500_000 })
    );
    let bad = app
        .api_post(&owner, &machines, json!({ "name": "X", "intervals": [{ "kind": "oiling", "days": 0 }, { "kind": "other", "days": 3 }] }))
        .await;
    bad.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let fields: Vec<&str> =
        bad.body["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["intervals[0].days", "intervals[1].kind"]);
}

#[rstest]
#[tokio::test]
async fn bad_machines_and_log_entries_name_their_fields(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let machines = format!("/teams/{team}/machines");
    let answer = app
        .api_post(&owner, &machines, json!({ "name": "", "heads": 0, "max_spm": 800, "typical_spm": 900, "hoops": [{ "width_mm": 1, "height_mm": 100 }], "purchase_date": "01/06/2025" }))
        .await;
    answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let fields: Vec<&str> =
        answer.body["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["name", "heads", "typical_spm", "hoops[0].width_mm", "purchase_date"]);
    let bad_status = app.api_post(&owner, &machines, json!({ "name": "X", "status": "broken" })).await;
    assert_eq!(bad_status.body["fields"][0]["field"], "status", "{bad_status:?}");

    let id =
        app.api_post(&owner, &machines, json!({ "name": "Brother PR1050X" })).await.body["machine"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
    for (body, field) in [
        (json!({ "performed_on": "2026-13-01", "kind": "oiling" }), "performed_on"),
        (json!({ "performed_on": "2999-01-01", "kind": "oiling" }), "performed_on"),
        (json!({ "performed_on": "2026-01-01", "kind": "polishing" }), "kind"),
    ] {
        let answer = app.api_post(&owner, &format!("{machines}/{id}/maintenance"), body).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], field, "{answer:?}");
    }
}

#[rstest]
#[tokio::test]
async fn viewers_read_machines_and_other_teams_see_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let viewer = app.person("viewer").await;
    let outsider = app.person("outsider").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let elsewhere = app.team(&outsider, "Elsewhere").await;
    let machines = format!("/teams/{team}/machines");
    let id =
        app.api_post(&owner, &machines, json!({ "name": "Brother PR1050X" })).await.body["machine"]["id"]
            .as_str()
            .unwrap()
            .to_owned();

    app.api_get(&viewer, &format!("{machines}/{id}")).await.assert_status(StatusCode::OK);
    let writes: [(Method, String, Value); 4] = [
        (Method::POST, machines.clone(), json!({ "name": "Another" })),
        (Method::PUT, format!("{machines}/{id}"), json!({ "name": "Renamed", "version": 1 })),
        (Method::DELETE, format!("{machines}/{id}"), json!({})),
        (
            Method::POST,
            format!("{machines}/{id}/maintenance"),
            json!({ "performed_on": "2026-01-01", "kind": "oiling" }),
        ),
    ];
    for (method, path, body) in writes {
        app.api(&viewer, method.clone(), &path, Some(body.clone()))
            .await
            .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
        app.api(&outsider, method, &path, Some(body))
            .await
            .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    app.api_get(&outsider, &format!("/teams/{elsewhere}/machines/{id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.api_get(&outsider, &machines).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

/// The largest `u64` was once stored as the largest `i64`, a reading nobody took: a number is
/// stored as given or refused, never clipped.
#[rstest]
#[tokio::test]
async fn a_stitch_counter_beyond_what_is_stored_exactly_is_refused_naming_the_field(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Counters").await;
    let added = app.api_post(&owner, &format!("/teams/{team}/machines"), json!({ "name": "Brother" })).await;
    let id = added.assert_status(StatusCode::CREATED)["machine"]["id"].as_str().unwrap().to_owned();
    let log = format!("/teams/{team}/machines/{id}/maintenance");
    let reading =
        |counter: u64| json!({ "performed_on": "2025-07-01", "kind": "oiling", "stitch_counter": counter });

    for refused in [u64::MAX, 1 << 53] {
        let answer = app.api_post(&owner, &log, reading(refused)).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], "stitch_counter", "{answer:?}");
        assert_eq!(answer.body["fields"][0]["code"], "out_of_range", "{answer:?}");
    }
    let largest = (1_u64 << 53) - 1;
    let answer = app.api_post(&owner, &log, reading(largest)).await;
    assert_eq!(answer.assert_status(StatusCode::CREATED)["entry"]["stitch_counter"], largest);
    let machine = app.api_get(&owner, &format!("/teams/{team}/machines/{id}")).await;
    let machine = &machine.assert_status(StatusCode::OK)["machine"];
    assert_eq!(machine["stitch_counter"], largest, "stored as given");
    assert_eq!(machine["maintenance"].as_array().unwrap().len(), 1, "nothing stored for the refused ones");

    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();
    let counter = &doc["components"]["schemas"]["LogInput"]["properties"]["stitch_counter"];
    assert_eq!(counter["maximum"].as_u64(), Some(largest), "{counter}");
}
