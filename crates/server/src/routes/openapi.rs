//! The error answers every operation of a kind can give, added to the OpenAPI document from what
//! the operation declares, so that no operation forgets one: a signed-in operation can answer 401
//! and, when it changes something, 403 to a cross-site request; every one 503 when the server is
//! busy; one with a JSON body the four answers of [`ApiJson`](crate::extract::ApiJson); one with
//! query or path parameters those of [`ApiQuery`](crate::extract::ApiQuery) and
//! [`ApiPath`](crate::extract::ApiPath). What only
//! some operations answer (a role check's 403, a limit's 429, a conflict's 409) stays in their
//! own `#[utoipa::path]`, where it is written next to the code that answers it.
//!
//! Written per operation instead, the same six lines would be copied into forty annotations, and
//! the document listed 53 statuses the server gave but no annotation named.

use std::collections::BTreeSet;

use serde_json::Value;
use utoipa::{
    Modify,
    openapi::{
        ContentBuilder, ObjectBuilder, OpenApi, Ref, RefOr, Required, Schema, Type,
        path::{Operation, ParameterBuilder, ParameterIn, PathItem},
        response::{Response, ResponseBuilder},
        security::SecurityRequirement,
    },
};

/// What every operation on a team's path (`/teams/{team_id}/...`) has, because the extractor that
/// guards it ([`InTeam`](crate::extract::InTeam)) does the same for all of them: the `team_id`
/// parameter, a signed-in caller (bearer or cookie), and the 404 for a team that does not exist
/// or that the caller is not in. The role each one needs (its 403) stays in its own annotation.
/// Runs before [`CommonErrors`], which reads the security this adds.
#[derive(Debug, Clone, Copy)]
pub struct TeamPaths;

impl Modify for TeamPaths {
    fn modify(&self, openapi: &mut OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            if !path.contains("{team_id}") {
                continue;
            }
            for (_, operation) in operations(item) {
                let parameters = operation.parameters.get_or_insert_with(Vec::new);
                parameters.insert(0, RefOr::T(team_id_parameter()));
                operation.security = Some(vec![
                    SecurityRequirement::new("bearer", Vec::<String>::new()),
                    SecurityRequirement::new("cookie", Vec::<String>::new()),
                ]);
                add(
                    operation,
                    "404",
                    "not_found",
                    "there is no team with that id, or the caller is not one of its members",
                );
            }
        }
    }
}

fn team_id_parameter() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name("team_id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some("The team's `public_id` or `id`"))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

/// Adds the common error answers to each operation under `/api/`; see the module's comment.
#[derive(Debug, Clone, Copy)]
pub struct CommonErrors;

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            if !path.starts_with("/api/") {
                continue;
            }
            for (changes, operation) in operations(item) {
                add_common_errors(operation, changes);
            }
        }
    }
}

/// The operations of a path, each with whether it changes something (all but GET).
fn operations(item: &mut PathItem) -> impl Iterator<Item = (bool, &mut Operation)> {
    [
        (false, &mut item.get),
        (true, &mut item.post),
        (true, &mut item.put),
        (true, &mut item.patch),
        (true, &mut item.delete),
    ]
    .into_iter()
    .filter_map(|(changes, operation)| Some((changes, operation.as_mut()?)))
}

fn add_common_errors(operation: &mut Operation, changes: bool) {
    let signed_in = operation.security.as_ref().is_some_and(|security| !security.is_empty());
    let takes = |place: ParameterIn| {
        operation.parameters.iter().flatten().any(|parameter| match parameter {
            RefOr::T(parameter) => parameter.parameter_in == place,
            RefOr::Ref(_) => false,
        })
    };
    let (has_query, has_path) = (takes(ParameterIn::Query), takes(ParameterIn::Path));
    let has_body = operation.request_body.is_some();

    let mut answers: Vec<(&str, &str, &str)> = Vec::new();
    if signed_in {
        answers.push(("401", "unauthorized", "no session, or one that has ended or was signed out"));
    }
    if signed_in && changes {
        answers.push((
            "403",
            "cross_site_request",
            "a request authenticated by the auth cookie from a page of another site",
        ));
    }
    if signed_in {
        answers.push((
            "503",
            "database_busy",
            "the database is locked by someone else or every connection is in use (`Retry-After` says when to \
             try again); also `database_unavailable` (the connection to it broke) and `database_read_only`",
        ));
    }
    if signed_in && changes {
        answers.push(("507", "storage_full", "the server's disk is full: nothing was saved"));
    }
    if has_body {
        answers.push(("400", "invalid_json", "the body is not JSON"));
        answers.push(("413", "payload_too_large", "the body is over 1 MiB"));
        answers.push(("415", "unsupported_media_type", "the body is not sent as `application/json`"));
        answers.push((
            "422",
            "validation_failed",
            "a field of the body is missing or of the wrong type, named in `fields`",
        ));
    }
    if has_query {
        answers.push((
            "422",
            "validation_failed",
            "a query parameter is missing or cannot be read, named in `fields`",
        ));
    }
    if has_path {
        answers.push((
            "422",
            "validation_failed",
            "a path parameter cannot be read (not UTF-8 once percent-decoded), named in `fields`",
        ));
    }
    // Every operation under /api/v2 counts against `--max-requests-in-flight` (limits.rs).
    answers.push((
        "503",
        "server_busy",
        "the server is working on as many requests of this kind as it takes at once; send it again \
         after the seconds of `Retry-After`",
    ));
    for (status, code, meaning) in answers {
        add(operation, status, code, meaning);
    }
    // Every operation with ids in its path documents its own 404 ("no such thread in this
    // team"), which also covers text that is no id at all; only one that does not gets this.
    if has_path && !operation.responses.responses.contains_key("404") {
        add(operation, "404", "not_found", "a part of the path is not an id this API gives");
    }
}

