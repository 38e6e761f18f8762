//! The thread inventory API (docs/behaviour.md, "Thread inventory").

use reqwest::StatusCode;
use rstest::rstest;
use sea_orm::{ConnectionTrait as _, Statement, TransactionTrait as _};
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, TestApp, spawn_app, spawn_second_server},
    team_helpers::Person,
};

async fn owner_with_team(app: &TestApp) -> (Person, String) {
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    (owner, team)
}

/// The threads of a list page without the fields named, which differ between two copies of one
/// inventory (ids, times, versions).
pub fn threads_without(page: &Value, fields: &[&str]) -> Vec<Value> {
    page["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|thread| {
            let mut thread = thread.clone();
            for field in fields {
                thread.as_object_mut().unwrap().remove(*field);
            }
            thread
        })
        .collect()
}

fn codes(page: &Value) -> Vec<String> {
    page["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["code"].as_str().unwrap_or("custom").to_owned())
        .collect()
}

#[rstest]
#[tokio::test]
async fn a_thread_is_added_from_the_catalogue_and_edited_from_its_version(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");

    let added = app
        .api_post(&owner, &threads, json!({ "line": "madeira-polyneon", "code": "01800", "quantity": 2.5, "location": "Shelf A", "reorder_point": 1, "cost_per_spool": 4.5 }))
        .await;
    let thread = added.assert_status(StatusCode::CREATED)["thread"].clone();
    assert_eq!(thread["code"], "1800", "the code as the maker prints it");
    assert_eq!(thread["name"], "Black");
    assert_eq!(thread["colour"], "#2F3032");
    assert_eq!(thread["line_name"], "Madeira Polyneon");
    assert_eq!(thread["fibre"], "polyester");
    assert_eq!(thread["quantity"], 2.5);
    assert_eq!(thread["low"], false);
    assert_eq!(thread["version"], 1);
    assert_eq!(thread["updated_by_email"], "owner@example.com");
    let id = thread["id"].as_str().unwrap();

    let again = app
        .api_post(&owner, &threads, json!({ "line": "Madeira Polyneon", "code": "1800", "quantity": 1 }))
        .await;
    again.assert_api_error(StatusCode::CONFLICT, "already_in_inventory");

    let edit = json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 0.5, "location": "Shelf B", "reorder_point": 1, "version": 1 });
    let edited = app.api(&owner, reqwest::Method::PUT, &format!("{threads}/{id}"), Some(edit.clone())).await;
    let edited = edited.assert_status(StatusCode::OK)["thread"].clone();
    assert_eq!(
        (edited["quantity"].clone(), edited["version"].clone(), edited["low"].clone()),
        (json!(0.5), json!(2), json!(true))
    );
    assert_eq!(edited["cost_per_spool"], Value::Null, "a full edit replaces every field");
    // A second edit made from version 1 would overwrite the first: refused.
    let stale = app.api(&owner, reqwest::Method::PUT, &format!("{threads}/{id}"), Some(edit)).await;
    stale.assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    // A change answers with the entry as it wrote it: a member's tap and typed count name the
    // member as who changed it last, and raise the version.
    let member = app.person("member").await;
    app.join(&owner, &team, &member, "member").await;
    let shown = |answer: &Value| {
        let thread = &answer["thread"];
        (thread["quantity"].clone(), thread["version"].clone(), thread["updated_by_email"].clone())
    };
    let tapped = app.api_post(&member, &format!("{threads}/{id}/adjust"), json!({ "delta": 1 })).await;
    assert_eq!(
        shown(tapped.assert_status(StatusCode::OK)),
        (json!(1.5), json!(3), json!("member@example.com"))
    );
    let typed = json!({ "quantity": 4, "expected": 1.5 });
    let counted = app.api_post(&member, &format!("{threads}/{id}/quantity"), typed).await;
    assert_eq!(
        shown(counted.assert_status(StatusCode::OK)),
        (json!(4.0), json!(4), json!("member@example.com"))
    );
    // A change of an entry the team does not have is a 404, whatever it would have changed.
    let missing = format!("{threads}/no-such-thread");
    let put = json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1, "version": 1 });
    for answer in [
        app.api_post(&member, &format!("{missing}/adjust"), json!({ "delta": -100 })).await,
        app.api_post(&member, &format!("{missing}/quantity"), json!({ "quantity": 1, "expected": 0 })).await,
        app.api(&member, reqwest::Method::PUT, &missing, Some(put)).await,
        app.api_delete(&member, &missing).await,
    ] {
        answer.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }

    let fetched = app.api_get(&owner, &format!("{threads}/{id}")).await;
    assert_eq!(fetched.assert_status(StatusCode::OK)["thread"]["location"], "Shelf B");
    app.api_delete(&owner, &format!("{threads}/{id}")).await.assert_status(StatusCode::NO_CONTENT);
    app.api_get(&owner, &format!("{threads}/{id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

#[rstest]
#[tokio::test]
async fn bad_entries_name_each_field(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let answer = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads"),
            json!({ "line": "madeira-polyneon", "code": "no-such", "quantity": 1.234, "location": "x".repeat(101) }),
        )
        .await;
    answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let fields: Vec<(&str, &str)> = answer.body["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap(), f["code"].as_str().unwrap()))
        .collect();
    assert_eq!(fields, [("code", "unknown_code"), ("quantity", "bad_number"), ("location", "too_long")]);
    let custom = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads"),
            json!({ "name": "Fair gold", "colour": "gold", "quantity": 1 }),
        )
        .await;
    assert_eq!(custom.body["fields"][0]["field"], "colour");
}

#[rstest]
#[tokio::test]
async fn quantity_adjustments_made_at_once_all_count(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let added = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads"),
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 5 }),
        )
        .await;
    let id = added.body["thread"]["id"].as_str().unwrap().to_owned();
    let adjust = format!("/teams/{team}/threads/{id}/adjust");

    // Ten people tapping at the same moment: +1 five times, -0.5 five times.
    let mut taps = tokio::task::JoinSet::new();
    for n in 0..10 {
        let request = app
            .client
            .post(app.url(&format!("/api/v2{adjust}")))
            .bearer_auth(&owner.token)
            .json(&json!({ "delta": if n % 2 == 0 { 1.0 } else { -0.5 } }));
        taps.spawn(async move { request.send().await.unwrap().status() });
    }
    while let Some(status) = taps.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::OK);
    }
    let thread = app.api_get(&owner, &format!("/teams/{team}/threads/{id}")).await;
    assert_eq!(thread.body["thread"]["quantity"], 7.5, "5 + 5 x 1 - 5 x 0.5");

    let too_many = app.api_post(&owner, &adjust, json!({ "delta": -8 })).await;
    too_many.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "negative_quantity");
    assert_eq!(
        app.api_get(&owner, &format!("/teams/{team}/threads/{id}")).await.body["thread"]["quantity"],
        7.5
    );
    app.api_post(&owner, &adjust, json!({ "delta": 0.001 }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn viewers_read_members_write_and_other_teams_see_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let viewer = app.person("viewer").await;
    let member = app.person("member").await;
    let outsider = app.person("outsider").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    app.join(&owner, &team, &member, "member").await;
    let other_team = app.team(&outsider, "Elsewhere").await;
    let threads = format!("/teams/{team}/threads");

    let added = app
        .api_post(&member, &threads, json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1 }))
        .await;
    let id = added.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.api_get(&viewer, &threads).await.assert_status(StatusCode::OK)["total"], 1);
    app.api_get(&viewer, &format!("{threads}/export.csv")).await.assert_status(StatusCode::OK);
    for (method, path, body) in [
        (
            reqwest::Method::POST,
            threads.clone(),
            json!({ "line": "madeira-polyneon", "code": "1801", "quantity": 1 }),
        ),
        (
            reqwest::Method::PUT,
            format!("{threads}/{id}"),
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 3, "version": 1 }),
        ),
        (reqwest::Method::POST, format!("{threads}/{id}/adjust"), json!({ "delta": 1 })),
        (reqwest::Method::DELETE, format!("{threads}/{id}"), json!({})),
        (
            reqwest::Method::POST,
            format!("{threads}/bulk"),
            json!({ "line": "madeira-polyneon", "codes": ["1801"] }),
        ),
        (
            reqwest::Method::POST,
            format!("{threads}/import"),
            json!({ "csv": "line,code,quantity\nmadeira-polyneon,1801,1\n", "commit": true }),
        ),
    ] {
        let viewer_answer = app.api(&viewer, method.clone(), &path, Some(body.clone())).await;
        viewer_answer.assert_api_error(StatusCode::FORBIDDEN, "forbidden");
        let outsider_answer = app.api(&outsider, method.clone(), &path, Some(body)).await;
        outsider_answer.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    app.api_get(&outsider, &threads).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    // The thread's id under the outsider's own team: not theirs, so not found.
    app.api_get(&outsider, &format!("/teams/{other_team}/threads/{id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.api_post(&outsider, &format!("/teams/{other_team}/threads/{id}/adjust"), json!({ "delta": 5 }))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.api_get(&owner, &format!("{threads}/{id}")).await.body["thread"]["quantity"], 1.0);
}

#[rstest]
#[tokio::test]
async fn csv_export_then_import_gives_the_same_inventory(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let import = format!("/teams/{team}/threads/import");
    let file = "\u{feff}Brand;Number;Qty;Storage;Reorder at;Cost;Notes\r\n\
                Madeira Polyneon;1800;2,5;\"Box 1; top\";1;4,50;\"=first\"\r\n\
                Madeira Polyneon;1801;0,25;Box 2;;;\r\n";

    let preview = app.api_post(&owner, &import, json!({ "csv": file })).await;
    let body = preview.assert_status(StatusCode::OK);
    assert_eq!(
        (body["valid"].clone(), body["committed"].clone(), body["added"].clone()),
        (json!(true), json!(false), json!(2))
    );
    assert_eq!(body["rows"][0]["action"], "add");
    assert_eq!(
        app.api_get(&owner, &format!("/teams/{team}/threads")).await.body["total"],
        0,
        "a preview writes nothing"
    );

    let committed = app.api_post(&owner, &import, json!({ "csv": file, "commit": true })).await;
    assert_eq!(committed.assert_status(StatusCode::OK)["committed"], true);

    let export = app
        .client
        .get(app.url(&format!("/api/v2/teams/{team}/threads/export.csv")))
        .bearer_auth(&owner.token)
        .send()
        .await
        .unwrap();
    assert_eq!(export.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(export.headers()["content-disposition"].to_str().unwrap().contains("threads.csv"));
    let exported = export.text().await.unwrap();
    assert!(
        exported.contains("madeira-polyneon,1800,Black,#2F3032,2.5,,Box 1; top,1,4.5,'=first"),
        "{exported}"
    );

    // Into another team: the same inventory.
    let copy = app.team(&owner, "Copy").await;
    let imported = app
        .api_post(
            &owner,
            &format!("/teams/{copy}/threads/import"),
            json!({ "csv": exported, "commit": true }),
        )
        .await;
    assert_eq!(imported.assert_status(StatusCode::OK)["added"], 2);
    let strip = |page: Value| threads_without(&page, &["id", "updated_at", "version"]);
    let original = strip(app.api_get(&owner, &format!("/teams/{team}/threads")).await.body);
    let copied = strip(app.api_get(&owner, &format!("/teams/{copy}/threads")).await.body);
    assert_eq!(original, copied);
    assert_eq!(original[0]["notes"], "=first");
    // And into the same team: every row updates its entry, nothing changes.
    let same = app.api_post(&owner, &import, json!({ "csv": exported, "commit": true })).await;
    assert_eq!((same.body["added"].clone(), same.body["updated"].clone()), (json!(0), json!(2)));
    assert_eq!(strip(app.api_get(&owner, &format!("/teams/{team}/threads")).await.body), original);
}

#[rstest]
#[tokio::test]
async fn an_import_with_bad_rows_is_previewed_and_refused_whole(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let import = format!("/teams/{team}/threads/import");
    let file = "line,code,quantity\nmadeira-polyneon,1800,1\nmadeira-polyneon,99999,1\nmadeira-polyneon,1801,lots\nmadeira-polyneon,1800,2\n";

    let preview = app.api_post(&owner, &import, json!({ "csv": file })).await;
    let body = preview.assert_status(StatusCode::OK);
    assert_eq!(body["valid"], false);
    let problems: Vec<(u64, String)> = body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| {
            row["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (row["line"].as_u64().unwrap(), p["code"].as_str().unwrap().to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        problems,
        [(3, "unknown_code".to_owned()), (4, "bad_number".to_owned()), (5, "duplicate".to_owned())]
    );

    let commit = app.api_post(&owner, &import, json!({ "csv": file, "commit": true })).await;
    commit.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "import_invalid");
    assert_eq!(
        app.api_get(&owner, &format!("/teams/{team}/threads")).await.body["total"],
        0,
        "all or nothing"
    );
    app.api_post(&owner, &import, json!({ "csv": "" }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "import_unreadable");
}

#[rstest]
#[tokio::test]
async fn many_codes_are_added_at_once_and_the_list_searches_them(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    app.api_post(&owner, &threads, json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1 }))
        .await;

    let unknown = app
        .api_post(
            &owner,
            &format!("{threads}/bulk"),
            json!({ "line": "madeira-polyneon", "codes": ["1801", "nope"] }),
        )
        .await;
    unknown.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(unknown.body["fields"][0]["field"], "codes[1]");

    let bulk = app
        .api_post(
            &owner,
            &format!("{threads}/bulk"),
            json!({ "line": "madeira-polyneon", "codes": ["1801, 1610\n1611", "1800"], "quantity": 2 }),
        )
        .await;
    let body = bulk.assert_status(StatusCode::CREATED);
    assert_eq!(body["added"].as_array().unwrap().len(), 3);
    assert_eq!(body["already_owned"], json!(["1800"]));
    app.api_post(
        &owner,
        &threads,
        json!({ "name": "Fair gold", "colour": "#C9A227", "quantity": 0, "reorder_point": 1 }),
    )
    .await;

    let all = app.api_get(&owner, &threads).await;
    assert_eq!(codes(&all.body), ["1610", "1611", "1800", "1801", "custom"]);
    // The converter's "only threads we own": catalogue threads with their quantities.
    let owned = app.api_get(&owner, &format!("{threads}/owned")).await;
    let mut owned: Vec<(String, f64)> = owned.assert_status(StatusCode::OK)["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(t["line"], "madeira-polyneon");
            (t["code"].as_str().unwrap().to_owned(), t["quantity"].as_f64().unwrap())
        })
        .collect();
    owned.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        owned,
        [
            ("1610".to_owned(), 2.0),
            ("1611".to_owned(), 2.0),
            ("1800".to_owned(), 1.0),
            ("1801".to_owned(), 2.0)
        ]
    );
    let low = app.api_get(&owner, &format!("{threads}?low=true")).await;
    assert_eq!(codes(&low.body), ["custom"]);
    let by_text = app.api_get(&owner, &format!("{threads}?q=black")).await;
    assert_eq!(codes(&by_text.body), ["1800"]);
    let closest = app.api_get(&owner, &format!("{threads}?closest=%23303030&per_page=2")).await;
    assert_eq!(closest.body["total"], 5);
    assert_eq!(closest.body["threads"][0]["code"], "1800");
    assert!(closest.body["threads"][0]["distance"].as_f64().unwrap() < 2.0, "{:?}", closest.body);
    let paged = app.api_get(&owner, &format!("{threads}?sort=quantity&order=desc&per_page=2&page=2")).await;
    assert_eq!((paged.body["page"].clone(), paged.body["per_page"].clone()), (json!(2), json!(2)));
    assert_eq!(paged.body["threads"].as_array().unwrap().len(), 2);
    let bad = app.api_get(&owner, &format!("{threads}?closest=red&sort=colourfulness")).await;
    bad.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(bad.body["fields"].as_array().unwrap().len(), 2);
    let shopping = app
        .client
        .get(app.url(&format!("/api/v2{threads}/export.csv?low=true")))
        .bearer_auth(&owner.token)
        .send()
        .await
        .unwrap();
    assert!(shopping.headers()["content-disposition"].to_str().unwrap().contains("shopping-list.csv"));
    let text = shopping.text().await.unwrap();
    assert_eq!(text.lines().count(), 2, "the header and the one low thread: {text}");
}

