//! The front end's files under `/assets/` and `/widget/`, embedded by `build.rs` with brotli and
//! gzip copies made at build time: an answer is the bytes in the binary, in the encoding the
//! client accepts, and start-up does no work for them.

use axum::{
    body::Body,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

/// One embedded file; `brotli` and `gzip` are absent where compressing did not make it smaller.
#[derive(Debug)]
pub struct EmbeddedFile {
    /// Under its folder, without a leading `/`: `main-4F2K.js`.
    pub path: &'static str,
    pub content_type: &'static str,
    /// The SHA-256 of the file, quoted.
    pub etag: &'static str,
    pub identity: &'static [u8],
    pub brotli: Option<&'static [u8]>,
    pub gzip: Option<&'static [u8]>,
}

// `ASSETS` (dist/assets) and `WIDGET` (dist/widget), each sorted by path.
include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The files of `dist/assets/`, each named by its content's hash.
pub fn assets() -> &'static [EmbeddedFile] {
    ASSETS
}

/// The files of `dist/widget/`, the embeddable converter.
pub fn widget() -> &'static [EmbeddedFile] {
    WIDGET
}

/// The file at `path` of `files`, or 404, in the encoding the client accepts, with `cache_control`.
pub fn serve(
    files: &'static [EmbeddedFile],
    path: &str,
    headers: &HeaderMap,
    cache_control: &'static str,
) -> Response {
    let Ok(found) = files.binary_search_by(|file| file.path.cmp(path.trim_start_matches('/'))) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let file = &files[found];
    let common = [
        (header::CONTENT_TYPE, HeaderValue::from_static(file.content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static(cache_control)),
        (header::ETAG, HeaderValue::from_static(file.etag)),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
    ];
    if unchanged(headers, file.etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let (encoding, bytes) = match (file.brotli, file.gzip) {
        (Some(brotli), _) if accepts(headers, "br") => (Some("br"), brotli),
        (_, Some(gzip)) if accepts(headers, "gzip") => (Some("gzip"), gzip),
        _ => (None, file.identity),
    };
    let mut response = (common, Body::from(bytes)).into_response();
    if let Some(encoding) = encoding {
        response.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

/// Whether `If-None-Match` names the file's `etag` (or `*`).
fn unchanged(headers: &HeaderMap, etag: &str) -> bool {
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|value| value.to_str().ok()).any(|value| {
        value.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
    })
}

/// Whether `Accept-Encoding` accepts `coding`: named, without `q=0`.
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|value| value.to_str().ok()).any(|value| {
        value.split(',').any(|item| {
            let mut parts = item.split(';').map(str::trim);
            parts.next().is_some_and(|name| name.eq_ignore_ascii_case(coding))
                && !parts.any(|parameter| {
                    parameter.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()).is_some_and(|q| q == 0.0)
                })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.clone(), HeaderValue::from_str(value).unwrap())).collect()
    }

    #[test]
    fn codings_are_accepted_by_name_unless_their_weight_is_zero() {
        let accept = headers(&[(header::ACCEPT_ENCODING, "gzip;q=0.8, deflate, BR;q=0")]);
        assert!(accepts(&accept, "gzip"));
        assert!(!accepts(&accept, "br"));
        assert!(!accepts(&HeaderMap::new(), "gzip"));
    }

    #[test]
    fn an_etag_in_a_list_or_a_weak_one_is_unchanged() {
        let asked = headers(&[(header::IF_NONE_MATCH, r#""a", W/"b""#)]);
        assert!(unchanged(&asked, r#""b""#));
        assert!(!unchanged(&asked, r#""c""#));
    }

    #[test]
    fn the_tables_are_sorted_for_the_search() {
        for files in [assets(), widget()] {
            assert!(files.windows(2).all(|pair| pair[0].path < pair[1].path));
        }
    }
}
