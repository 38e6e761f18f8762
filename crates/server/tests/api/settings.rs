//! Team settings and member settings (docs/behaviour.md, "Settings").

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};

use crate::helpers::{Backend, spawn_app};

#[rstest]
#[tokio::test]
async fn team_settings_are_a_map_read_by_members_and_written_by_admins(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let viewer = app.person("viewer").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let settings = format!("/teams/{team}/settings");

    assert_eq!(app.api_get(&viewer, &settings).await.assert_status(StatusCode::OK)["settings"], json!({}));
    assert_eq!(
        app.api_get(&viewer, &format!("{settings}/currency")).await.body,
        json!({ "value": null }),
        "unset is null"
    );

    let patched = app
        .api_patch(
            &owner,
            &settings,
            json!({ "currency": "EUR", "default_stitch_rate": 1.25, "preferred_thread_line": "madeira-polyneon", "shop.notes": { "open": [9, 17] } }),
        )
        .await;
    let expected = json!({
        "currency": "EUR",
        "default_stitch_rate": 1.25,
        "preferred_thread_line": "madeira-polyneon",
        "shop.notes": { "open": [9, 17] },
    });
    assert_eq!(patched.assert_status(StatusCode::OK)["settings"], expected);
    assert_eq!(app.api_get(&viewer, &settings).await.body["settings"], expected);

    // One key: set, read, and removed with null.
    let one = app.api_patch(&owner, &format!("{settings}/currency"), json!({ "value": "GBP" })).await;
    assert_eq!(one.assert_status(StatusCode::OK)["value"], "GBP");
    assert_eq!(app.api_get(&viewer, &format!("{settings}/currency")).await.body["value"], "GBP");
    app.api_patch(&owner, &settings, json!({ "shop.notes": null })).await.assert_status(StatusCode::OK);
    let removed = app.api_patch(&owner, &format!("{settings}/currency"), json!({ "value": null })).await;
    assert_eq!(removed.body["value"], Value::Null);
    let left = app.api_get(&viewer, &settings).await;
    assert_eq!(
        left.body["settings"],
        json!({ "default_stitch_rate": 1.25, "preferred_thread_line": "madeira-polyneon" })
    );
}

