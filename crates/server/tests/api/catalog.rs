//! The public catalogue and converter endpoints: the same core the browser runs, natively.
//! They read no database, so SQLite stands for both engines here.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, spawn_app};

async fn post(app: &TestApp, path: &str, body: &Value) -> reqwest::Response {
    app.client.post(app.url(path)).json(body).send().await.expect("request")
}

#[tokio::test]
async fn the_catalogue_lists_every_line_with_its_source_and_counts() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/api/v2/catalog/lines").await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 76);
    let polyneon = lines.iter().find(|l| l["id"] == "madeira-polyneon").unwrap();
    assert_eq!(polyneon["display_name"], "Madeira Polyneon");
    assert_eq!(polyneon["fibre"], "polyester");
    assert_eq!(polyneon["weight"], 40);
    assert_eq!(polyneon["kind"], "thread");
    assert_eq!(polyneon["thread_count"], 349);
    assert!(polyneon["source"].as_str().unwrap().contains("madeira-polyneon.gpl"));
    assert!(polyneon.get("threads").is_none(), "the list leaves threads out");
}

#[tokio::test]
async fn a_line_has_its_threads_and_the_codes_its_chart_repeats() {
    let app = spawn_app(Backend::Sqlite).await;

    let body: Value = app.get("/api/v2/catalog/lines/royal-polyester").await.json().await.unwrap();

    let line = &body["line"];
    assert_eq!(line["id"], "royal-polyester");
    assert_eq!(
        u64::try_from(line["threads"].as_array().unwrap().len()).unwrap(),
        line["thread_count"].as_u64().unwrap()
    );
    let issues = line["issues"].as_array().unwrap();
    assert!(!issues.is_empty());
    assert!(issues.iter().all(|i| ["duplicate", "conflict"].contains(&i["kind"].as_str().unwrap())));
    let thread = &line["threads"][0];
    assert!(thread["hex"].as_str().unwrap().starts_with('#'));
    assert_eq!(thread["line_name"], "Royal Polyester");
}

#[tokio::test]
async fn unknown_lines_and_codes_answer_404_with_a_message() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/api/v2/catalog/lines/no-such-line").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({ "code": "not_found", "message": "There is no thread line 'no-such-line'." }));

    let response = app.get("/api/v2/catalog/lines/isacord-polyester/threads/99999").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Isacord Polyester has no thread with the code '99999'.");
}

#[tokio::test]
async fn a_thread_is_found_by_its_code_without_leading_zeros() {
    let app = spawn_app(Backend::Sqlite).await;

    let body: Value =
        app.get("/api/v2/catalog/lines/isacord-polyester/threads/15").await.json().await.unwrap();

    assert_eq!(
        body["threads"],
        json!([{ "line": "isacord-polyester", "line_name": "Isacord Polyester", "code": "0015",
                 "name": "White", "hex": "#FFFFFF", "conflict": false, "doubt": null }])
    );
    let dmc: Value = app.get("/api/v2/catalog/lines/dmc/threads/0000").await.json().await.unwrap();
    assert_eq!(dmc["threads"].as_array().unwrap().len(), 2, "a conflicting code gives every colour");
}

#[tokio::test]
async fn search_finds_threads_by_code_or_name_within_lines() {
    let app = spawn_app(Backend::Sqlite).await;

    let body: Value = app
        .get("/api/v2/catalog/threads?q=navy&lines=madeira-polyneon,isacord-polyester&limit=50")
        .await
        .json()
        .await
        .unwrap();
    let threads = body["threads"].as_array().unwrap();
    assert!(!threads.is_empty());
    for thread in threads {
        assert!(["madeira-polyneon", "isacord-polyester"].contains(&thread["line"].as_str().unwrap()));
        assert!(thread["name"].as_str().unwrap().to_lowercase().contains("navy"), "{thread}");
    }

    let exact: Value = app.get("/api/v2/catalog/threads?q=1902&limit=1").await.json().await.unwrap();
    assert_eq!(exact["threads"][0]["code"], "1902");

    let response = app.get("/api/v2/catalog/threads?q=navy&limit=500").await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "invalid_limit");
    let response = app.get("/api/v2/catalog/threads?q=navy&lines=nope").await;
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "unknown_line");
}

#[tokio::test]
async fn convert_ranks_matches_per_line_with_distance_and_label() {
    let app = spawn_app(Backend::Sqlite).await;
    let request = json!({
        "from": { "thread": { "line": "isacord-polyester", "code": "1902" } },
        "to": ["madeira-polyneon", "sulky-rayon"],
        "matches": 2
    });

    let response = post(&app, "/api/v2/convert", &request).await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["source"]["thread"]["code"], "1902");
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(
        lines.iter().map(|l| l["line"].as_str().unwrap()).collect::<Vec<_>>(),
        ["madeira-polyneon", "sulky-rayon"]
    );
    for line in lines {
        let matches = line["matches"].as_array().unwrap();
        assert_eq!(matches.len(), 2);
        let first = matches[0]["delta_e"].as_f64().unwrap();
        assert!(first <= matches[1]["delta_e"].as_f64().unwrap());
        let expected = match first {
            d if d < 1.0 => "indistinguishable",
            d if d < 2.0 => "close",
            d if d < 5.0 => "similar",
            _ => "poor",
        };
        assert_eq!(matches[0]["label"], expected);
    }
}