/// Adds one spool of a Madeira Polyneon `code` as `who`; the entry's id.
async fn one_spool(app: &TestApp, who: &Person, threads: &str, code: &str) -> String {
    let added =
        app.api_post(who, threads, json!({ "line": "madeira-polyneon", "code": code, "quantity": 1 })).await;
    added.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned()
}

/// A `+1` on the entry of `code` made in SQL, without the server, raising its version as every
/// change must.
fn sql_tap(code: &str) -> String {
    format!(
        "UPDATE inventory_threads SET quantity = quantity + 100, version = version + 1 WHERE code = '{code}'"
    )
}

/// Codes and quantities as one server's copy of the team's entries has them: the list and the
/// converter's owned list are both made from the copy, and must agree.
async fn stock(app: &TestApp, who: &Person, threads: &str) -> Vec<(String, f64)> {
    let code_and_quantity =
        |t: &Value| (t["code"].as_str().unwrap().to_owned(), t["quantity"].as_f64().unwrap());
    let owned = app.api_get(who, &format!("{threads}/owned")).await;
    let mut owned: Vec<(String, f64)> = owned.assert_status(StatusCode::OK)["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(code_and_quantity)
        .collect();
    owned.sort_by(|a, b| a.0.cmp(&b.0));
    let listed = app.api_get(who, threads).await;
    let listed: Vec<(String, f64)> = listed.assert_status(StatusCode::OK)["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(code_and_quantity)
        .collect();
    assert_eq!(listed, owned);
    owned
}

/// The list is served from the server's copy of the entries, and each page reads its entries
/// whole with the addresses of who changed each last: a person whose address changes is shown
/// with the new one at once, without reading the copy again. A changed entry shows as it is now.
#[rstest]
#[tokio::test]
async fn the_list_names_who_changed_an_entry_by_their_address_now(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    let added = app
        .api_post(
            &owner,
            &threads,
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1, "notes": "Top shelf" }),
        )
        .await;
    added.assert_status(StatusCode::CREATED);
    let listed = app.api_get(&owner, &threads).await;
    let thread = listed.assert_status(StatusCode::OK)["threads"][0].clone();
    assert_eq!(thread["updated_by_email"], "owner@example.com");
    assert_eq!(thread["notes"], "Top shelf", "the whole entry");
    let reads = app.threads.reads();

    // The address changes (as a confirmed change of address does), and nothing in the inventory.
    let sql = "UPDATE users SET email = 'owner.new@example.com' WHERE email = 'owner@example.com'";
    let changed = app.db.execute_unprepared(sql).await.unwrap();
    assert_eq!(changed.rows_affected(), 1);

    // The page reads its entries with their changers' addresses: the new one shows at once, and
    // the copy the search runs over, which holds no address, is not read again.
    let listed = app.api_get(&owner, &threads).await;
    let thread = listed.assert_status(StatusCode::OK)["threads"][0].clone();
    assert_eq!(thread["updated_by_email"], "owner.new@example.com");
    assert_eq!(app.threads.reads(), reads, "served from the copy");

    // An entry changed shows as it is now.
    let id = thread["id"].as_str().unwrap();
    let edit = json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1, "notes": "Bottom drawer", "version": 1 });
    let edited = app.api(&owner, reqwest::Method::PUT, &format!("{threads}/{id}"), Some(edit)).await;
    edited.assert_status(StatusCode::OK);
    let listed = app.api_get(&owner, &threads).await;
    assert_eq!(listed.assert_status(StatusCode::OK)["threads"][0]["notes"], "Bottom drawer");
    assert_eq!(app.threads.reads(), reads + 1, "the copy read again after the change");
}