#[rstest]
#[tokio::test]
async fn bad_keys_and_values_are_named_and_nothing_is_written(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let settings = format!("/teams/{team}/settings");

    let answer = app
        .api_patch(
            &owner,
            &settings,
            json!({ "Currency": "EUR", "currency": "euro", "default_stitch_rate": -2, "preferred_thread_line": "no-such-line", "ok": 1, "big": "x".repeat(5000) }),
        )
        .await;
    answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let mut fields: Vec<(String, String)> = answer.body["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_owned(), f["code"].as_str().unwrap().to_owned()))
        .collect();
    fields.sort();
    let expected: Vec<(String, String)> = [
        ("Currency", "invalid_key"),
        ("big", "too_large"),
        ("currency", "invalid"),
        ("default_stitch_rate", "invalid"),
        ("preferred_thread_line", "invalid"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(fields, expected);
    assert_eq!(app.api_get(&owner, &settings).await.body["settings"], json!({}), "all or nothing");

    app.api_get(&owner, &format!("{settings}/Not%20a%20key"))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    app.api_patch(&owner, &settings, json!(["not", "a", "map"]))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn a_map_holds_at_most_a_hundred_keys(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let settings = format!("/teams/{team}/settings");
    let hundred: serde_json::Map<String, Value> = (0..100).map(|n| (format!("key{n}"), json!(n))).collect();
    app.api_patch(&owner, &settings, Value::Object(hundred)).await.assert_status(StatusCode::OK);

    app.api_patch(&owner, &format!("{settings}/one-more"), json!({ "value": true }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_settings");
    let kept = app.api_get(&owner, &settings).await;
    assert_eq!(kept.body["settings"].as_object().unwrap().len(), 100);
    // At the limit a key is still changed, alone or with others.
    let changed = app.api_patch(&owner, &settings, json!({ "key2": "changed" })).await;
    assert_eq!(changed.assert_status(StatusCode::OK)["settings"]["key2"], "changed");
    app.api_patch(&owner, &format!("{settings}/key3"), json!({ "value": 3.5 }))
        .await
        .assert_status(StatusCode::OK);
    // A change that would end over the limit changes nothing, not even the keys it removes.
    app.api_patch(&owner, &settings, json!({ "key4": null, "new1": 1, "new2": 2 }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_settings");
    let kept = app.api_get(&owner, &settings).await;
    let kept = kept.body["settings"].as_object().unwrap();
    assert_eq!(
        (kept.len(), &kept["key2"], &kept["key3"], &kept["key4"]),
        (100, &json!("changed"), &json!(3.5), &json!(4))
    );
    // Replacing a key and removing one in the same change is fine at the limit.
    let replaced =
        app.api_patch(&owner, &settings, json!({ "key0": null, "one-more": true, "key1": "changed" })).await;
    let replaced = replaced.assert_status(StatusCode::OK)["settings"].as_object().unwrap().clone();
    assert_eq!((replaced.len(), replaced.get("key0"), &replaced["one-more"]), (100, None, &json!(true)));

    // A member's own settings hold a hundred keys too.
    let own = format!("/teams/{team}/members/settings");
    let hundred: serde_json::Map<String, Value> = (0..100).map(|n| (format!("key{n}"), json!(n))).collect();
    app.api_patch(&owner, &own, Value::Object(hundred)).await.assert_status(StatusCode::OK);
    app.api_patch(&owner, &own, json!({ "one-more": true }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_settings");
    let mine = app.api_patch(&owner, &own, json!({ "key9": "mine" })).await;
    assert_eq!(mine.assert_status(StatusCode::OK)["settings"]["key9"], "mine");

    // One change names at most 200 keys: enough to replace a whole map.
    let too_many: serde_json::Map<String, Value> =
        (0..201).map(|n| (format!("gone{n}"), Value::Null)).collect();
    app.api_patch(&owner, &own, Value::Object(too_many))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_settings");
    let replaced: serde_json::Map<String, Value> = (0..100)
        .map(|n| (format!("key{n}"), Value::Null))
        .chain((0..100).map(|n| (format!("new{n}"), json!(n))))
        .collect();
    let replaced = app.api_patch(&owner, &own, Value::Object(replaced)).await;
    let replaced = replaced.assert_status(StatusCode::OK)["settings"].as_object().unwrap().clone();
    assert_eq!((replaced.len(), replaced.get("key9"), &replaced["new99"]), (100, None, &json!(99)));
}

#[rstest]
#[tokio::test]
async fn member_settings_are_each_members_own(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let viewer = app.person("viewer").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let mine = format!("/teams/{team}/members/settings");

    app.api_patch(&owner, &mine, json!({ "preferred_thread_line": "madeira-polyneon", "theme": "dark" }))
        .await
        .assert_status(StatusCode::OK);
    let viewers = app.api_patch(&viewer, &format!("{mine}/theme"), json!({ "value": "light" })).await;
    assert_eq!(viewers.assert_status(StatusCode::OK)["value"], "light", "viewers keep their own preferences");

    assert_eq!(
        app.api_get(&owner, &mine).await.body["settings"],
        json!({ "preferred_thread_line": "madeira-polyneon", "theme": "dark" })
    );
    assert_eq!(app.api_get(&viewer, &mine).await.body["settings"], json!({ "theme": "light" }));
    assert_eq!(
        app.api_get(&viewer, &format!("{mine}/preferred_thread_line")).await.body["value"],
        Value::Null
    );
    assert_eq!(
        app.api_get(&owner, &format!("/teams/{team}/settings")).await.body["settings"],
        json!({}),
        "team settings apart"
    );

    // One key changed (on PostgreSQL one statement, which reads the other keys beside it):
    // answered with this member's whole map, none of the other's.
    let changed = app.api_patch(&viewer, &mine, json!({ "theme": "dark" })).await;
    assert_eq!(changed.assert_status(StatusCode::OK)["settings"], json!({ "theme": "dark" }));
    let changed = app.api_patch(&owner, &mine, json!({ "theme": "light" })).await;
    assert_eq!(
        changed.assert_status(StatusCode::OK)["settings"],
        json!({ "preferred_thread_line": "madeira-polyneon", "theme": "light" })
    );
    let removed = app.api_patch(&owner, &mine, json!({ "theme": null })).await;
    assert_eq!(
        removed.assert_status(StatusCode::OK)["settings"],
        json!({ "preferred_thread_line": "madeira-polyneon" })
    );

    // Leaving the team removes that member's settings with the membership.
    app.api_delete(&viewer, &format!("/teams/{team}/members/{}", viewer.id))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    app.join(&owner, &team, &viewer, "viewer").await;
    assert_eq!(app.api_get(&viewer, &mine).await.body["settings"], json!({}));
}
