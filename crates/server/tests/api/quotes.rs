//! Saved quotes (docs/behaviour.md, "Saved quotes"): saved per team with who and when, listed,
//! reopened and duplicated; the server prices the inputs again and refuses a result that does not
//! match.

use reqwest::{Method, StatusCode};
use rstest::rstest;
use serde_json::{Value, json};

use crate::helpers::{Backend, spawn_app};

/// The worked example of `bobbin_core::pricing`: 50 polos, 7,200 stitches, 8 colours, default rates.
pub fn polos() -> (Value, Value) {
    (json!({}), json!({ "stitches": 7200, "colours": 8, "quantity": 50 }))
}

/// What the calculator would send: the inputs with the result the core gives for them.
pub fn quote(name: &str, currency: &str, rates: &Value, job: &Value) -> Value {
    let priced = bobbin_core::pricing::price(
        &serde_json::from_value(rates.clone()).unwrap(),
        &serde_json::from_value(job.clone()).unwrap(),
        bobbin_core::pricing::minor_unit_decimals(currency),
    )
    .unwrap();
    json!({ "name": name, "currency": currency, "rates": rates, "job": job, "result": priced })
}

/// A design's details as the calculator sends them: the file's name and the figures the
/// reader gave (`bobbin_core::design::DesignSummary`).
pub fn design() -> Value {
    json!({
        "file_name": "rosa.pes",
        "summary": {
            "format": "pes",
            "stitches": 7200,
            "jumps": 14,
            "trims": 3,
            "colour_changes": 2,
            "colours": 3,
            "width_mm": 80.5,
            "height_mm": 61.2,
            "thread_colours": ["#FF0000", "#00A050", "#FF0000"],
            "threads": [
                { "colour": "#FF0000", "name": "Red", "blocks": [1, 3] },
                { "colour": "#00A050", "name": null, "blocks": [2] },
            ],
            "threads_needed": 2,
        },
    })
}

#[rstest]
#[tokio::test]
async fn a_quote_is_saved_listed_reopened_and_duplicated(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();
    let mut body = quote("Café Rosa: 50 polos", "EUR", &rates, &job);
    body["design"] = design();

    let saved = app.api_post(&owner, &quotes, body).await;
    let saved = saved.assert_status(StatusCode::CREATED)["quote"].clone();
    // The figures of the worked example, as decimal text.
    assert_eq!((saved["per_piece"].clone(), saved["total"].clone()), (json!("7.12"), json!("356.00")));
    assert_eq!(saved["result"]["per_piece"], "7.12");
    assert_eq!(saved["quantity"], 50);
    assert_eq!(saved["created_by_email"], "owner@example.com");
    assert_eq!(saved["created_by_name"], Value::Null, "the owner gave no name");
    assert_eq!(saved["design"], design(), "the design as sent");
    assert_eq!(saved["job"]["stitches"], 7200);
    let id = saved["id"].as_str().unwrap().to_owned();

    // Reopened: the same inputs and result.
    let reopened = app.api_get(&owner, &format!("{quotes}/{id}")).await;
    let reopened = reopened.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!(reopened, saved);

    // Duplicated: a new quote with the same inputs, named as a copy.
    let copy = app.api(&owner, Method::POST, &format!("{quotes}/{id}/duplicate"), None).await;
    let copy = copy.assert_status(StatusCode::CREATED)["quote"].clone();
    assert_ne!(copy["id"], saved["id"]);
    assert_eq!(copy["name"], "Copy of Café Rosa: 50 polos");
    assert_eq!((copy["total"].clone(), copy["job"].clone()), (saved["total"].clone(), saved["job"].clone()));

    // Listed newest first, and found by part of the name, whatever its case.
    let in_yen = quote("Yen test", "JPY", &rates, &job);
    let yen = app.api_post(&owner, &quotes, in_yen).await;
    assert_eq!(yen.assert_status(StatusCode::CREATED)["quote"]["total"], "350", "yen have no minor unit");
    let list = app.api_get(&owner, &quotes).await;
    let list = list.assert_status(StatusCode::OK).clone();
    let names: Vec<&str> =
        list["quotes"].as_array().unwrap().iter().map(|q| q["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Yen test", "Copy of Café Rosa: 50 polos", "Café Rosa: 50 polos"]);
    assert_eq!(list["total"], 3);
    let found = app.api_get(&owner, &format!("{quotes}?q=rosa&per_page=1&page=2")).await;
    let found = found.assert_status(StatusCode::OK).clone();
    assert_eq!(
        (found["total"].clone(), found["quotes"][0]["name"].clone()),
        (json!(2), json!("Café Rosa: 50 polos"))
    );

    // `%` and `_` are letters to look for, not wildcards.
    let none = app.api_get(&owner, &format!("{quotes}?q=%25")).await;
    assert_eq!(none.assert_status(StatusCode::OK)["total"], 0);

    app.api_delete(&owner, &format!("{quotes}/{id}")).await.assert_status(StatusCode::NO_CONTENT);
    app.api_get(&owner, &format!("{quotes}/{id}")).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

#[rstest]
#[tokio::test]
async fn a_result_the_inputs_do_not_give_is_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();

    // A client that shows a lower price than the rules give.
    let mut cheaper = quote("Cheaper", "EUR", &rates, &job);
    cheaper["result"]["per_piece"] = json!("6.00");
    cheaper["result"]["total"] = json!("300.00");
    let refused = app.api_post(&owner, &quotes, cheaper).await;
    refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "quote_mismatch");
    assert!(refused.body["message"].as_str().unwrap().contains("7.12"), "{refused:?}");

    // Priced in one currency, saved in another with other rounding.
    let mut other_currency = quote("Yen", "JPY", &rates, &job);
    other_currency["currency"] = json!("EUR");
    app.api_post(&owner, &quotes, other_currency)
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "quote_mismatch");

    // Rates changed after pricing.
    let mut changed = quote("Changed", "EUR", &rates, &job);
    changed["rates"] = json!({ "setup_fee": "40" });
    app.api_post(&owner, &quotes, changed)
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "quote_mismatch");

    // Nothing was saved.
    let list = app.api_get(&owner, &quotes).await;
    assert_eq!(list.assert_status(StatusCode::OK)["total"], 0);
}

