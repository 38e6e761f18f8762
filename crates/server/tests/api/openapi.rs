use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{Backend, spawn_app};

#[tokio::test]
async fn the_openapi_document_describes_the_api_and_its_error_shape() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/api/v2/openapi.json").await;

    assert_eq!(response.status(), StatusCode::OK);
    let doc: Value = response.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Bobbin API");
    assert!(doc["paths"]["/api/v2/meta"]["get"].is_object(), "{doc}");
    assert!(doc["paths"]["/healthz"]["get"]["responses"]["503"].is_object(), "{doc}");
    assert!(doc["paths"]["/readyz"]["get"]["responses"]["503"].is_object(), "{doc}");
    for status in ["200", "401", "404"] {
        assert!(doc["paths"]["/metrics"]["get"]["responses"][status].is_object(), "{doc}");
    }
    let error = &doc["components"]["schemas"]["ErrorBody"];
    let required: Vec<&str> =
        error["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(required, ["code", "message"]);
    assert!(error["properties"]["fields"].is_object());
}

/// `bobbin openapi` prints the document the server serves: the browser's API types are generated
/// from the printed one (`scripts/api-types.sh`), so they are those of the running API.
#[tokio::test]
async fn bobbin_openapi_prints_the_served_document() {
    let app = spawn_app(Backend::Sqlite).await;
    let served: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_bobbin")).arg("openapi").output().unwrap();

    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed, served);
}

#[tokio::test]
async fn meta_reports_the_versions_and_the_environment() {
    let app = spawn_app(Backend::Sqlite).await;

    let meta: Value = app.get("/api/v2/meta").await.json().await.unwrap();

    assert_eq!(meta["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(meta["core_version"], bobbin_core::VERSION);
    assert_eq!(meta["environment"], "development");
}

#[tokio::test]
async fn the_openapi_document_lists_every_team_call_of_the_spec() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    // The calls the app makes (docs/behaviour.md, "API routes"), with `{id}` named for what it
    // holds.
    let calls = [
        ("get", "/api/v2/teams"),
        ("post", "/api/v2/teams"),
        ("get", "/api/v2/teams/{team_id}"),
        ("patch", "/api/v2/teams/{team_id}"),
        ("delete", "/api/v2/teams/{team_id}"),
        ("get", "/api/v2/teams/{team_id}/members"),
        ("post", "/api/v2/teams/{team_id}/members"),
        ("delete", "/api/v2/teams/{team_id}/members/{user_id}"),
        ("get", "/api/v2/teams/{team_id}/invites"),
        ("post", "/api/v2/teams/{team_id}/invites"),
        ("get", "/api/v2/users/me/invites"),
        ("post", "/api/v2/invites/{invite_id}/revoke"),
        ("post", "/api/v2/invites/accept"),
        ("post", "/api/v2/invites/{invite_id}/accept"),
        ("get", "/api/v2/teams/{team_id}/settings"),
        ("patch", "/api/v2/teams/{team_id}/settings"),
        ("get", "/api/v2/teams/{team_id}/settings/{key}"),
        ("patch", "/api/v2/teams/{team_id}/settings/{key}"),
        ("get", "/api/v2/teams/{team_id}/members/settings"),
        ("patch", "/api/v2/teams/{team_id}/members/settings"),
        ("get", "/api/v2/teams/{team_id}/members/settings/{key}"),
        ("patch", "/api/v2/teams/{team_id}/members/settings/{key}"),
        ("get", "/api/v2/users/me"),
        ("patch", "/api/v2/users/me/default-team"),
    ];
    for (method, path) in calls {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is missing");
        assert!(operation["responses"].as_object().is_some_and(|r| !r.is_empty()), "{method} {path}");
    }
    let team = &doc["components"]["schemas"]["Team"]["properties"];
    for field in ["id", "public_id", "name", "role"] {
        assert!(team[field].is_object(), "Team.{field}");
    }
    assert!(doc["components"]["schemas"]["Member"]["properties"]["userId"].is_object());
}

/// Every operation documents the errors its kind of request can answer (the document once listed
/// 53 statuses the server gave that no operation named), and each error answer is the one error
/// shape.
#[tokio::test]
async fn every_operation_documents_the_errors_its_kind_can_answer() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/") {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            let documents = |status: &str| responses.contains_key(status);
            let name = format!("{} {path}", method.to_uppercase());
            let signed_in = operation["security"].as_array().is_some_and(|s| !s.is_empty());
            let takes = |place: &str| {
                operation["parameters"].as_array().is_some_and(|ps| ps.iter().any(|p| p["in"] == place))
            };
            if signed_in {
                assert!(documents("401"), "{name} takes a session but does not document 401");
            }
            if path.starts_with("/api/v2/") {
                let busy = responses["503"]["description"].as_str().unwrap_or_default();
                assert!(busy.contains("server_busy"), "{name} does not document 503 server_busy: {busy}");
            }
            if signed_in {
                let busy = responses["503"]["description"].as_str().unwrap_or_default();
                assert!(
                    busy.contains("database_busy"),
                    "{name} reads the database but does not document it: {busy}"
                );
            }
            if signed_in && method != "get" {
                assert!(documents("507"), "{name} changes something but does not document 507 (disk full)");
                assert!(documents("403"), "{name} changes something but does not document 403 (cross-site)");
                let forbidden = responses["403"]["description"].as_str().unwrap();
                assert!(forbidden.contains("cross_site_request"), "{name}: {forbidden}");
            }
            if operation["requestBody"].is_object() {
                for status in ["400", "413", "415", "422"] {
                    assert!(documents(status), "{name} reads a JSON body but does not document {status}");
                }
            }
            if takes("query") {
                assert!(documents("422"), "{name} reads query parameters but does not document 422");
            }
            if takes("path") {
                assert!(documents("404"), "{name} names a record in its path but does not document 404");
                assert!(documents("422"), "{name} reads path parameters but does not document 422");
            }
            for (status, response) in responses {
                if status.starts_with('4') || ["503", "507"].contains(&status.as_str()) {
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorBody",
                        "{name} {status}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} operations under /api/");
    for path in ["/api/v2/convert", "/api/v2/convert/bulk"] {
        let limited = &doc["paths"][path]["post"]["responses"]["429"];
        assert!(limited["description"].as_str().is_some_and(|d| d.contains("rate_limited")), "{path}");
    }
}

/// Two Rust types named alike once shared one schema, so the catalogue's answers were checked
/// against the inventory's thread; and a setting's value is any JSON, not only an object.
#[tokio::test]
async fn the_catalogue_and_inventory_threads_and_setting_values_have_their_own_schemas() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];

    let catalogue = schemas["ThreadsResponse"]["properties"]["threads"]["items"]["$ref"].as_str().unwrap();
    let inventory = schemas["ThreadPage"]["properties"]["threads"]["items"]["$ref"].as_str().unwrap();
    assert_ne!(catalogue, inventory);
    let name = |reference: &str| reference.rsplit('/').next().unwrap().to_owned();
    assert!(schemas[name(catalogue)]["properties"]["hex"].is_object(), "{catalogue}");
    assert!(schemas[name(inventory)]["properties"]["quantity"].is_object(), "{inventory}");

    let value = &schemas["ValueBody"]["properties"]["value"];
    assert!(value.get("type").is_none(), "a setting's value may be a string, a number or null: {value}");
}