/// Documents `status` answering `code` on `operation`, or, where the operation already
/// documents the status, adds the code to its description unless that names it.
fn add(operation: &mut Operation, status: &str, code: &str, meaning: &str) {
    let responses = &mut operation.responses.responses;
    match responses.get_mut(status) {
        Some(RefOr::T(response)) => {
            if !response.description.contains(&format!("`{code}`")) {
                response.description = format!("{}; or `{code}`: {meaning}", response.description);
            }
        }
        Some(RefOr::Ref(_)) => {}
        None => {
            responses.insert(status.to_owned(), RefOr::T(error_response(&format!("`{code}`: {meaning}"))));
        }
    }
}

fn error_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build(),
        )
        .build()
}

/// Marks every property of a schema that only answers use as required, but for
/// [`LEFT_OUT_WHEN_EMPTY`]. utoipa leaves an `Option` field out of `required`, which is right for
/// a body the server reads (the field may be missing) but not for an answer: serde writes `null`
/// for `None`, so the property is always there, and the browser's types (generated from this
/// document) would make every reader handle a missing field that never is. Done here rather than
/// with `#[schema(required)]` on each such field, which a new field would forget without any test
/// noticing; here a property left out but not listed below fails the API fuzzer's schema check.
#[derive(Debug, Clone, Copy)]
pub struct AnswersAsSent;

/// The properties of answers that are left out rather than sent as `null` or `[]`
/// (`skip_serializing_if`): schema and property.
const LEFT_OUT_WHEN_EMPTY: [(&str, &str); 3] =
    [("ErrorBody", "fields"), ("InventoryThread", "distance"), ("MachineView", "maintenance")];

impl Modify for AnswersAsSent {
    fn modify(&self, openapi: &mut OpenApi) {
        // Which schemas each side uses is easiest to follow in the JSON form; the change is made
        // on utoipa's own, which does not read its JSON back.
        let document = serde_json::to_value(&*openapi).expect("the OpenAPI document serialises");
        let read = schemas_under(&document, "requestBody");
        let sent = schemas_under(&document, "responses");
        let Some(components) = openapi.components.as_mut() else { return };
        for (name, schema) in &mut components.schemas {
            if !sent.contains(name) || read.contains(name) {
                continue;
            }
            if let RefOr::T(Schema::Object(object)) = schema {
                object.required = object
                    .properties
                    .keys()
                    .filter(|property| !LEFT_OUT_WHEN_EMPTY.contains(&(name.as_str(), property.as_str())))
                    .cloned()
                    .collect();
            }
        }
    }
}

/// The names of the schemas that the `part` (`requestBody` or `responses`) of some operation uses,
/// directly or through other schemas.
fn schemas_under(document: &Value, part: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut pending: Vec<&Value> = document["paths"]
        .as_object()
        .into_iter()
        .flat_map(|paths| paths.values())
        .filter_map(Value::as_object)
        .flat_map(|item| item.values())
        .filter_map(|operation| operation.get(part))
        .collect();
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(object) => {
                if let Some(name) =
                    object.get("$ref").and_then(Value::as_str).and_then(|r| r.rsplit('/').next())
                    && found.insert(name.to_owned())
                {
                    pending.extend(document["components"]["schemas"].get(name));
                }
                pending.extend(object.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}
