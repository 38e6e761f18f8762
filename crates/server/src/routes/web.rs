//! The React app: `index.html` for every non-API path (client-side routing), and the hashed
//! assets it loads, embedded in the binary at build time (see `build.rs`).

use axum::{
    Router,
    body::Bytes,
    http::{HeaderName, HeaderValue, Method, StatusCode, header},
    response::{IntoResponse, Response},
};
use memory_serve::CacheControl;
use serde::Serialize;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::config::Environment;

const INDEX_TEMPLATE: &str = include_str!(concat!(env!("OUT_DIR"), "/index.html"));
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

pub fn router<S: Clone + Send + Sync + 'static>(environment: Environment) -> Router<S> {
    let index = Bytes::from(render_index(environment));
    let assets = embedded_assets()
        .index_file(None)
        // Every file under /assets has a content hash in its name: it never changes.
        .cache_control(CacheControl::Long)
        .into_router()
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(SetResponseHeaderLayer::if_not_present(
            header::VARY,
            HeaderValue::from_static("accept-encoding"),
        ));

    // The embeddable converter: stable names that other sites load, so cached for an hour only,
    // and readable cross-origin (a module script and its fetch of the .wasm need CORS).
    let widget = embedded_widget()
        .index_file(Some("/demo.html"))
        .cache_control(CacheControl::Custom("public, max-age=3600, stale-while-revalidate=86400"))
        .html_cache_control(CacheControl::Custom("public, max-age=3600"))
        .into_router()
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(SetResponseHeaderLayer::overriding(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::VARY,
            HeaderValue::from_static("accept-encoding"),
        ));

    Router::new().nest("/assets", assets).nest("/widget", widget).fallback(move |method: Method| {
        let index = index.clone();
        async move { app_page(&method, index) }
    })
}

#[expect(unused_qualifications, reason = "memory-serve's generated asset table spells out its paths")]
fn embedded_assets() -> memory_serve::MemoryServe {
    memory_serve::load!("assets")
}

#[expect(unused_qualifications, reason = "memory-serve's generated asset table spells out its paths")]
fn embedded_widget() -> memory_serve::MemoryServe {
    memory_serve::load!("widget")
}

fn app_page(method: &Method, index: Bytes) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    (
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
}
