//! The storage service area, `/storage/v1` (issue 49): who may read and write a team's files,
//! the limits, content stored once, signed URLs, and the files going with the database (two
//! servers, a backup). That the official client works against it is end2end/storage-client's.

use reqwest::{Method, StatusCode, header};
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    auth_helpers::{Answer, send},
    helpers::{Backend, TestApp, spawn_app, spawn_app_with, spawn_second_server},
    team_helpers::Person,
};

/// A design file's first bytes (a DST header is 512 bytes of text) and a marker.
fn design(marker: &str) -> Vec<u8> {
    let mut bytes = format!("LA:{marker:<16}\r").into_bytes();
    bytes.resize(2_048, b' ');
    bytes
}

impl TestApp {
    /// A storage call (`/storage/v1{path}`) as `who`, with a raw body of this type.
    async fn storage(
        &self,
        who: &Person,
        method: Method,
        path: &str,
        body: Option<(Vec<u8>, &str)>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request =
            self.client.request(method, self.url(&format!("/storage/v1{path}"))).bearer_auth(&who.token);
        if let Some((bytes, content_type)) = body {
            request = request.header(header::CONTENT_TYPE, content_type).body(bytes);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        send(request).await
    }

    pub(crate) async fn upload(&self, who: &Person, team: &str, key: &str, bytes: Vec<u8>) -> Answer {
        self.storage(
            who,
            Method::POST,
            &format!("/object/{team}/{key}"),
            Some((bytes, "application/octet-stream")),
            &[],
        )
        .await
    }

    async fn download(&self, who: &Person, team: &str, key: &str) -> reqwest::Response {
        self.client
            .get(self.url(&format!("/storage/v1/object/{team}/{key}")))
            .bearer_auth(&who.token)
            .send()
            .await
            .unwrap()
    }

    async fn storage_json(&self, who: &Person, method: Method, path: &str, body: Value) -> Answer {
        self.storage(who, method, path, Some((body.to_string().into_bytes(), "application/json")), &[]).await
    }
}

impl Answer {
    /// Asserts an error in Supabase Storage's shape with this status and code.
    #[track_caller]
    fn assert_storage_error(&self, status: StatusCode, code: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.body["statusCode"], status.as_str(), "{self:?}");
        assert_eq!(self.body["code"], code, "{self:?}");
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()), "{self:?}");
    }
}

#[rstest]
#[tokio::test]
async fn members_write_viewers_read_and_strangers_find_no_bucket(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let member = app.person("member").await;
    let viewer = app.person("viewer").await;
    let stranger = app.person("stranger").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.join(&owner, &team, &member, "member").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let elsewhere = app.team(&stranger, "Other Shop").await;

    let uploaded = app.upload(&member, &team, "logos/rose.dst", design("rose")).await;
    assert_eq!(uploaded.assert_status(StatusCode::OK)["Key"], format!("{team}/logos/rose.dst"));
    let seen = app.download(&viewer, &team, "logos/rose.dst").await;
    assert_eq!(seen.status(), StatusCode::OK);
    assert_eq!(seen.bytes().await.unwrap(), design("rose"));

    // A viewer reads, never writes.
    app.upload(&viewer, &team, "mine.dst", design("viewer"))
        .await
        .assert_storage_error(StatusCode::FORBIDDEN, "AccessDenied");
    app.storage_json(
        &viewer,
        Method::DELETE,
        &format!("/object/{team}"),
        json!({ "prefixes": ["logos/rose.dst"] }),
    )
    .await
    .assert_storage_error(StatusCode::FORBIDDEN, "AccessDenied");

    // Another team's bucket answers exactly as one that does not exist.
    let missing = "AAAAAAAAAAAAAAAA";
    for bucket in [team.as_str(), missing] {
        let listed = app
            .storage_json(&stranger, Method::POST, &format!("/object/list/{bucket}"), json!({ "prefix": "" }))
            .await;
        listed.assert_storage_error(StatusCode::NOT_FOUND, "NoSuchBucket");
        let got =
            app.storage(&stranger, Method::GET, &format!("/object/{bucket}/logos/rose.dst"), None, &[]).await;
        got.assert_storage_error(StatusCode::NOT_FOUND, "NoSuchBucket");
        let put = app.upload(&stranger, bucket, "planted.dst", design("x")).await;
        put.assert_storage_error(StatusCode::NOT_FOUND, "NoSuchBucket");
        let bucket_info = app.storage(&stranger, Method::GET, &format!("/bucket/{bucket}"), None, &[]).await;
        bucket_info.assert_storage_error(StatusCode::NOT_FOUND, "NoSuchBucket");
    }
    let foreign =
        app.storage(&stranger, Method::GET, &format!("/object/{team}/logos/rose.dst"), None, &[]).await;
    let absent =
        app.storage(&stranger, Method::GET, &format!("/object/{missing}/logos/rose.dst"), None, &[]).await;
    assert_eq!(foreign.body, absent.body);
    // Moving a file out of the team, or into it, needs writing to both.
    app.storage_json(
        &stranger,
        Method::POST,
        "/object/copy",
        json!({ "bucketId": team, "sourceKey": "logos/rose.dst", "destinationBucket": elsewhere, "destinationKey": "stolen.dst" }),
    )
    .await
    .assert_storage_error(StatusCode::NOT_FOUND, "NoSuchBucket");

    // The buckets listed are the caller's teams'.
    let buckets = app.storage(&stranger, Method::GET, "/bucket", None, &[]).await;
    let ids: Vec<&str> = buckets
        .assert_status(StatusCode::OK)
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [elsewhere.as_str()]);
    // Without a session: refused.
    let anonymous = send(app.client.get(app.url(&format!("/storage/v1/object/{team}/logos/rose.dst")))).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{anonymous:?}");
    assert_eq!(anonymous.body["code"], "AccessDenied");
}