/// An answer always carries each field it declares, `null` when there is nothing, but for those
/// it leaves out when empty; the document says so, so the browser's generated types do not make
/// every reader handle a missing field that never is. A field the server reads may be missing.
#[tokio::test]
async fn answers_require_every_field_they_always_send() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let required = |schema: &str| -> Vec<String> {
        schemas[schema]["required"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };

    for (schema, always, sometimes) in [
        ("InventoryThread", ["line", "code", "updated_by_email"].as_slice(), ["distance"].as_slice()),
        ("MachineView", &["max_spm", "purchase_date", "stitch_counter"], &["maintenance"]),
        ("Profile", &["default_team_pid", "full_name"], &[]),
        ("LineSummary", &["fibre", "weight"], &[]),
        ("ErrorBody", &["code", "message"], &["fields"]),
    ] {
        let required = required(schema);
        for field in always {
            assert!(required.iter().any(|r| r == field), "{schema}.{field} is always sent: {required:?}");
        }
        for field in sometimes {
            assert!(!required.iter().any(|r| r == field), "{schema}.{field} is left out when empty");
        }
    }
    let thread_input = required("ThreadInput");
    assert!(!thread_input.iter().any(|r| r == "line"), "a body may leave `line` out: {thread_input:?}");
    let bulk = &doc["paths"]["/api/v2/convert/bulk"]["post"]["responses"]["200"]["content"];
    assert_eq!(bulk["application/json"]["schema"]["$ref"], "#/components/schemas/BulkConversion");
    assert_eq!(bulk["text/csv"]["schema"]["type"], "string");
}

/// An OpenAPI operation id names one operation: generated clients and the browser's types
/// (`operations["..."]`) key on it, and five handlers called `list` once shared one, so their
/// types merged into one that fitted none.
#[tokio::test]
async fn every_operation_has_its_own_id() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    let mut seen = std::collections::HashMap::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has no id"));
            if let Some(other) = seen.insert(id.to_owned(), format!("{method} {path}")) {
                panic!("{method} {path} and {other} share the operation id {id}");
            }
        }
    }
}

/// Every operation on a team's path is guarded by the team extractor, and the document says what
/// that means for each: the `team_id` parameter, a session, and the 404 for a team the caller is
/// not in.
#[tokio::test]
async fn every_team_operation_documents_its_team_the_session_and_the_team_404() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.contains("{team_id}") {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            let name = format!("{} {path}", method.to_uppercase());
            let parameters = operation["parameters"].as_array().unwrap();
            let team_ids: Vec<&Value> = parameters.iter().filter(|p| p["name"] == "team_id").collect();
            assert_eq!(team_ids.len(), 1, "{name}: {parameters:?}");
            assert_eq!(team_ids[0]["in"], "path", "{name}");
            assert_eq!(team_ids[0]["required"], true, "{name}");
            let schemes: Vec<&str> = operation["security"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|s| s.as_object().unwrap().keys())
                .map(String::as_str)
                .collect();
            assert_eq!(schemes, ["bearer", "cookie"], "{name}");
            let missing = operation["responses"]["404"]["description"].as_str().unwrap_or_default();
            assert!(
                missing.contains("`not_found`") && missing.contains("not one of its members"),
                "{name}: {missing}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 35, "only {checked} team operations");
}