/// A change of one entry is one statement in a write transaction (`db::committed`). One that
/// fails half-way, here an edit into a
/// thread the team already has, must not leave its transaction open on a pooled connection,
/// holding SQLite's write lock: every later write would then wait for it, and fail.
#[rstest]
#[tokio::test]
async fn a_refused_change_of_one_entry_leaves_no_transaction_open(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    let add = async |code: &str| {
        let added = app
            .api_post(&owner, &threads, json!({ "line": "madeira-polyneon", "code": code, "quantity": 1 }))
            .await;
        added.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned()
    };
    let (black, white) = (add("1800").await, add("1801").await);

    for _ in 0..3 {
        let into_black = json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1, "version": 1 });
        let edited =
            app.api(&owner, reqwest::Method::PUT, &format!("{threads}/{white}"), Some(into_black)).await;
        edited.assert_api_error(StatusCode::CONFLICT, "already_in_inventory");
    }
    // Another connection takes the write lock at once (without a busy timeout: a lock still
    // held would refuse it), and lets it go.
    if backend == Backend::Sqlite {
        use sea_orm::sqlx::{Connection as _, Executor as _};
        let mut other = sea_orm::sqlx::SqliteConnection::connect(&app.database.url).await.unwrap();
        other.execute("PRAGMA busy_timeout = 0").await.unwrap();
        other.execute("BEGIN IMMEDIATE").await.expect("no connection of the server holds the write lock");
        other.execute("ROLLBACK").await.unwrap();
    }
    for expected in [2.0, 3.0, 4.0] {
        let started = std::time::Instant::now();
        let adjusted =
            app.api_post(&owner, &format!("{threads}/{black}/adjust"), json!({ "delta": 1 })).await;
        assert_eq!(adjusted.assert_status(StatusCode::OK)["thread"]["quantity"], expected);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "a +1 waited {:?}", started.elapsed());
    }
    let white = app.api_get(&owner, &format!("{threads}/{white}")).await;
    assert_eq!(
        white.assert_status(StatusCode::OK)["thread"]["code"],
        "1801",
        "the refused edit changed nothing"
    );
}