#[rstest]
#[tokio::test]
async fn the_same_content_is_stored_once_a_team_and_goes_when_no_file_names_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let other = app.team(&owner, "Second Shop").await;

    app.upload(&owner, &team, "a.dst", design("same")).await.assert_status(StatusCode::OK);
    app.upload(&owner, &team, "b.dst", design("same")).await.assert_status(StatusCode::OK);
    app.upload(&owner, &other, "c.dst", design("same")).await.assert_status(StatusCode::OK);
    let copied = app
        .storage_json(
            &owner,
            Method::POST,
            "/object/copy",
            json!({ "bucketId": team, "sourceKey": "a.dst", "destinationKey": "d.dst" }),
        )
        .await;
    assert_eq!(copied.assert_status(StatusCode::OK)["Key"], format!("{team}/d.dst"));
    // One blob in each team: a team's blobs are its own, never another's.
    assert_eq!(
        (app.count("storage_objects", "1 = 1").await, app.count("storage_blobs", "1 = 1").await),
        (4, 2)
    );
    // A key taken is refused without `x-upsert`, replaced with it.
    app.upload(&owner, &team, "a.dst", design("other"))
        .await
        .assert_storage_error(StatusCode::CONFLICT, "KeyAlreadyExists");
    let replaced = app
        .storage(
            &owner,
            Method::POST,
            &format!("/object/{team}/a.dst"),
            Some((design("other"), "application/octet-stream")),
            &[("x-upsert", "true")],
        )
        .await;
    replaced.assert_status(StatusCode::OK);
    assert_eq!(app.download(&owner, &team, "a.dst").await.bytes().await.unwrap(), design("other"));
    assert_eq!(app.count("storage_blobs", "1 = 1").await, 3);

    for (bucket, keys) in
        [(&team, json!(["a.dst", "b.dst", "d.dst", "not-there.dst"])), (&other, json!(["c.dst"]))]
    {
        let removed = app
            .storage_json(&owner, Method::DELETE, &format!("/object/{bucket}"), json!({ "prefixes": keys }))
            .await;
        assert!(removed.assert_status(StatusCode::OK).as_array().unwrap().len() <= 3);
    }
    assert_eq!(app.count("storage_objects", "1 = 1").await, 0);
    // The clean-up removes blobs no file names once unused for an hour, not before.
    let now = time::OffsetDateTime::now_utc();
    assert_eq!(
        bobbin_server::repo::storage::prune_blobs(&app.db, now - time::Duration::hours(1)).await.unwrap(),
        0
    );
    assert_eq!(
        bobbin_server::repo::storage::prune_blobs(&app.db, now + time::Duration::seconds(1)).await.unwrap(),
        3
    );
    assert_eq!(app.count("storage_blobs", "1 = 1").await, 0);
}

