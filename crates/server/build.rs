//! Embeds the built React app (`app-react/dist`, made by `make build`) into the server binary,
//! so the release binary alone serves the whole product.
//!
//! `dist/index.html` is copied to `OUT_DIR` and served by `routes::web` with the runtime config
//! injected; `dist/assets/` (content-hashed file names) and `dist/widget/` (the embeddable
//! converter, stable names) go through memory-serve, which brotli-compresses them at build time;
//! `dist/builds/` (the build manifest), `dist/sw.js` (the service worker) and
//! `dist/manifest.webmanifest` are copied to `OUT_DIR` for `routes::web` too. When the
//! front end has not been built (a plain `cargo check`, say) a placeholder page is embedded
//! instead, with a build warning.

use std::{env, fs, path::PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    let dist = manifest_dir.join("../../app-react/dist");
    println!("cargo::rerun-if-changed={}", dist.display());

    let (index, assets, widget) = if dist.join("index.html").is_file() {
        (dist.join("index.html"), dist.join("assets"), dist.join("widget"))
    } else {
        println!(
            "cargo::warning=app-react/dist is missing; embedding a placeholder page. Run `make build` first."
        );
        let placeholder = out_dir.join("placeholder");
        let assets = placeholder.join("assets");
        let widget = placeholder.join("widget");
        // memory-serve refuses an empty asset set, so each placeholder folder has one file.
        for folder in [&assets, &widget] {
            fs::create_dir_all(folder).expect("create placeholder folder");
            fs::write(folder.join("not-built.txt"), "The front end was not built.\n")
                .expect("write placeholder asset");
        }
        let index = placeholder.join("index.html");
        fs::write(
            &index,
            "<!doctype html><title>Bobbin</title><!--bobbin:config-->\
             <p>The Bobbin front end was not built into this binary. Run <code>make build</code>.</p>",
        )
        .expect("write placeholder index");
        (index, assets, widget)
    };

    fs::copy(&index, out_dir.join("index.html")).expect("copy index.html");
    // The build manifest (`dist/builds/`, app-react/build.mjs): the latest build's id, and its
    // one `meta/{id}.json`. A placeholder build has one page, `/`, and no route rules.
    let builds = dist.join("builds");
    let meta = fs::read_dir(builds.join("meta"))
        .ok()
        .and_then(|files| files.filter_map(Result::ok).map(|file| file.path()).find(|path| path.is_file()));
    // The service worker and the web app manifest (`/sw.js`, `/manifest.webmanifest`); in a
    // placeholder build, a worker that does nothing and a manifest with a name only.
    for (file, placeholder) in
        [("sw.js", "// The front end was not built.\n"), ("manifest.webmanifest", r#"{"name":"Bobbin"}"#)]
    {
        let built = dist.join(file);
        if built.is_file() && dist.join("index.html").is_file() {
            fs::copy(&built, out_dir.join(file)).expect("copy a root file of the build");
        } else {
            fs::write(out_dir.join(file), placeholder).expect("write a placeholder root file");
        }
    }
    // The icon set of `/icons/` (routes/icons.rs); an empty one in a placeholder build.
    let icons = dist.join("icons/lucide.json");
    if icons.is_file() {
        fs::copy(&icons, out_dir.join("icons-lucide.json")).expect("copy the icon set");
    } else {
        fs::write(
            out_dir.join("icons-lucide.json"),
            r#"{"prefix":"lucide","icons":{},"width":24,"height":24}"#,
        )
        .expect("write the placeholder icon set");
    }
    match meta {
        Some(meta) if builds.join("latest.json").is_file() && dist.join("index.html").is_file() => {
            fs::copy(builds.join("latest.json"), out_dir.join("latest-build.json"))
                .expect("copy latest.json");
            fs::copy(meta, out_dir.join("build-meta.json")).expect("copy the build's meta");
        }
        _ => {
            fs::write(out_dir.join("latest-build.json"), r#"{"id":"not-built","timestamp":0}"#)
                .expect("write placeholder latest.json");
            fs::write(
                out_dir.join("build-meta.json"),
                r#"{"id":"not-built","timestamp":0,"routes":["/"],"routeRules":{}}"#,
            )
            .expect("write placeholder meta");
        }
    }
    // Always embed, also in debug builds, so tests exercise exactly what production serves.
    memory_serve::load_names_directories([("assets", assets), ("widget", widget)], true);
}