/// Each server keeps a team's thread list in memory between requests, and every change raises
/// the team's revision in the database: so every kind of change shows in the next list, on the
/// server that made it and on another server on the same database, whose copy was read before,
/// and so does a change made in the database without any server.
#[rstest]
#[tokio::test]
async fn every_change_shows_in_the_next_list_on_every_server(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let other = spawn_second_server(&app).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    let both = async |expected: &[(&str, f64)]| {
        let expected: Vec<(String, f64)> = expected.iter().map(|&(code, n)| (code.to_owned(), n)).collect();
        assert_eq!(stock(&app, &owner, &threads).await, expected, "on the first server");
        assert_eq!(stock(&other, &owner, &threads).await, expected, "on the second server");
    };
    both(&[]).await;

    let id = one_spool(&app, &owner, &threads, "1800").await;
    both(&[("1800", 1.0)]).await;

    other
        .api_post(&owner, &format!("{threads}/{id}/adjust"), json!({ "delta": 1 }))
        .await
        .assert_status(StatusCode::OK);
    both(&[("1800", 2.0)]).await;
    // A refused adjustment changes nothing.
    let refused = app.api_post(&owner, &format!("{threads}/{id}/adjust"), json!({ "delta": -5 })).await;
    refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "negative_quantity");
    both(&[("1800", 2.0)]).await;

    let bulk = json!({ "line": "madeira-polyneon", "codes": ["1801"], "quantity": 3 });
    app.api_post(&owner, &format!("{threads}/bulk"), bulk).await.assert_status(StatusCode::CREATED);
    both(&[("1800", 2.0), ("1801", 3.0)]).await;

    // Made from version 2, the one the tap left.
    let edit = json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 5, "version": 2 });
    let edited = other.api(&owner, reqwest::Method::PUT, &format!("{threads}/{id}"), Some(edit)).await;
    edited.assert_status(StatusCode::OK);
    both(&[("1800", 5.0), ("1801", 3.0)]).await;

    let csv = "line,code,quantity\nmadeira-polyneon,1801,7\nmadeira-polyneon,1610,1\n";
    let imported =
        app.api_post(&owner, &format!("{threads}/import"), json!({ "csv": csv, "commit": true })).await;
    assert_eq!(imported.assert_status(StatusCode::OK)["committed"], true);
    both(&[("1610", 1.0), ("1800", 5.0), ("1801", 7.0)]).await;

    other.api_delete(&owner, &format!("{threads}/{id}")).await.assert_status(StatusCode::NO_CONTENT);
    both(&[("1610", 1.0), ("1801", 7.0)]).await;

    // The database raises the revision itself (migration 10's triggers), so a change made there
    // without the server shows too, if it raises the entry's version as every change must.
    app.db
        .execute_unprepared(
            "UPDATE inventory_threads SET quantity = 1200, version = version + 1 WHERE code = '1801'",
        )
        .await
        .unwrap();
    both(&[("1610", 1.0), ("1801", 12.0)]).await;
    app.db.execute_unprepared("DELETE FROM inventory_threads WHERE code = '1610'").await.unwrap();
    both(&[("1801", 12.0)]).await;
}