#[rstest]
#[tokio::test]
async fn a_file_over_the_limit_or_the_teams_quota_answers_413(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.team_storage_mb = 3.try_into().unwrap();
        args.max_file_mb = 2.try_into().unwrap();
    })
    .await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;

    let big = vec![7_u8; 2_000_001];
    app.upload(&owner, &team, "big.dst", big)
        .await
        .assert_storage_error(StatusCode::PAYLOAD_TOO_LARGE, "EntityTooLarge");
    // The same through a multipart form, as storage-js sends a Blob.
    let form = reqwest::multipart::Form::new()
        .text("cacheControl", "3600")
        .part("", reqwest::multipart::Part::bytes(vec![7_u8; 2_000_001]).file_name("big.dst"));
    let sent = send(
        app.client
            .post(app.url(&format!("/storage/v1/object/{team}/form.dst")))
            .bearer_auth(&owner.token)
            .multipart(form),
    )
    .await;
    sent.assert_storage_error(StatusCode::PAYLOAD_TOO_LARGE, "EntityTooLarge");

    app.upload(&owner, &team, "one.dst", vec![1_u8; 1_500_000]).await.assert_status(StatusCode::OK);
    app.upload(&owner, &team, "two.dst", vec![2_u8; 1_400_000]).await.assert_status(StatusCode::OK);
    let over = app.upload(&owner, &team, "three.dst", vec![3_u8; 200_000]).await;
    over.assert_storage_error(StatusCode::PAYLOAD_TOO_LARGE, "EntityTooLarge");
    // Replacing a file counts its new size instead of the old one.
    let smaller = app
        .storage(
            &owner,
            Method::PUT,
            &format!("/object/{team}/one.dst"),
            Some((vec![1_u8; 100], "application/octet-stream")),
            &[],
        )
        .await;
    smaller.assert_status(StatusCode::OK);
    app.upload(&owner, &team, "three.dst", vec![3_u8; 200_000]).await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn a_signed_url_downloads_that_one_file_until_it_expires(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.upload(&owner, &team, "rose.dst", design("rose")).await.assert_status(StatusCode::OK);
    app.upload(&owner, &team, "tulip.dst", design("tulip")).await.assert_status(StatusCode::OK);

    let signed = app
        .storage_json(
            &owner,
            Method::POST,
            &format!("/object/sign/{team}/rose.dst"),
            json!({ "expiresIn": 60 }),
        )
        .await;
    let path = signed.assert_status(StatusCode::OK)["signedURL"].as_str().unwrap().to_owned();
    assert!(path.starts_with(&format!("/object/sign/{team}/rose.dst?token=")), "{path}");
    let anyone = app.client.get(app.url(&format!("/storage/v1{path}"))).send().await.unwrap();
    assert_eq!(anyone.status(), StatusCode::OK);
    assert!(anyone.headers().contains_key(header::EXPIRES));
    assert_eq!(anyone.bytes().await.unwrap(), design("rose"));

    // The token grants that file alone: not another, and it is no session.
    let token = path.split("token=").nth(1).unwrap();
    let other =
        send(app.client.get(app.url(&format!("/storage/v1/object/sign/{team}/tulip.dst?token={token}"))))
            .await;
    other.assert_storage_error(StatusCode::BAD_REQUEST, "InvalidSignature");
    let as_session =
        send(app.client.get(app.url(&format!("/storage/v1/object/{team}/tulip.dst"))).bearer_auth(token))
            .await;
    assert_eq!(as_session.status, StatusCode::UNAUTHORIZED, "{as_session:?}");
    let api = send(app.client.get(app.url("/api/v2/teams")).bearer_auth(token)).await;
    assert_eq!(api.status, StatusCode::UNAUTHORIZED, "{api:?}");
    let forged = format!("{}x", &token[..token.len() - 1]);
    let forged =
        send(app.client.get(app.url(&format!("/storage/v1/object/sign/{team}/rose.dst?token={forged}"))))
            .await;
    forged.assert_storage_error(StatusCode::BAD_REQUEST, "InvalidJWT");

    // Expired.
    let short = app
        .storage_json(
            &owner,
            Method::POST,
            &format!("/object/sign/{team}/rose.dst"),
            json!({ "expiresIn": 1 }),
        )
        .await;
    let short = short.assert_status(StatusCode::OK)["signedURL"].as_str().unwrap().to_owned();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let late = send(app.client.get(app.url(&format!("/storage/v1{short}")))).await;
    late.assert_storage_error(StatusCode::BAD_REQUEST, "InvalidJWT");

    // The file removed, then uploaded again under the same key: the old URL no longer works.
    app.storage_json(&owner, Method::DELETE, &format!("/object/{team}"), json!({ "prefixes": ["rose.dst"] }))
        .await
        .assert_status(StatusCode::OK);
    app.upload(&owner, &team, "rose.dst", design("another rose")).await.assert_status(StatusCode::OK);
    let gone = send(app.client.get(app.url(&format!("/storage/v1{path}")))).await;
    gone.assert_storage_error(StatusCode::NOT_FOUND, "NoSuchKey");
}

