//! The embedded React app: index.html for every page path (status 404 for a path that is none of
//! its pages), hashed assets cached for good and sent compressed, and the build manifest.

use std::path::PathBuf;

use reqwest::{StatusCode, header};

use crate::helpers::{Backend, TestApp, spawn_app, spawn_app_with};

/// The built assets (`make build`), which the server embeds.
fn built_asset(extension: &str) -> String {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../app-react/dist/assets");
    let entries = std::fs::read_dir(&folder)
        .unwrap_or_else(|_| panic!("{} is missing: run `make build` first", folder.display()));
    let name = entries
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .find(|name| name.ends_with(extension))
        .unwrap_or_else(|| panic!("no built *{extension} asset"));
    format!("/assets/{name}")
}

async fn get_with(app: &TestApp, path: &str, accept_encoding: &str) -> reqwest::Response {
    app.client.get(app.url(path)).header(header::ACCEPT_ENCODING, accept_encoding).send().await.unwrap()
}

#[tokio::test]
async fn page_paths_get_the_app_with_its_config_and_no_caching() {
    let app = spawn_app(Backend::Sqlite).await;

    // A path that is none of the app's pages gets the app too (it shows its not-found page), with
    // status 404: "the server answers unknown page paths with HTTP status 404".
    for (path, status) in [
        ("/", StatusCode::OK),
        ("/inventory/threads/abc", StatusCode::OK),
        ("/tools/thread-converter?from=x", StatusCode::OK),
        ("/login/", StatusCode::OK),
        ("/tools", StatusCode::OK),
        ("/no/such/page", StatusCode::NOT_FOUND),
        ("/loginx", StatusCode::NOT_FOUND),
        ("/inventory/threads/a/b", StatusCode::NOT_FOUND),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
        assert_eq!(response.headers()[header::CACHE_CONTROL], "no-cache");
        let html = response.text().await.unwrap();
        assert!(html.contains(r#"<div id="root">"#), "{path}: the React app's page");
        assert!(
            html.contains(
                r#"<script id="bobbin-config" type="application/json">{"environment":"development","#
            ),
            "{html}"
        );
    }
}

#[tokio::test]
async fn the_page_links_the_hashed_script_and_stylesheet() {
    let app = spawn_app(Backend::Sqlite).await;

    let html = app.get("/").await.text().await.unwrap();

    for asset in [built_asset(".js"), built_asset(".css")] {
        if asset.contains("/main-") {
            assert!(html.contains(&asset), "{asset} not linked from index.html");
        }
    }
    assert!(html.contains(r#"<script type="module" src="/assets/main-"#), "{html}");
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/main-"#), "{html}");
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_compressed_as_the_client_accepts() {
    let app = spawn_app(Backend::Sqlite).await;
    let script = built_asset(".js");

    let brotli = get_with(&app, &script, "gzip, deflate, br").await;
    assert_eq!(brotli.status(), StatusCode::OK);
    assert_eq!(brotli.headers()[header::CACHE_CONTROL], "max-age=31536000, immutable");
    assert_eq!(brotli.headers()[header::CONTENT_ENCODING], "br");
    assert_eq!(brotli.headers()[header::VARY], "accept-encoding");
    assert_eq!(brotli.headers()[header::CONTENT_TYPE], "text/javascript");

    let gzip = get_with(&app, &script, "gzip").await;
    assert_eq!(gzip.headers()[header::CONTENT_ENCODING], "gzip");

    let plain = get_with(&app, &script, "identity").await;
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    let size = plain.bytes().await.unwrap().len();
    let on_disk = std::fs::metadata(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../app-react/dist")
            .join(script.trim_start_matches('/')),
    )
    .unwrap()
    .len();
    assert_eq!(size as u64, on_disk, "the identity body is the file itself");
}

#[tokio::test]
async fn the_webassembly_core_is_served_for_streaming_compilation() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = get_with(&app, &built_asset(".wasm"), "br").await;

    assert_eq!(response.status(), StatusCode::OK);
    // instantiateStreaming requires exactly this type.
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/wasm");
    assert_eq!(response.headers()[header::CACHE_CONTROL], "max-age=31536000, immutable");
}

#[tokio::test]
async fn an_unchanged_asset_answers_304() {
    let app = spawn_app(Backend::Sqlite).await;
    let script = built_asset(".js");
    let etag = app.get(&script).await.headers()[header::ETAG].clone();

    let response = app.client.get(app.url(&script)).header(header::IF_NONE_MATCH, etag).send().await.unwrap();

    assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn a_missing_asset_is_a_404_not_the_app_page() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/assets/chunk-GONE1234.js").await;

    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(!response.text().await.unwrap().contains("<div id=\"root\">"));
}

#[tokio::test]
async fn posting_to_a_page_path_is_refused() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.client.post(app.url("/dashboard")).send().await.unwrap();

    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}

/// The front-end build's manifest, as `make build` wrote it (`app-react/build.mjs`).
fn built_manifest() -> (String, serde_json::Value) {
    let builds = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../app-react/dist/builds");
    let latest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(builds.join("latest.json")).unwrap()).unwrap();
    let id = latest["id"].as_str().unwrap().to_owned();
    let meta = std::fs::read_to_string(builds.join(format!("meta/{id}.json"))).unwrap();
    (id, serde_json::from_str(&meta).unwrap())
}

#[tokio::test]
async fn the_build_manifest_is_served_the_latest_never_cached() {
    let app = spawn_app(Backend::Sqlite).await;
    let (id, meta) = built_manifest();

    let latest = app.get("/builds/latest.json").await;
    assert_eq!(latest.status(), StatusCode::OK);
    assert_eq!(latest.headers()[header::CACHE_CONTROL], "no-store");
    assert_eq!(latest.json::<serde_json::Value>().await.unwrap()["id"], id);

    let own = app.get(&format!("/builds/meta/{id}.json")).await;
    assert_eq!(own.status(), StatusCode::OK);
    assert!(own.headers()[header::CACHE_CONTROL].to_str().unwrap().contains("immutable"));
    let served: serde_json::Value = own.json().await.unwrap();
    assert_eq!(served, meta);
    assert!(served["routes"].as_array().unwrap().iter().any(|route| route == "/inventory/threads/:threadId"));
    assert_eq!(served["routeRules"]["/tools"]["redirect"], "/calculators");

    // The page names its build, which the app compares with the latest.
    assert!(
        app.get("/")
            .await
            .text()
            .await
            .unwrap()
            .contains(&format!(r#"<meta name="bobbin-build" content="{id}""#))
    );
    assert_eq!(app.get("/builds/meta/0000000000000000.json").await.status(), StatusCode::NOT_FOUND);
}

// Issue 21: "every page of the app opens: the shell, every route's code, styles, fonts, the
// WebAssembly core and the thread catalogue come from a service worker's precache, versioned by
// build", and "A web app manifest and icons, so Chromium offers to install Bobbin; it opens in its
// own window at the dashboard".
#[tokio::test]
async fn the_service_worker_precaches_this_build_and_the_manifest_makes_it_installable() {
    let app = spawn_app(Backend::Sqlite).await;
    let (id, _) = built_manifest();

    let worker = app.get("/sw.js").await;
    assert_eq!(worker.status(), StatusCode::OK);
    assert!(worker.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/javascript"));
    assert_eq!(worker.headers()[header::CACHE_CONTROL], "no-cache");
    let worker = worker.text().await.unwrap();
    // The precache list, as build.mjs writes it into the worker: `{url:"...",revision:...}`.
    let precached: Vec<&str> =
        worker.split(r#"{url:""#).skip(1).filter_map(|entry| entry.split('"').next()).collect();
    // The shell, versioned by the build, this build's manifest, its code and its core.
    assert!(worker.contains(&format!(r#"{{url:"/",revision:"{id}"}}"#)), "the shell is precached by build");
    let meta = format!("/builds/meta/{id}.json");
    for asset in [built_asset(".js"), built_asset(".css"), built_asset(".wasm"), built_asset(".bin"), meta] {
        assert!(precached.contains(&asset.as_str()), "{asset} is precached: {precached:?}");
    }
    // Nothing of the API, the auth service, the development pages or the widget.
    for url in &precached {
        assert!(
            !["/api", "/auth", "/dev", "/widget"].iter().any(|never| url.starts_with(never)),
            "{url} is precached"
        );
    }

    let manifest = app.get("/manifest.webmanifest").await;
    assert_eq!(manifest.status(), StatusCode::OK);
    assert_eq!(manifest.headers()[header::CONTENT_TYPE], "application/manifest+json");
    let manifest: serde_json::Value = manifest.json().await.unwrap();
    assert_eq!(manifest["start_url"], "/dashboard");
    assert_eq!(manifest["display"], "standalone");
    let icons = manifest["icons"].as_array().unwrap();
    for size in ["192x192", "512x512"] {
        let icon = icons.iter().find(|icon| icon["sizes"] == size).unwrap();
        let served = app.get(icon["src"].as_str().unwrap()).await;
        assert_eq!(served.status(), StatusCode::OK);
        assert_eq!(served.headers()[header::CONTENT_TYPE], "image/png");
    }
    assert!(
        app.get("/")
            .await
            .text()
            .await
            .unwrap()
            .contains(r#"<link rel="manifest" href="/manifest.webmanifest" />"#)
    );
}

#[tokio::test]
async fn the_logo_answers_for_the_favicon_of_pages_that_name_none() {
    let app = spawn_app(Backend::Sqlite).await;
    let favicon = app.get("/favicon.ico").await;
    assert_eq!(favicon.status(), StatusCode::OK);
    assert_eq!(favicon.headers()[header::CONTENT_TYPE], "image/svg+xml");
    assert!(favicon.text().await.unwrap().starts_with("<svg"));
}

// The issue: "Icons come from a local icon endpoint served by Bobbin (an icon set from a
// well-kept package, embedded), with a public icon API as the fallback for an icon missing
// locally (configurable; off where the content security policy or offline use forbids it, with a
// neutral glyph instead)".
#[tokio::test]
async fn icons_come_from_the_embedded_set_and_a_missing_one_is_a_glyph_or_the_public_api() {
    let app = spawn_app(Backend::Sqlite).await;
    let menu = app.get("/icons/lucide/menu.svg").await;
    assert_eq!(menu.status(), StatusCode::OK);
    assert_eq!(menu.headers()[header::CONTENT_TYPE], "image/svg+xml");
    let csp = menu.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(csp.contains("img-src 'self' data: blob:;"), "{csp}");
    let svg = menu.text().await.unwrap();
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24""#), "{svg}");
    assert!(svg.contains("M4 5h16M4 12h16M4 19h16"), "Lucide's menu: {svg}");
    // One of Lucide's old names reaches its icon.
    assert_eq!(app.get("/icons/lucide/activity-square.svg").await.status(), StatusCode::OK);

    let missing = app.get("/icons/lucide/not-an-icon-of-bobbin.svg").await;
    assert_eq!(missing.status(), StatusCode::OK);
    assert!(missing.text().await.unwrap().contains("stroke-dasharray"), "the neutral glyph");
    for refused in ["/icons/other/menu.svg", "/icons/lucide/menu.png", "/icons/lucide/..%2Fmenu.svg"] {
        assert_eq!(app.get(refused).await.status(), StatusCode::NOT_FOUND, "{refused}");
    }

    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.icon_fallback_url = Some("https://api.iconify.design".parse().unwrap());
    })
    .await;
    let redirected = app.get("/icons/lucide/not-an-icon-of-bobbin.svg").await;
    assert_eq!(redirected.status(), StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(
        redirected.headers()[header::LOCATION],
        "https://api.iconify.design/lucide/not-an-icon-of-bobbin.svg"
    );
    let csp = redirected.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(csp.contains("img-src 'self' data: blob: https://api.iconify.design;"), "{csp}");
    assert!(csp.contains("connect-src 'self' https://api.iconify.design;"), "{csp}");
    // An icon the set has is still its own.
    assert_eq!(app.get("/icons/lucide/menu.svg").await.status(), StatusCode::OK);
}