/// The database gives a team's thread revision a new value with every change (migrations 10 and
/// 14). PostgreSQL's trigger does it once a transaction, noting the teams it raised in a setting local to the
/// transaction; a savepoint rolled back must undo the note with the raise, or the changes made
/// after it would commit without one, and every server would keep serving its old copy.
#[rstest]
#[tokio::test]
async fn the_database_raises_the_revision_in_every_transaction_that_changes_threads(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    one_spool(&app, &owner, &threads, "1800").await;
    let db_backend = app.db.get_database_backend();
    let revision = async || {
        let sql = format!("SELECT threads_revision AS r FROM teams WHERE public_id = '{team}'");
        let row = app.db.query_one_raw(Statement::from_string(db_backend, sql)).await.unwrap().unwrap();
        row.try_get::<i64>("", "r").unwrap()
    };
    let tap = sql_tap("1800");

    // The server keeps its copy of the list from here on, at the revision it read.
    assert_eq!(stock(&app, &owner, &threads).await, [("1800".to_owned(), 1.0)]);
    let before = revision().await;
    let txn = app.db.writes().begin().await.unwrap();
    txn.execute_unprepared("SAVEPOINT first").await.unwrap();
    txn.execute_unprepared(&tap).await.unwrap();
    txn.execute_unprepared("ROLLBACK TO SAVEPOINT first").await.unwrap();
    txn.execute_unprepared(&tap).await.unwrap();
    txn.execute_unprepared(&tap).await.unwrap();
    txn.commit().await.unwrap();
    let after = revision().await;
    assert_ne!(after, before, "a new revision");
    assert_eq!(stock(&app, &owner, &threads).await, [("1800".to_owned(), 3.0)]);

    // A change in a transaction of its own gives it a new one again.
    app.db.execute_unprepared(&tap).await.unwrap();
    assert_ne!(revision().await, after);
    assert_eq!(stock(&app, &owner, &threads).await, [("1800".to_owned(), 4.0)]);
}