#[tokio::test]
async fn a_download_never_runs_in_the_page_and_a_copy_held_is_not_sent_again() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.to_vec();
    app.storage(&owner, Method::POST, &format!("/object/{team}/evil.svg"), Some((svg, "image/svg+xml")), &[])
        .await
        .assert_status(StatusCode::OK);
    app.storage(
        &owner,
        Method::POST,
        &format!("/object/{team}/page.html"),
        Some((b"<p>hi</p>".to_vec(), "text/html")),
        &[],
    )
    .await
    .assert_status(StatusCode::OK);
    for key in ["evil.svg", "page.html"] {
        let answer = app.download(&owner, &team, key).await;
        assert_eq!(answer.status(), StatusCode::OK);
        let headers = answer.headers();
        assert!(
            headers[header::CONTENT_DISPOSITION].to_str().unwrap().starts_with("attachment"),
            "{headers:?}"
        );
        assert_eq!(headers[header::CONTENT_SECURITY_POLICY], "default-src 'none'; sandbox");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert!(headers[header::CACHE_CONTROL].to_str().unwrap().starts_with("private"), "{headers:?}");
    }
    let first = app.download(&owner, &team, "evil.svg").await;
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
    let again = app
        .client
        .get(app.url(&format!("/storage/v1/object/{team}/evil.svg")))
        .bearer_auth(&owner.token)
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn a_write_riding_on_the_cookie_from_another_site_is_refused() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let session = json!({ "access_token": owner.token }).to_string();
    let cookie = format!("{}={}", bobbin_server::extract::AUTH_COOKIE, urlencode(&session));
    let forged = send(
        app.client
            .post(app.url(&format!("/storage/v1/object/{team}/planted.dst")))
            .header(header::COOKIE, &cookie)
            .header(header::ORIGIN, "https://evil.example")
            .body(design("planted")),
    )
    .await;
    forged.assert_storage_error(StatusCode::FORBIDDEN, "AccessDenied");
    let ours = send(
        app.client
            .post(app.url(&format!("/storage/v1/object/{team}/ours.dst")))
            .header(header::COOKIE, &cookie)
            .header(header::ORIGIN, app.address.as_str())
            .body(design("ours")),
    )
    .await;
    ours.assert_status(StatusCode::OK);
    assert_eq!(app.count("storage_objects", "1 = 1").await, 1);
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test]
async fn two_servers_on_one_postgresql_serve_the_same_files() {
    let first = spawn_app(Backend::Postgres).await;
    let second = spawn_second_server(&first).await;
    let owner = first.person("owner").await;
    let team = first.team(&owner, "Stitch Shop").await;
    // Larger than a download's piece (256 KiB), so it is sent in several.
    let big: Vec<u8> = (0..600_000_u32).map(|n| u8::try_from(n % 251).unwrap()).collect();
    first.upload(&owner, &team, "rose.dst", big.clone()).await.assert_status(StatusCode::OK);
    let there = second.download(&owner, &team, "rose.dst").await;
    assert_eq!(there.status(), StatusCode::OK);
    assert_eq!(there.bytes().await.unwrap(), big);
}

#[tokio::test]
async fn a_backup_restored_keeps_the_files() {
    use crate::operator::bobbin_on;

    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.upload(&owner, &team, "rose.dst", design("rose")).await.assert_status(StatusCode::OK);

    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("copy.db");
    let made = bobbin_on(&app.database.url, &["backup", copy.to_str().unwrap()], "").await;
    assert!(made.ok().contains("Backed up and checked"), "{}", made.stdout);
    let fresh = folder.path().join("fresh").join("bobbin.db");
    let url = format!("sqlite://{}", fresh.display());
    let restored = bobbin_on(&url, &["restore", copy.to_str().unwrap()], "").await;
    assert!(restored.ok().contains("Restored"), "{}", restored.stdout);

    let server =
        spawn_app_with(Backend::Sqlite, move |args| args.database.database_url = url.as_str().into()).await;
    let session = server.sign_in(&owner.email, crate::auth_helpers::PASSWORD).await;
    let token = session.assert_status(StatusCode::OK)["access_token"].as_str().unwrap().to_owned();
    let owner = Person { token, ..owner };
    let back = server.download(&owner, &team, "rose.dst").await;
    assert_eq!(back.status(), StatusCode::OK);
    assert_eq!(back.bytes().await.unwrap(), design("rose"));
}

