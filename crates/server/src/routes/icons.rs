//! The app's icons: `GET /icons/lucide/{name}.svg` from the Lucide set, embedded in the binary in
//! Iconify's JSON format (the `@iconify-json/lucide` package, copied by `app-react/build.mjs`), so
//! icons work offline and under a content security policy of this site alone. An icon the set
//! lacks sends the browser to the public icon API when `--icon-fallback-url` names one, else
//! answers a neutral glyph (a dashed square), which `/test/vector` makes easy to spot
//! (docs/behaviour.md, "Icons").
//!
//! The set is read from its JSON on the first request, not at start.

use std::{collections::HashMap, sync::OnceLock};

use axum::{
    extract::{Path, State},
    http::{StatusCode, header},
    response::{IntoResponse, Redirect, Response},
};
use serde::Deserialize;

use crate::state::AppState;

const LUCIDE: &str = include_str!(concat!(env!("OUT_DIR"), "/icons-lucide.json"));

/// The icon sets served, by prefix.
const PREFIX: &str = "lucide";

/// Drawn for an icon no set has: visible, but says nothing.
const MISSING: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="4" y="4" width="16" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="2" stroke-dasharray="3 3"/></svg>"#;

/// Icons change with an upgrade at most: a day, then revalidated in the background.
const CACHE_CONTROL: &str = "public, max-age=86400, stale-while-revalidate=604800";

/// Iconify's JSON format, as far as Lucide uses it.
#[derive(Debug, Deserialize)]
struct IconSet {
    icons: HashMap<String, Icon>,
    #[serde(default)]
    aliases: HashMap<String, Alias>,
    #[serde(default = "default_size")]
    width: u32,
    #[serde(default = "default_size")]
    height: u32,
}

#[derive(Debug, Deserialize)]
struct Icon {
    body: String,
    width: Option<u32>,
    height: Option<u32>,
}

/// Another name of an icon (Lucide's renames; no transformations).
#[derive(Debug, Deserialize)]
struct Alias {
    parent: String,
}

fn default_size() -> u32 {
    16
}

impl IconSet {
    /// The icon `name` as a whole SVG document, following an alias once.
    fn svg(&self, name: &str) -> Option<String> {
        let icon = self.icons.get(name).or_else(|| self.icons.get(&self.aliases.get(name)?.parent))?;
        let (width, height) = (icon.width.unwrap_or(self.width), icon.height.unwrap_or(self.height));
        Some(format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">{}</svg>"#,
            icon.body
        ))
    }
}

fn lucide() -> &'static IconSet {
    static SET: OnceLock<IconSet> = OnceLock::new();
    SET.get_or_init(|| serde_json::from_str(LUCIDE).expect("the embedded icon set is Iconify JSON"))
}

/// An icon of the embedded set, the public API's for one it lacks, or the neutral glyph.
pub async fn icon(State(state): State<AppState>, Path((prefix, file)): Path<(String, String)>) -> Response {
    let Some(name) = file.strip_suffix(".svg").filter(|name| is_icon_name(name)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if prefix != PREFIX {
        return StatusCode::NOT_FOUND.into_response();
    }
    if let Some(svg) = lucide().svg(name) {
        return svg_response(svg);
    }
    tracing::warn!(icon = %name, "an icon the embedded set does not have");
    match &state.icon_fallback {
        Some(api) => {
            Redirect::temporary(&format!("{}/{prefix}/{name}.svg", api.as_str().trim_end_matches('/')))
                .into_response()
        }
        None => svg_response(MISSING.to_owned()),
    }
}

fn svg_response(svg: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, CACHE_CONTROL)], svg).into_response()
}

/// Iconify's names: lower-case letters, digits and single hyphens.
fn is_icon_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_icon_is_a_whole_svg_and_an_alias_finds_its_parent() {
        let set: IconSet = serde_json::from_str(
            r#"{"prefix":"lucide","width":24,"height":24,
                "icons":{"menu":{"body":"<path d=\"M4 5h16\"/>"}},
                "aliases":{"hamburger":{"parent":"menu"}}}"#,
        )
        .unwrap();
        let svg = set.svg("hamburger").unwrap();
        assert_eq!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="M4 5h16"/></svg>"#
        );
        assert!(set.svg("nothing").is_none());
    }

    #[test]
    fn only_iconify_names_are_looked_up() {
        for good in ["menu", "chevron-down", "a1"] {
            assert!(is_icon_name(good), "{good}");
        }
        for bad in ["", "Menu", "../etc", "a--b", "-a", "a b", &"a".repeat(65)] {
            assert!(!is_icon_name(bad), "{bad}");
        }
    }
}