/// docs/behaviour.md, "Blacks, whites and greys": the server converts by the same rule as the
/// browser, one colour or a list.
#[tokio::test]
async fn a_black_converts_to_the_target_line_s_black_one_colour_or_a_list() {
    let app = spawn_app(Backend::Sqlite).await;
    let request = json!({
        "from": { "thread": { "line": "madeira-polyneon", "code": "1800" } },
        "to": ["sulky-rayon", "isacord-polyester"],
        "matches": 2
    });
    let body: Value = post(&app, "/api/v2/convert", &request).await.json().await.unwrap();
    let best: Vec<(&str, &str)> = body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| {
            let thread = &line["matches"][0]["thread"];
            (thread["code"].as_str().unwrap(), thread["name"].as_str().unwrap())
        })
        .collect();
    assert_eq!(best, [("1005", "Black"), ("0020", "Black")], "not Deep Teal or Blackberry");

    let request =
        json!({ "from": "madeira-polyneon", "to": "sulky-rayon", "input": "1800", "alternatives": 0 });
    let body: Value = post(&app, "/api/v2/convert/bulk", &request).await.json().await.unwrap();
    assert_eq!(body["rows"][0]["matches"][0]["thread"]["code"], "1005");
}

#[tokio::test]
async fn convert_accepts_a_candidate_set_of_owned_threads() {
    let app = spawn_app(Backend::Sqlite).await;
    let request = json!({
        "from": { "hex": "#1F3A93" },
        "to": ["isacord-polyester"],
        "candidates": [{ "line": "isacord-polyester", "code": "0020" }, { "line": "isacord-polyester", "code": "15" }]
    });

    let body: Value = post(&app, "/api/v2/convert", &request).await.json().await.unwrap();

    let codes: Vec<&str> = body["lines"][0]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["thread"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["0020", "0015"]);
}

#[tokio::test]
async fn bad_conversions_answer_422_with_a_stable_code() {
    let app = spawn_app(Backend::Sqlite).await;
    let cases = [
        (json!({ "from": { "thread": { "line": "nope", "code": "1" } } }), "unknown_line"),
        (json!({ "from": { "thread": { "line": "dmc", "code": "no-such" } } }), "unknown_thread"),
        (json!({ "from": { "hex": "#12345" } }), "invalid_colour"),
        (json!({ "from": { "lab": { "l": 120, "a": 0, "b": 0 } } }), "invalid_colour"),
        (json!({ "from": { "hex": "#123456" }, "matches": 50 }), "invalid_match_count"),
    ];
    for (request, code) in cases {
        let response = post(&app, "/api/v2/convert", &request).await;
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY, "{request}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], code, "{request}: {body}");
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
    // A body of the wrong shape is rejected by the JSON extractor, naming the field.
    let response = post(&app, "/api/v2/convert", &json!({ "from": { "colour": "red" } })).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "validation_failed");
}

#[tokio::test]
async fn bulk_conversion_answers_json_or_csv_as_asked() {
    let app = spawn_app(Backend::Sqlite).await;
    let request =
        json!({ "from": "isacord-polyester", "to": "madeira-polyneon", "input": "0015\nnope\n#1F3A93" });

    let body: Value = post(&app, "/api/v2/convert/bulk", &request).await.json().await.unwrap();
    let rows = body["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["matches"].as_array().unwrap().len(), 3, "best and two alternatives");
    assert!(rows[1]["error"].as_str().unwrap().contains("'nope'"));

    let response = app
        .client
        .post(app.url("/api/v2/convert/bulk"))
        .header("accept", "text/csv")
        .json(&request)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"bobbin-to-madeira-polyneon.csv\""
    );
    let csv = response.text().await.unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("1,0015,Isacord Polyester,0015,White,#FFFFFF,Madeira Polyneon,")
    );
}

#[tokio::test]
async fn the_catalogue_endpoints_are_in_the_openapi_document() {
    let app = spawn_app(Backend::Sqlite).await;

    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    for (path, method) in [
        ("/api/v2/catalog/lines", "get"),
        ("/api/v2/catalog/lines/{line_id}", "get"),
        ("/api/v2/catalog/lines/{line_id}/threads/{code}", "get"),
        ("/api/v2/catalog/threads", "get"),
        ("/api/v2/convert", "post"),
        ("/api/v2/convert/bulk", "post"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{path} {method} is missing");
    }
    for schema in
        ["LineSummary", "LineDetail", "ThreadView", "ConvertRequest", "Conversion", "BulkRequest", "Rgb8"]
    {
        assert!(doc["components"]["schemas"][schema].is_object(), "schema {schema} is missing");
    }
}
