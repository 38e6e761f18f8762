//! Refusing cross-site request forgery on the product API. The browser sends the auth cookie
//! with every request to this server, also one that a page of another site makes (a form
//! posted to `/api/v2/invites/{id}/accept`, say); SameSite=Lax does not stop a same-site
//! attacker, nor an old browser. So a request that changes something (POST, PUT, PATCH,
//! DELETE) and rides on the cookie must show that it comes from Bobbin's own pages:
//!
//! - an `Origin` equal to the site URL's origin (browsers send one with every such request), or,
//!   where there is no `Origin`, `Sec-Fetch-Site: same-origin`, the browser's own statement that
//!   the page and the server share an origin (pages cannot set either header).
//!
//! Anything else answers 403 `cross_site_request`. Requests with a bearer token are not
//! affected: a page of another site cannot make the browser add one. Requests with neither
//! (the anonymous converter) carry no one's authority. This is the check OWASP calls "verifying
//! origin with standard headers"; a CSRF token was rejected because the official auth client
//! keeps the session in a cookie the app never sees, and the headers already say what a token
//! would.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, Method, header},
    middleware::Next,
    response::{IntoResponse as _, Response},
};
use url::Url;

use crate::{auth::extract::bearer, error::AppError, extract::has_auth_cookie, state::AppState};

pub async fn refuse_cross_site(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let safe = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let headers = request.headers();
    if safe || bearer(headers).is_some() || !has_auth_cookie(headers) {
        return next.run(request).await;
    }
    let site = &state.auth.config.site_url;
    if from_our_pages(headers, site) {
        return next.run(request).await;
    }
    AppError::CrossSite(format!(
        "This request came from another site, so it was refused. Open Bobbin at {} and try again there.",
        site.origin().ascii_serialization()
    ))
    .into_response()
}

/// The `Origin` decides when there is one; only where it is absent does `Sec-Fetch-Site`.
fn from_our_pages(headers: &HeaderMap, site: &Url) -> bool {
    let header = |name| headers.get(name).and_then(|value| value.to_str().ok());
    match header(header::ORIGIN.as_str()) {
        Some(origin) => Url::parse(origin).is_ok_and(|origin| origin.origin() == site.origin()),
        None => header("sec-fetch-site") == Some("same-origin"),
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn our_origin_or_without_one_the_browsers_same_origin_word_counts() {
        let site = Url::parse("https://bobbin.example/").unwrap();
        assert!(from_our_pages(&headers(&[("origin", "https://bobbin.example")]), &site));
        assert!(from_our_pages(&headers(&[("sec-fetch-site", "same-origin")]), &site));
        assert!(!from_our_pages(&headers(&[("origin", "https://evil.example")]), &site));
        assert!(!from_our_pages(&headers(&[("origin", "http://bobbin.example")]), &site), "another scheme");
        assert!(!from_our_pages(&headers(&[("origin", "https://bobbin.example.evil.net")]), &site));
        assert!(!from_our_pages(&headers(&[("origin", "null")]), &site));
        assert!(!from_our_pages(&headers(&[("sec-fetch-site", "same-site")]), &site));
        assert!(!from_our_pages(&headers(&[("sec-fetch-site", "cross-site")]), &site));
        // The Origin decides when there is one.
        assert!(!from_our_pages(
            &headers(&[("origin", "https://evil.example"), ("sec-fetch-site", "same-origin")]),
            &site
        ));
        assert!(!from_our_pages(&headers(&[]), &site), "neither header: not a page of ours");
    }
}