/// PostgreSQL raises the revision at the commit (a deferred trigger), after the transaction has
/// locked its entries, as the server's own statement used to. Raised with a transaction's first
/// change, the team row stayed locked while it went on: a `+1` on another entry, holding that
/// entry and waiting for the team row, deadlocked with a transaction that then changed that
/// entry too (an import replacing entries, say). SQLite takes one writer at a time instead.
#[tokio::test]
async fn a_tap_while_a_long_transaction_changes_the_same_team_neither_waits_nor_deadlocks() {
    let app = spawn_app(Backend::Postgres).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    one_spool(&app, &owner, &threads, "1800").await;
    let other = one_spool(&app, &owner, &threads, "1801").await;

    let txn = app.db.writes().begin().await.unwrap();
    txn.execute_unprepared(&sql_tap("1800")).await.unwrap();
    let tapped = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        app.api_post(&owner, &format!("{threads}/{other}/adjust"), json!({ "delta": 1 })),
    )
    .await
    .expect("the +1 waited for the other transaction to end");
    tapped.assert_status(StatusCode::OK);
    txn.execute_unprepared(&sql_tap("1801")).await.unwrap();
    txn.commit().await.unwrap();
    assert_eq!(stock(&app, &owner, &threads).await, [("1800".to_owned(), 2.0), ("1801".to_owned(), 3.0)]);
}

/// Codes of the low threads with how many to buy of each, from the shopping list
/// (`low=true`); custom threads as "custom".
async fn shopping(app: &TestApp, who: &Person, threads: &str) -> Vec<(String, Value)> {
    let low = app.api_get(who, &format!("{threads}?low=true")).await;
    let low = low.assert_status(StatusCode::OK);
    low["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(t["low"], true, "{t}");
            (t["code"].as_str().unwrap_or("custom").to_owned(), t["to_buy"].clone())
        })
        .collect()
}