#[rstest]
#[tokio::test]
async fn bad_inputs_name_their_field(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();
    let good = quote("Polos", "EUR", &rates, &job);

    let mut cases: Vec<(Value, &str)> = Vec::new();
    let mut unnamed = good.clone();
    unnamed["name"] = json!("  ");
    cases.push((unnamed, "name"));
    let mut long = good.clone();
    long["name"] = json!("x".repeat(201));
    cases.push((long, "name"));
    let mut currency = good.clone();
    currency["currency"] = json!("euro");
    cases.push((currency, "currency"));
    let mut too_large = good.clone();
    too_large["design"] = design();
    too_large["design"]["summary"]["thread_colours"] = json!(vec!["#FF0000"; 500]);
    cases.push((too_large, "design"));
    let mut quantity = good.clone();
    quantity["job"]["quantity"] = json!(0);
    cases.push((quantity, "job.quantity"));
    let mut tax = good;
    tax["rates"]["tax_percent"] = json!(150);
    cases.push((tax, "rates.tax_percent"));
    for (body, field) in cases {
        let answer = app.api_post(&owner, &quotes, body).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], field, "{answer:?}");
    }
}

#[rstest]
#[tokio::test]
async fn viewers_read_quotes_and_other_teams_see_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let member = app.person("member").await;
    let viewer = app.person("viewer").await;
    let outsider = app.person("outsider").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &member, "member").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let elsewhere = app.team(&outsider, "Elsewhere").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();

    // A member saves; everyone in the team reads it.
    let saved = app.api_post(&member, &quotes, quote("By a member", "EUR", &rates, &job)).await;
    let id = saved.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned();
    for reader in [&owner, &member, &viewer] {
        app.api_get(reader, &format!("{quotes}/{id}")).await.assert_status(StatusCode::OK);
    }

    let writes: [(Method, String, Option<Value>); 3] = [
        (Method::POST, quotes.clone(), Some(quote("By a viewer", "EUR", &rates, &job))),
        (Method::POST, format!("{quotes}/{id}/duplicate"), None),
        (Method::DELETE, format!("{quotes}/{id}"), None),
    ];
    for (method, path, body) in writes {
        app.api(&viewer, method.clone(), &path, body.clone())
            .await
            .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
        app.api(&outsider, method, &path, body).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    app.api_get(&outsider, &quotes).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    // Another team's path does not reach this quote either.
    app.api_get(&outsider, &format!("/teams/{elsewhere}/quotes/{id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    let theirs = app.api_get(&outsider, &format!("/teams/{elsewhere}/quotes")).await;
    assert_eq!(theirs.assert_status(StatusCode::OK)["total"], 0);
}

/// A quote names who saved it by the full name they gave, with the address beside for whoever
/// needs it (docs/behaviour.md, "Saved quotes").
#[rstest]
#[tokio::test]
async fn a_quote_names_who_saved_it(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("named").await;
    let renamed =
        app.auth_put_as(&owner.token, "/user", &json!({ "data": { "full_name": "Ada Lovelace" } })).await;
    assert_eq!(renamed.status, StatusCode::OK, "{renamed:?}");
    let team = app.team(&owner, "Stitch & Co").await;
    let (rates, job) = polos();

    let saved =
        app.api_post(&owner, &format!("/teams/{team}/quotes"), quote("Polos", "EUR", &rates, &job)).await;

    let saved = saved.assert_status(StatusCode::CREATED)["quote"].clone();
    assert_eq!(saved["created_by_name"], "Ada Lovelace");
    assert_eq!(saved["created_by_email"], "named@example.com");
    let listed = app.api_get(&owner, &format!("/teams/{team}/quotes")).await;
    assert_eq!(listed.assert_status(StatusCode::OK)["quotes"][0]["created_by_name"], "Ada Lovelace");
}

/// Issue 48: a quote whose design's figures were of another shape (`blocks: "x"`) was saved, and
/// every teammate who opened it got the app's error page. A design and the rates are read
/// against their types when a quote is saved; what does not fit answers `422
/// validation_failed` naming the field.
#[rstest]
#[tokio::test]
async fn a_design_or_rates_of_the_wrong_shape_is_refused_naming_the_field(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();
    let mut good = quote("Polos", "EUR", &rates, &job);
    good["design"] = design();

    let cases: [(&str, Value, &str); 12] = [
        ("/summary/threads/0/blocks", json!("x"), "design.summary.threads[0].blocks"),
        ("/summary/threads/0/blocks/0", json!(-1), "design.summary.threads[0].blocks[0]"),
        ("/summary/threads/0/blocks", json!(vec![1; 1001]), "design.summary.threads[0].blocks"),
        ("/summary/threads/0/name", json!("x".repeat(201)), "design.summary.threads[0].name"),
        ("/summary/threads", json!({ "0": 1 }), "design.summary.threads"),
        ("/summary/thread_colours/1", json!("green"), "design.summary.thread_colours[1]"),
        ("/summary/format", json!("svg"), "design.summary.format"),
        ("/summary/stitches", json!("7200"), "design.summary.stitches"),
        ("/summary/width_mm", json!(-3), "design.summary.width_mm"),
        ("/summary/blocks", json!("x"), "design.summary.blocks"),
        ("/file_name", json!("x".repeat(256)), "design.file_name"),
        ("/summary", json!(null), "design.summary"),
    ];
    for (pointer, value, field) in cases {
        let mut body = good.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let target = body["design"].pointer_mut(parent).unwrap();
        match target {
            Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
            _ => target[key] = value,
        }
        let answer = app.api_post(&owner, &quotes, body).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], field, "{pointer}: {answer:?}");
    }
    let mut not_an_object = good.clone();
    not_an_object["design"] = json!("rosa.pes");
    let mut rates_of_another_shape = good.clone();
    rates_of_another_shape["rates"] = json!({ "quantity_breaks": "x" });
    let mut unknown_rate = good.clone();
    unknown_rate["rates"] = json!({ "discount": 5 });
    for (body, field) in [
        (not_an_object, "design"),
        (rates_of_another_shape, "rates.quantity_breaks"),
        (unknown_rate, "rates.discount"),
    ] {
        let answer = app.api_post(&owner, &quotes, body).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], field, "{answer:?}");
    }
    let list = app.api_get(&owner, &quotes).await;
    assert_eq!(list.assert_status(StatusCode::OK)["total"], 0, "nothing was saved");

    // Quotes saved before threads were counted have neither `threads` nor `threads_needed`.
    let mut older = good;
    let summary = older["design"]["summary"].as_object_mut().unwrap();
    summary.remove("threads");
    summary.remove("threads_needed");
    let saved = app.api_post(&owner, &quotes, older.clone()).await;
    assert_eq!(saved.assert_status(StatusCode::CREATED)["quote"]["design"], older["design"]);
}

