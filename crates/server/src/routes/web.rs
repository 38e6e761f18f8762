//! The React app: `index.html` for every non-API path (client-side routing), the hashed assets it
//! loads, and the build manifest (`/builds/`), embedded in the binary at build time (see
//! `build.rs`). A path that is none of the app's pages gets the same `index.html`, which shows the
//! not-found page, with status 404, so crawlers and monitors see the truth (docs/behaviour.md,
//! "Error pages").

use axum::{
    Router,
    body::Bytes,
    extract::Path,
    http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header},
    response::{IntoResponse, Response},
    routing::get,
};
use serde::{Deserialize, Serialize};
use tower_http::set_header::SetResponseHeaderLayer;

use super::embedded;
use crate::config::Environment;

const INDEX_TEMPLATE: &str = include_str!(concat!(env!("OUT_DIR"), "/index.html"));
/// `builds/latest.json`: the id and time of this binary's front-end build.
const LATEST_BUILD: &str = include_str!(concat!(env!("OUT_DIR"), "/latest-build.json"));
/// `builds/meta/{id}.json`: that build's page routes and route rules.
const BUILD_META: &str = include_str!(concat!(env!("OUT_DIR"), "/build-meta.json"));
/// The service worker (app-react/service-worker/sw.ts): it precaches this build for offline use.
const SERVICE_WORKER: &str = include_str!(concat!(env!("OUT_DIR"), "/sw.js"));
/// The web app manifest, which makes Bobbin installable.
const WEB_MANIFEST: &str = include_str!(concat!(env!("OUT_DIR"), "/manifest.webmanifest"));
/// Where `app-react/index.html` wants the runtime configuration.
const CONFIG_PLACEHOLDER: &str = "<!--bobbin:config-->";

/// Configuration the app reads at start from `<script id="bobbin-config">`, so it needs no
/// request (and shows no late banner) to know which deployment it is in.
#[derive(Debug, Serialize)]
struct ClientConfig {
    environment: Environment,
    version: &'static str,
}

pub fn render_index(environment: Environment) -> String {
    let config = ClientConfig { environment, version: crate::VERSION };
    // `<` escaped so no value can close the script element.
    let json = serde_json::to_string(&config).expect("config serialises").replace('<', "\\u003c");
    INDEX_TEMPLATE.replacen(
        CONFIG_PLACEHOLDER,
        &format!(r#"<script id="bobbin-config" type="application/json">{json}</script>"#),
        1,
    )
}

/// What the server reads of its build's `meta/{id}.json`.
#[derive(Debug, Deserialize)]
struct BuildMeta {
    id: String,
    /// The app's page routes, React Router's patterns (`/inventory/threads/:threadId`).
    routes: Vec<String>,
    /// Old paths the app redirects (guard 4): pages too, as far as the server is concerned.
    #[serde(rename = "routeRules")]
    route_rules: serde_json::Map<String, serde_json::Value>,
}

/// The app's page paths: its routes and the route rules' old paths, in axum's own path matcher.
#[derive(Debug)]
struct PagePaths(matchit::Router<()>);

impl PagePaths {
    fn of(meta: &BuildMeta) -> Self {
        let mut pages = matchit::Router::new();
        for route in meta.routes.iter().chain(meta.route_rules.keys()) {
            // `:threadId` is React Router's parameter; matchit spells it `{threadId}`.
            let pattern = route
                .split('/')
                .map(|segment| {
                    segment.strip_prefix(':').map_or_else(|| segment.to_owned(), |name| format!("{{{name}}}"))
                })
                .collect::<Vec<_>>()
                .join("/");
            // A route listed twice (a rule's path that is also a page) is one page.
            pages.insert(pattern, ()).ok();
        }
        Self(pages)
    }

    /// Whether `path` is one of the app's pages; a trailing `/` makes no difference, as in the
    /// app's router.
    fn contains(&self, path: &str) -> bool {
        let trimmed = path.trim_end_matches('/');
        self.0.at(if trimmed.is_empty() { "/" } else { trimmed }).is_ok()
    }
}

fn build_meta() -> BuildMeta {
    serde_json::from_str(BUILD_META).expect("the embedded build meta is the build's JSON")
}

pub fn router<S: Clone + Send + Sync + 'static>(environment: Environment) -> Router<S> {
    let index = Bytes::from(render_index(environment));
    let meta = build_meta();
    let pages = std::sync::Arc::new(PagePaths::of(&meta));
    let meta_path = format!("/builds/meta/{}.json", meta.id);
    // Every file under /assets has a content hash in its name: it never changes.
    let assets = get(|Path(file): Path<String>, headers: HeaderMap| async move {
        embedded::serve(embedded::assets(), &file, &headers, "max-age=31536000, immutable")
    });
    // The embeddable converter: stable names that other sites load, so cached for an hour only,
    // and readable cross-origin (a module script and its fetch of the .wasm need CORS).
    let widget = Router::new()
        .route(
            "/widget/{*file}",
            get(|Path(file): Path<String>, headers: HeaderMap| async move { widget_file(&file, &headers) }),
        )
        .route("/widget/", get(|headers: HeaderMap| async move { widget_file("demo.html", &headers) }))
        .layer(SetResponseHeaderLayer::overriding(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        ));

    Router::new()
        .route("/assets/{*file}", assets)
        .merge(widget)
        // The app polls it for a new deployment: never cached.
        .route("/builds/latest.json", get(|| async { build_file(LATEST_BUILD, "no-store") }))
        // This build's own, which never changes; another id's is not here (404).
        .route(&meta_path, get(|| async { build_file(BUILD_META, "public, max-age=31536000, immutable") }))
        // Both name this build's files, so a browser must ask again each time (browsers check a
        // worker at most every 24 hours whatever the header says, and at every page load with it).
        .route("/sw.js", get(|| async { root_file(SERVICE_WORKER, "text/javascript; charset=utf-8") }))
        .route(
            "/manifest.webmanifest",
            get(|| async { root_file(WEB_MANIFEST, "application/manifest+json") }),
        )
        .route(
            "/favicon.ico",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "image/svg+xml"),
                        (header::CACHE_CONTROL, "public, max-age=86400"),
                    ],
                    FAVICON,
                )
            }),
        )
        .fallback(move |method: Method, uri: Uri| {
            let index = index.clone();
            let status = if pages.contains(uri.path()) { StatusCode::OK } else { StatusCode::NOT_FOUND };
            async move { app_page(&method, status, index) }
        })
}