/// docs/behaviour.md, "Low stock": "Low: none left, or at or below the reorder point: the
/// thread's own, else the team's default (`default_reorder_point`)", and "how many to buy: the
/// fewest whole spools that take it above that reorder point".
#[rstest]
#[tokio::test]
async fn low_stock_needs_no_set_up_and_follows_the_team_default(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let member = app.person("member").await;
    app.join(&owner, &team, &member, "member").await;
    let threads = format!("/teams/{team}/threads");
    let settings = format!("/teams/{team}/settings");
    for thread in [
        json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 0 }),
        json!({ "line": "madeira-polyneon", "code": "1801", "quantity": 2 }),
        json!({ "line": "madeira-polyneon", "code": "1610", "quantity": 5, "reorder_point": 1 }),
        json!({ "name": "Fair gold", "colour": "#C9A227", "quantity": 4, "reorder_point": 6 }),
    ] {
        app.api_post(&member, &threads, thread).await.assert_status(StatusCode::CREATED);
    }

    // Without any set-up, none left is low.
    assert_eq!(
        shopping(&app, &member, &threads).await,
        [("1800".into(), json!(1)), ("custom".into(), json!(3))]
    );

    // The default reorder point: a whole number of spools, set by admins and owners.
    app.api_patch(&member, &settings, json!({ "default_reorder_point": 3 }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    for bad in [json!(-1), json!(1.5), json!("3")] {
        let refused = app.api_patch(&owner, &settings, json!({ "default_reorder_point": bad })).await;
        refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(refused.body["fields"][0]["field"], "default_reorder_point", "{bad}");
    }
    let set =
        app.api_patch(&owner, &format!("{settings}/default_reorder_point"), json!({ "value": 3 })).await;
    assert_eq!(set.assert_status(StatusCode::OK)["value"], 3);

    // It applies to every thread without a reorder point of its own: in the list's filter, in
    // each thread's `low`, and in the shopping list's CSV.
    assert_eq!(
        shopping(&app, &member, &threads).await,
        [("1800".into(), json!(4)), ("1801".into(), json!(2)), ("custom".into(), json!(3))]
    );
    let all = app.api_get(&member, &threads).await;
    let listed: Vec<(Value, Value, Value)> = all.assert_status(StatusCode::OK)["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["code"].clone(), t["low"].clone(), t["to_buy"].clone()))
        .collect();
    assert_eq!(listed[0], (json!("1610"), json!(false), json!(0)), "its own point, 1, wins");
    let id = all.body["threads"][2]["id"].as_str().unwrap().to_owned();
    assert_eq!(all.body["threads"][2]["code"], "1801");
    let one = app.api_get(&member, &format!("{threads}/{id}")).await;
    assert_eq!(one.assert_status(StatusCode::OK)["thread"]["low"], true);
    let adjusted = app.api_post(&member, &format!("{threads}/{id}/adjust"), json!({ "delta": 2 })).await;
    let adjusted = &adjusted.assert_status(StatusCode::OK)["thread"];
    assert_eq!(
        (adjusted["low"].clone(), adjusted["to_buy"].clone()),
        (json!(false), json!(0)),
        "4 is above 3"
    );
    let csv = app
        .client
        .get(app.url(&format!("/api/v2{threads}/export.csv?low=true")))
        .bearer_auth(&member.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 3, "the header, 1800 and the custom thread: {csv}");

    // Removed, the default no longer applies; none left is still low.
    app.api_patch(&owner, &settings, json!({ "default_reorder_point": null }))
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        shopping(&app, &member, &threads).await,
        [("1800".into(), json!(1)), ("custom".into(), json!(3))]
    );
}

/// docs/behaviour.md, "Thread inventory": a file with some bad rows can still bring in the good
/// ones, each bad one listed with why; a row naming a catalogue thread otherwise than the
/// catalogue is imported as the catalogue has it, with a warning.
#[rstest]
#[tokio::test]
async fn an_import_can_skip_its_bad_rows_and_warns_of_names_the_catalogue_gives_otherwise(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let import = format!("/teams/{team}/threads/import");
    let file = "line,code,name,quantity\nmadeira-polyneon,1801,White,1\nmadeira-polyneon,99999,,1\nmadeira-polyneon,1800,,lots\nmadeira-polyneon,1610,,2\n";

    let preview = app.api_post(&owner, &import, json!({ "csv": file })).await;
    let rows = preview.assert_status(StatusCode::OK)["rows"].clone();
    assert_eq!(rows[0]["warnings"][0]["code"], "name_differs", "{rows}");
    assert!(rows[0]["warnings"][0]["message"].as_str().unwrap().contains("\"White\""));
    assert_eq!(rows[3]["warnings"], json!([]));

    let committed =
        app.api_post(&owner, &import, json!({ "csv": file, "commit": true, "skip_invalid": true })).await;
    let body = committed.assert_status(StatusCode::OK);
    assert_eq!(
        (body["committed"].clone(), body["added"].clone(), body["skipped"].clone()),
        (json!(true), json!(2), json!(2))
    );
    let listed = app.api_get(&owner, &format!("/teams/{team}/threads")).await;
    let names: Vec<&str> =
        listed.body["threads"].as_array().unwrap().iter().map(|t| t["code"].as_str().unwrap()).collect();
    assert_eq!(names, ["1610", "1801"]);
    assert_ne!(listed.body["threads"][1]["name"], "White", "the catalogue's name is imported");

    let nothing_good = "line,code,quantity\nmadeira-polyneon,99999,1\n";
    app.api_post(&owner, &import, json!({ "csv": nothing_good, "commit": true, "skip_invalid": true }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "import_invalid");
}

#[rstest]
#[tokio::test]
async fn add_many_can_leave_out_the_codes_a_line_does_not_have(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let bulk = format!("/teams/{team}/threads/bulk");

    let added = app
        .api_post(
            &owner,
            &bulk,
            json!({ "line": "madeira-polyneon", "codes": ["1801 nope 1610 nada"], "skip_unknown": true }),
        )
        .await;

    let body = added.assert_status(StatusCode::CREATED);
    assert_eq!(body["added"].as_array().unwrap().len(), 2);
    assert_eq!(body["unknown"], json!(["nope", "nada"]));
    let none = app
        .api_post(
            &owner,
            &bulk,
            json!({ "line": "madeira-polyneon", "codes": ["nope"], "skip_unknown": true }),
        )
        .await;
    none.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

/// A count typed into the list replaces the count the person saw, and never a teammate's change
/// made since: then it is refused, naming both (docs/behaviour.md, "Thread inventory").
#[rstest]
#[tokio::test]
async fn a_typed_count_replaces_the_one_seen_and_never_a_change_made_since(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    let created = app
        .api_post(&owner, &threads, json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 3 }))
        .await;
    let id = created.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();
    let quantity = format!("{threads}/{id}/quantity");

    let set = app.api_post(&owner, &quantity, json!({ "quantity": 5, "expected": 3 })).await;
    assert_eq!(set.assert_status(StatusCode::OK)["thread"]["quantity"], 5.0);

    // A teammate's +1 since: 6 on the shelf; the count typed from the 5 seen is refused.
    app.api_post(&owner, &format!("{threads}/{id}/adjust"), json!({ "delta": 1 }))
        .await
        .assert_status(StatusCode::OK);
    let stale = app.api_post(&owner, &quantity, json!({ "quantity": 4, "expected": 5 })).await;
    stale.assert_api_error(StatusCode::CONFLICT, "quantity_changed");
    let message = stale.body["message"].as_str().unwrap();
    assert!(message.contains("to 6 after you saw 5") && message.contains("your 4"), "{message}");
    assert_eq!(app.api_get(&owner, &format!("{threads}/{id}")).await.body["thread"]["quantity"], 6.0);

    let negative = app.api_post(&owner, &quantity, json!({ "quantity": -1, "expected": 6 })).await;
    negative.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(negative.body["fields"][0]["field"], "quantity");
}

/// Several threads moved to one shelf, or given one reorder point, at once: all or none
/// (docs/behaviour.md, "Thread inventory").
#[rstest]
#[tokio::test]
async fn several_threads_get_one_location_or_reorder_point_at_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let threads = format!("/teams/{team}/threads");
    let mut ids = Vec::new();
    for code in ["1800", "1801", "1610"] {
        let created = app
            .api_post(
                &owner,
                &threads,
                json!({ "line": "madeira-polyneon", "code": code, "quantity": 1, "location": "Box" }),
            )
            .await;
        ids.push(created.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned());
    }

    let moved = app
        .api_patch(
            &owner,
            &threads,
            json!({ "ids": [ids[0], ids[1]], "location": " Shelf 3 ", "reorder_point": 2 }),
        )
        .await;

    let body = moved.assert_status(StatusCode::OK);
    assert_eq!(body["threads"].as_array().unwrap().len(), 2);
    for id in &ids[..2] {
        let thread = app.api_get(&owner, &format!("{threads}/{id}")).await.body["thread"].clone();
        assert_eq!(
            (thread["location"].clone(), thread["reorder_point"].clone()),
            (json!("Shelf 3"), json!(2.0))
        );
        assert_eq!(thread["version"], 2, "a change like any other: an edit made from before it is refused");
    }
    assert_eq!(app.api_get(&owner, &format!("{threads}/{}", ids[2])).await.body["thread"]["location"], "Box");

    let cleared = app.api_patch(&owner, &threads, json!({ "ids": [ids[0]], "reorder_point": null })).await;
    assert_eq!(cleared.assert_status(StatusCode::OK)["threads"][0]["reorder_point"], Value::Null);
    assert_eq!(cleared.body["threads"][0]["location"], "Shelf 3", "left out, left alone");

    let unknown =
        app.api_patch(&owner, &threads, json!({ "ids": [ids[2], "th_nope"], "location": "Elsewhere" })).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(
        app.api_get(&owner, &format!("{threads}/{}", ids[2])).await.body["thread"]["location"],
        "Box",
        "all or none"
    );
    app.api_patch(&owner, &threads, json!({ "ids": [ids[2]] }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

/// The pricing calculator looks up all of a design's threads in one request (issue 48): each
/// colour, in the order asked, answers the thread the list's `?closest=` puts first, with its
/// distance, or null for a team without threads. No colour, more than a design's 256 threads, or
/// one that is not a colour is refused naming it; another team's threads stay unseen.
#[rstest]
#[tokio::test]
async fn one_request_finds_the_closest_thread_to_each_colour_of_a_design(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team) = owner_with_team(&app).await;
    let viewer = app.person("viewer").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let outsider = app.person("outsider").await;
    let threads = format!("/teams/{team}/threads");
    let closest = format!("{threads}/closest");

    let none = app.api_get(&viewer, &format!("{closest}?colours=%23303030,ffffff")).await;
    assert_eq!(
        *none.assert_status(StatusCode::OK),
        json!({ "closest": [{ "colour": "#303030", "thread": null }, { "colour": "#FFFFFF", "thread": null }] })
    );

    app.api_post(
        &owner,
        &format!("{threads}/bulk"),
        json!({ "line": "madeira-polyneon", "codes": ["1800", "1801", "1610", "1611"] }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    app.api_post(&owner, &threads, json!({ "name": "Fair gold", "colour": "#C9A227", "quantity": 2 }))
        .await
        .assert_status(StatusCode::CREATED);
    // A colour asked twice answers twice; the `#` may be left out.
    let colours = ["#303030", "#C9A227", "#FFFFFF", "#303030", "#123456", "#E0115F"];
    let asked: Vec<&str> =
        colours.iter().enumerate().map(|(i, c)| if i % 2 == 0 { &c[1..] } else { *c }).collect();
    let batch =
        app.api_get(&viewer, &format!("{closest}?colours={}", asked.join(",").replace('#', "%23"))).await;
    let batch = batch.assert_status(StatusCode::OK)["closest"].as_array().unwrap().clone();
    assert_eq!(batch.len(), colours.len());
    for (colour, answer) in colours.iter().zip(&batch) {
        let one = app.api_get(&viewer, &format!("{threads}?closest=%23{}&per_page=1", &colour[1..])).await;
        assert_eq!(answer["colour"], *colour);
        assert_eq!(answer["thread"], one.assert_status(StatusCode::OK)["threads"][0], "{colour}");
    }
    assert_eq!(batch[1]["thread"]["name"], "Fair gold");
    assert_eq!(batch[1]["thread"]["distance"], 0.0);
    assert_eq!(batch[0]["thread"]["code"], "1800");

    // 256 colours (a design's most threads) are one request; 257 are refused.
    let many = |n: usize| {
        (0..n).map(|i| format!("{:06X}", i * 0x01_0101 % 0x0100_0000)).collect::<Vec<_>>().join(",")
    };
    let at_cap = app.api_get(&viewer, &format!("{closest}?colours={}", many(256))).await;
    assert_eq!(at_cap.assert_status(StatusCode::OK)["closest"].as_array().unwrap().len(), 256);
    for (query, field, code) in [
        (many(257), "colours", "too_many"),
        (String::new(), "colours", "required"),
        ("%23303030,red,%23FFF".to_owned(), "colours[1]", "bad_colour"),
    ] {
        let refused = app.api_get(&viewer, &format!("{closest}?colours={query}")).await;
        refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(
            (refused.body["fields"][0]["field"].clone(), refused.body["fields"][0]["code"].clone()),
            (json!(field), json!(code))
        );
        assert_eq!(refused.body["fields"].as_array().unwrap().len(), 1, "{:?}", refused.body);
    }
    app.api_get(&viewer, &closest)
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");

    app.api_get(&outsider, &format!("{closest}?colours=303030"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
}