#[rstest]
#[tokio::test]
async fn uploads_at_once_cannot_go_over_the_quota_together(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = std::sync::Arc::new(
        spawn_app_with(backend, |args| {
            args.team_storage_mb = 5.try_into().unwrap();
            args.max_file_mb = 2.try_into().unwrap();
        })
        .await,
    );
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    // Eight files of 1.9 MB at once, and eight uploads of one new key: room for two files.
    let uploads = (0..8_u8).map(|n| {
        let (app, owner, team) = (std::sync::Arc::clone(&app), owner.clone(), team.clone());
        tokio::spawn(async move {
            app.upload(&owner, &team, &format!("f{n}.dst"), vec![n; 1_900_000]).await.status
        })
    });
    let same_key = (0..8_u8).map(|n| {
        let (app, owner, team) = (std::sync::Arc::clone(&app), owner.clone(), team.clone());
        tokio::spawn(async move { app.upload(&owner, &team, "same.dst", vec![n; 10]).await.status })
    });
    let mut statuses = Vec::new();
    for task in uploads.chain(same_key) {
        statuses.push(task.await.unwrap());
    }
    let stored = statuses[..8].iter().filter(|status| **status == StatusCode::OK).count();
    assert_eq!(stored, 2, "{statuses:?}");
    assert!(
        statuses[..8].iter().all(|s| *s == StatusCode::OK || *s == StatusCode::PAYLOAD_TOO_LARGE),
        "{statuses:?}"
    );
    let same: Vec<_> = statuses[8..].to_vec();
    assert_eq!(same.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{same:?}");
    assert!(same.iter().all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT), "{same:?}");
}

#[tokio::test]
async fn a_signed_url_ends_when_its_file_is_replaced_and_keys_that_would_break_it_are_refused() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.upload(&owner, &team, "plan.txt", b"v1".to_vec()).await.assert_status(StatusCode::OK);
    let signed = app
        .storage_json(
            &owner,
            Method::POST,
            &format!("/object/sign/{team}/plan.txt"),
            json!({ "expiresIn": 600 }),
        )
        .await;
    let path = signed.assert_status(StatusCode::OK)["signedURL"].as_str().unwrap().to_owned();
    let before = app.client.get(app.url(&format!("/storage/v1{path}"))).send().await.unwrap();
    assert_eq!(before.headers()["cross-origin-resource-policy"], "same-origin");
    assert_eq!(before.bytes().await.unwrap().as_ref(), b"v1");
    app.storage(
        &owner,
        Method::PUT,
        &format!("/object/{team}/plan.txt"),
        Some((b"v2".to_vec(), "text/plain")),
        &[],
    )
    .await
    .assert_status(StatusCode::OK);
    send(app.client.get(app.url(&format!("/storage/v1{path}"))))
        .await
        .assert_storage_error(StatusCode::NOT_FOUND, "NoSuchKey");

    for key in ["a%3Fb.txt", "a%23b.txt", "rtl%E2%80%AEgpj.exe"] {
        app.upload(&owner, &team, key, b"x".to_vec())
            .await
            .assert_storage_error(StatusCode::BAD_REQUEST, "InvalidKey");
    }
    // Only how long a file may be kept is taken from the upload (as its metadata says); a
    // download is always asked again.
    app.storage(
        &owner,
        Method::POST,
        &format!("/object/{team}/cached.txt"),
        Some((b"x".to_vec(), "text/plain")),
        &[("cache-control", "public, max-age=60, immutable")],
    )
    .await
    .assert_status(StatusCode::OK);
    let cached = app.download(&owner, &team, "cached.txt").await;
    assert_eq!(cached.headers()[header::CACHE_CONTROL], "private, no-cache");
    let listed = app
        .storage_json(&owner, Method::POST, &format!("/object/list/{team}"), json!({ "prefix": "" }))
        .await;
    let entry =
        listed.body.as_array().unwrap().iter().find(|entry| entry["name"] == "cached.txt").unwrap().clone();
    assert_eq!(entry["metadata"]["cacheControl"], "max-age=60");
}

#[tokio::test]
async fn deleting_a_team_deletes_its_files() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.upload(&owner, &team, "rose.dst", design("rose")).await.assert_status(StatusCode::OK);
    app.api_delete(&owner, &format!("/teams/{team}")).await.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(
        (app.count("storage_objects", "1 = 1").await, app.count("storage_blobs", "1 = 1").await),
        (0, 0)
    );
}