/// A quote saved before designs were checked, with a design of another shape, still reads (the
/// app says it cannot show it); a copy of it keeps no design.
#[rstest]
#[tokio::test]
async fn a_quote_stored_with_a_design_of_another_shape_still_reads(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    use sea_orm::{ConnectionTrait as _, Statement};

    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();
    let saved = app.api_post(&owner, &quotes, quote("Polos", "EUR", &rates, &job)).await;
    let id = saved.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned();
    let odd = json!({ "file_name": "rosa.pes", "summary": { "blocks": "x", "thread_colours": "x" } });
    let input = json!({ "rates": rates, "job": job, "design": odd }).to_string();
    let backend = app.db.get_database_backend();
    let sql = format!("UPDATE quotes SET input = '{input}'");
    app.db.execute_raw(Statement::from_string(backend, sql)).await.unwrap();

    let reopened = app.api_get(&owner, &format!("{quotes}/{id}")).await;
    assert_eq!(reopened.assert_status(StatusCode::OK)["quote"]["design"], odd);
    let copy = app.api(&owner, Method::POST, &format!("{quotes}/{id}/duplicate"), None).await;
    assert_eq!(copy.assert_status(StatusCode::CREATED)["quote"]["design"], Value::Null);
}

/// Every sample design, summarised by the core's reader as the calculator's is, saves: the
/// checked shape is the one the reader gives (a field added to the reader's summary must be added
/// to `SavedDesign` too, or saving quotes with designs fails here).
#[rstest]
#[tokio::test]
async fn a_design_as_the_reader_summarises_it_is_saved(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = polos();
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/designs");
    let mut saved = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Ok(design) = bobbin_core::design::read(&std::fs::read(&path).unwrap(), Some(&name)) else {
            continue;
        };
        let mut body = quote(&name, "EUR", &rates, &job);
        body["design"] = json!({ "file_name": name, "summary": design.summary() });
        if serde_json::to_vec(&body["design"]).unwrap().len() > 4096 {
            continue;
        }
        let answer = app.api_post(&owner, &quotes, body.clone()).await;
        assert_eq!(answer.assert_status(StatusCode::CREATED)["quote"]["design"], body["design"], "{name}");
        saved += 1;
    }
    assert!(saved >= 10, "only {saved} sample designs were saved");
}