/// The logo, for pages that name no icon of their own (the widget's demo, a JSON document opened
/// in a browser), which browsers ask for at `/favicon.ico`; `index.html` carries the same drawing.
const FAVICON: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="8" y="3" width="16" height="4" rx="1" fill="#6d28d9"/><rect x="8" y="25" width="16" height="4" rx="1" fill="#6d28d9"/><rect x="10" y="7" width="12" height="18" fill="#db2777"/></svg>"##;

fn root_file(text: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], text).into_response()
}

fn build_file(json: &'static str, cache_control: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, cache_control)], json)
        .into_response()
}

/// A file of the embeddable converter: its demo page for an hour, the rest for an hour and
/// then a day while the browser checks for a new one.
fn widget_file(file: &str, headers: &HeaderMap) -> Response {
    let page = std::path::Path::new(file).extension().is_some_and(|extension| extension == "html");
    let cache_control =
        if page { "public, max-age=3600" } else { "public, max-age=3600, stale-while-revalidate=86400" };
    embedded::serve(embedded::widget(), file, headers, cache_control)
}

fn app_page(method: &Method, status: StatusCode, index: Bytes) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Always revalidated, so a new deployment is picked up on the next load.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        index,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_carries_the_environment() {
        let html = render_index(Environment::Staging);
        assert!(
            html.contains(r#"<script id="bobbin-config" type="application/json">{"environment":"staging","#)
        );
        assert!(!html.contains(CONFIG_PLACEHOLDER));
    }

    #[test]
    fn page_paths_take_parameters_and_a_trailing_slash_but_nothing_else() {
        let meta: BuildMeta = serde_json::from_str(
            r#"{"id":"b1","timestamp":0,"routes":["/","/login","/inventory/threads/:threadId"],
                "routeRules":{"/tools":{"redirect":"/calculators"}}}"#,
        )
        .unwrap();
        let pages = PagePaths::of(&meta);
        for known in ["/", "/login", "/login/", "/inventory/threads/AbCd1234EfGh5678", "/tools"] {
            assert!(pages.contains(known), "{known}");
        }
        for unknown in ["/nope", "/loginx", "/inventory/threads", "/inventory/threads/a/b", "/tools/more"] {
            assert!(!pages.contains(unknown), "{unknown}");
        }
    }
}