#[rstest]
#[tokio::test]
async fn a_design_file_keeps_what_the_core_reads_of_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let sample = |name: &str| {
        std::fs::read(format!("{}/../../testdata/designs/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    };
    let info = async |key: &str| {
        let answer = app.storage(&owner, Method::GET, &format!("/object/info/{team}/{key}"), None, &[]).await;
        answer.assert_status(StatusCode::OK)["design"].clone()
    };

    app.upload(&owner, &team, "star.pes", sample("star-v7.pes")).await.assert_status(StatusCode::OK);
    let star = info("star.pes").await;
    assert_eq!(star["summary"]["format"], "pes");
    let blocks = star["blocks"].as_array().unwrap();
    assert_eq!(blocks.len() as u64, star["summary"]["colours"].as_u64().unwrap());
    assert_eq!(
        blocks.iter().map(|block| block["stitches"].as_u64().unwrap()).sum::<u64>(),
        star["summary"]["stitches"].as_u64().unwrap()
    );
    assert!(
        blocks.iter().all(|block| block["colour"].as_str().is_some_and(|c| c.starts_with('#'))),
        "{star}"
    );

    // Cut short: marked as a design Bobbin cannot read, with no partial summary.
    let dst = sample("star.dst");
    app.upload(&owner, &team, "cut.dst", dst[..700].to_vec()).await.assert_status(StatusCode::OK);
    let cut = info("cut.dst").await;
    assert!(cut["unreadable"].as_str().is_some_and(|why| !why.is_empty()), "{cut}");
    assert!(cut.get("summary").is_none(), "{cut}");
    // Not a design at all.
    app.upload(&owner, &team, "prices.pdf", b"%PDF-1.7".to_vec()).await.assert_status(StatusCode::OK);
    assert_eq!(info("prices.pdf").await, Value::Null);

    // The server's preview of a readable design, kept by the browser and revalidated by its ETag.
    let id_of = async |key: &str| {
        let answer = app.storage(&owner, Method::GET, &format!("/object/info/{team}/{key}"), None, &[]).await;
        answer.body["id"].as_str().unwrap().to_owned()
    };
    let preview = |id: &str| format!("/teams/{team}/designs/{id}/preview.svg");
    let drawn = app
        .client
        .get(app.url(&format!("/api/v2{}", preview(&id_of("star.pes").await))))
        .bearer_auth(&owner.token)
        .send()
        .await
        .unwrap();
    assert_eq!(drawn.status(), StatusCode::OK);
    assert_eq!(drawn.headers()[header::CONTENT_TYPE], "image/svg+xml");
    assert_eq!(drawn.headers()[header::CACHE_CONTROL], "private, no-cache");
    let etag = drawn.headers()[header::ETAG].to_str().unwrap().to_owned();
    let svg = drawn.text().await.unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"), "{svg:.100}");
    for block in blocks {
        assert!(svg.contains(&format!("<g stroke=\"{}\">", block["colour"].as_str().unwrap())));
    }
    let again = app
        .client
        .get(app.url(&format!("/api/v2{}", preview(&id_of("star.pes").await))))
        .bearer_auth(&owner.token)
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    // No preview for a design that cannot be read, a file that is none, another team's, or a
    // malformed id: the same 404.
    for id in [id_of("cut.dst").await, id_of("prices.pdf").await, "not-an-id".to_owned()] {
        app.api_get(&owner, &preview(&id)).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    let stranger = app.person("stranger").await;
    app.api_get(&stranger, &preview(&id_of("star.pes").await))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

pub(crate) fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../testdata/designs/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The library as the screens read it (`GET /api/v2/teams/{team}/designs`): every file of the
/// team's bucket with what it is as a design, by name unless asked otherwise, searched, in pages.
#[rstest]
#[tokio::test]
async fn the_library_lists_each_file_with_what_it_is_as_a_design(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let viewer = app.person("viewer").await;
    let stranger = app.person("stranger").await;
    let team = app.team(&owner, "Stitch Shop").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    app.upload(&owner, &team, "Star.pes", sample("star-v7.pes")).await.assert_status(StatusCode::OK);
    // Uploaded a minute before the others.
    crate::auth_helpers::age(&app, "storage_objects", "updated_at", 60).await;
    app.upload(&owner, &team, "logos/a-star.dst", sample("star.dst")).await.assert_status(StatusCode::OK);
    app.upload(&owner, &team, "cut.dst", sample("star.dst")[..700].to_vec())
        .await
        .assert_status(StatusCode::OK);
    app.upload(&owner, &team, "notes.txt", b"two polos, rush".to_vec()).await.assert_status(StatusCode::OK);

    let names = |page: &Value| -> Vec<String> {
        page["designs"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_owned()).collect()
    };
    let all = app.api_get(&viewer, &format!("/teams/{team}/designs")).await;
    let all = all.assert_status(StatusCode::OK);
    // By name ascending, whatever the case, by default.
    assert_eq!(names(all), ["cut.dst", "logos/a-star.dst", "notes.txt", "Star.pes"]);
    assert_eq!(
        (all["total"].as_u64(), all["page"].as_u64(), all["per_page"].as_u64()),
        (Some(4), Some(1), Some(48))
    );
    let star = &all["designs"][3];
    assert_eq!(star["design"]["summary"]["format"], "pes");
    assert!(star["design"]["summary"]["stitches"].as_u64().unwrap() > 0);
    assert!(star["design"].get("blocks").is_none(), "a list carries no blocks: {star}");
    assert_eq!(star["etag"].as_str().unwrap().len(), 66);
    assert!(all["designs"][0]["design"]["unreadable"].is_string());
    assert_eq!(all["designs"][2]["design"], Value::Null);

    let found = app.api_get(&viewer, &format!("/teams/{team}/designs?q=%20STAR")).await;
    assert_eq!(names(found.assert_status(StatusCode::OK)), ["logos/a-star.dst", "Star.pes"]);
    let largest = app.api_get(&viewer, &format!("/teams/{team}/designs?sort=size&order=desc")).await;
    let sizes: Vec<u64> = largest.assert_status(StatusCode::OK)["designs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["size"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|pair| pair[0] >= pair[1]), "{sizes:?}");
    let readable =
        app.api_get(&viewer, &format!("/teams/{team}/designs?readable=true&sort=updated&order=desc")).await;
    assert_eq!(
        names(readable.assert_status(StatusCode::OK)),
        ["logos/a-star.dst", "Star.pes"],
        "newest first"
    );
    let second = app.api_get(&viewer, &format!("/teams/{team}/designs?per_page=3&page=2")).await;
    let second = second.assert_status(StatusCode::OK);
    assert_eq!((names(second), second["total"].as_u64()), (vec!["Star.pes".to_owned()], Some(4)));
    let bad = app.api_get(&viewer, &format!("/teams/{team}/designs?sort=colour")).await;
    assert!(bad.status.is_client_error() && bad.body["code"].is_string(), "{bad:?}");

    // Another team's library is not found, as a team that does not exist.
    app.api_get(&stranger, &format!("/teams/{team}/designs"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

/// One design (`GET /api/v2/teams/{team}/designs/{id}`): its colour blocks, and the quotes
/// priced from it; a quote may name only a design of its own team's library, and keeps its
/// figures when the file is removed.
#[rstest]
#[tokio::test]
async fn a_design_lists_the_quotes_priced_from_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let other = app.team(&owner, "Second Shop").await;
    let id_in = async |team: &str, key: &str| {
        let answer = app.upload(&owner, team, key, sample("star-v7.pes")).await;
        answer.assert_status(StatusCode::OK)["Id"].as_str().unwrap().to_owned()
    };
    let id = id_in(&team, "star.pes").await;
    let foreign = id_in(&other, "star.pes").await;

    let page = app.api_get(&owner, &format!("/teams/{team}/designs/{id}")).await;
    let page = page.assert_status(StatusCode::OK).clone();
    assert_eq!(page["design"]["name"], "star.pes");
    let blocks = page["design"]["design"]["blocks"].as_array().unwrap();
    assert_eq!(blocks.len() as u64, page["design"]["design"]["summary"]["colours"].as_u64().unwrap());
    assert_eq!((page["quotes"].clone(), page["quotes_total"].as_u64()), (json!([]), Some(0)));

    let (rates, job) = crate::quotes::polos();
    let mut body = crate::quotes::quote("Café Rosa: 50 polos", "EUR", &rates, &job);
    body["design"] =
        json!({ "file_name": "star.pes", "summary": page["design"]["design"]["summary"], "id": id });
    let saved = app.api_post(&owner, &format!("/teams/{team}/quotes"), body.clone()).await;
    let saved = saved.assert_status(StatusCode::CREATED)["quote"].clone();
    assert_eq!(saved["design"]["id"], id.as_str());
    let quote_id = saved["id"].as_str().unwrap();
    app.api_post(&owner, &format!("/teams/{team}/quotes/{quote_id}/duplicate"), json!({}))
        .await
        .assert_status(StatusCode::CREATED);
    let page = app.api_get(&owner, &format!("/teams/{team}/designs/{id}")).await;
    let page = page.assert_status(StatusCode::OK);
    assert_eq!(page["quotes_total"], 2);
    assert_eq!(page["quotes"][1]["id"], quote_id);
    assert_eq!(page["quotes"][0]["name"], "Copy of Café Rosa: 50 polos");

    // Only a design of the team's own library.
    for wrong in [foreign.as_str(), "00000000-0000-4000-8000-000000000000"] {
        let mut planted = body.clone();
        planted["design"]["id"] = json!(wrong);
        let refused = app.api_post(&owner, &format!("/teams/{team}/quotes"), planted).await;
        refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "no_such_design");
    }
    // Another team's file is not found through this team, as a file that does not exist.
    for path in
        [format!("/teams/{team}/designs/{foreign}"), format!("/teams/{team}/designs/{foreign}/preview.svg")]
    {
        app.api_get(&owner, &path).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }

    // The file removed: its page is gone, the quote keeps its figures (and the id, which now
    // finds nothing).
    app.storage_json(&owner, Method::DELETE, &format!("/object/{team}"), json!({ "prefixes": ["star.pes"] }))
        .await
        .assert_status(StatusCode::OK);
    app.api_get(&owner, &format!("/teams/{team}/designs/{id}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    let reopened = app.api_get(&owner, &format!("/teams/{team}/quotes/{quote_id}")).await;
    assert_eq!(reopened.assert_status(StatusCode::OK)["quote"]["design"], body["design"]);
    let copy = app.api_post(&owner, &format!("/teams/{team}/quotes/{quote_id}/duplicate"), json!({})).await;
    assert_eq!(copy.assert_status(StatusCode::CREATED)["quote"]["design"], body["design"], "a copy keeps it");
}

/// Issue 49, point 3: every sample design, the fuzzers' crafted seeds, each sample cut short at
/// several places, and files claiming huge counts or holding millions of stitches are stored
/// without crashing or stalling the upload: each is a readable design or marked unreadable.
#[rstest]
#[tokio::test]
async fn crafted_and_broken_designs_neither_crash_nor_stall_an_upload(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let folders = ["testdata/designs", "fuzz/seeds/pes", "fuzz/seeds/vp3"];
    for folder in folders {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if matches!(path.extension().and_then(|e| e.to_str()), Some("md" | "tsv")) {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            for cut in [1, 3, 2] {
                let length = bytes.len() * cut / 4;
                files.push((format!("cut-{cut}-{name}"), bytes[..length].to_vec()));
            }
            files.push((name, bytes));
        }
    }
    // A DST header claiming ten million stitches over a few records, and a PES that says its
    // stitches start far past its end.
    let mut claims = sample("star.dst");
    claims[..512].copy_from_slice(&{
        let mut header = b"LA:claims         \rST:9999999\rCO:999\r".to_vec();
        header.resize(512, b' ');
        header
    });
    files.push(("claims.dst".to_owned(), claims));
    let mut far = sample("star-v7.pes");
    far[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    files.push(("far.pes".to_owned(), far));
    // Two million stitch records (6 MB): read, and its preview drawn from a few thousand points.
    let mut many = sample("star.dst")[..512].to_vec();
    for index in 0..2_000_000_u32 {
        many.extend_from_slice(if index % 2 == 0 { &[0x01, 0x01, 0x03] } else { &[0x02, 0x02, 0x03] });
    }
    many.extend_from_slice(&[0x00, 0x00, 0xF3]);
    files.push(("many.dst".to_owned(), many));

    assert!(files.len() > 50, "{} files", files.len());
    for (name, bytes) in files {
        let started = std::time::Instant::now();
        let stored = app.upload(&owner, &team, &format!("fuzz/{name}"), bytes).await;
        assert_eq!(stored.status, StatusCode::OK, "{name}: {stored:?}");
        // Far beyond any real reading: a reader stuck in a loop is caught here.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{name} took {:?}",
            started.elapsed()
        );
        let info =
            app.storage(&owner, Method::GET, &format!("/object/info/{team}/fuzz/{name}"), None, &[]).await;
        let design = &info.assert_status(StatusCode::OK)["design"];
        let readable = design["summary"]["stitches"].is_u64() && design["blocks"].is_array();
        assert!(readable != design["unreadable"].is_string(), "{name}: {design}");
    }
    let many = app.api_get(&owner, &format!("/teams/{team}/designs?q=many.dst")).await;
    assert_eq!(many.assert_status(StatusCode::OK)["designs"][0]["design"]["summary"]["stitches"], 2_000_000);
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK, "the server serves on");
}
