//! Embeds the built React app (`app-react/dist`, made by `make build`) into the server binary,
//! so the release binary alone serves the whole product.
//!
//! `dist/index.html` is copied to `OUT_DIR` and served by `routes::web` with the runtime config
//! injected; `dist/assets/` (content-hashed file names) and `dist/widget/` (the embeddable
//! converter, stable names) are compressed here, with brotli and with gzip, and embedded as a
//! table `routes::embedded` serves from (see [`embed`]);
//! `dist/builds/` (the build manifest), `dist/sw.js` (the service worker) and
//! `dist/manifest.webmanifest` are copied to `OUT_DIR` for `routes::web` too. When the
//! front end has not been built (a plain `cargo check`, say) a placeholder page is embedded
//! instead, with a build warning.

use std::{
    env,
    fmt::Write as _,
    fs,
    io::Write as _,
    path::{Path, PathBuf},
};

use sha2::{Digest as _, Sha256};

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
        // One file in each placeholder folder says why the real ones are missing.
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
    let mut table = String::new();
    for (name, folder) in [("ASSETS", &assets), ("WIDGET", &widget)] {
        println!("cargo::rerun-if-changed={}", folder.display());
        embed(name, folder, &out_dir.join("embedded").join(name), &mut table);
    }
    fs::write(out_dir.join("embedded.rs"), table).expect("write the embedded files' table");
}

/// Writes `static {name}: &[EmbeddedFile]` into `table`: every file of `folder` (sorted by path,
/// which the server searches), with its type, an `ETag` of its SHA-256, and brotli and gzip
/// copies written to `compressed` where they are smaller.
///
/// Done here rather than by a library: the one the server used (memory-serve) brotli-compressed at
/// build time but made its gzip copies, and decompressed copies of everything, on every start, which
/// was most of the start-up and kept those copies in memory. Here nothing is done at start
/// and nothing is copied: the server answers with the bytes in the binary.
fn embed(name: &str, folder: &Path, compressed: &Path, table: &mut String) {
    let mut files = Vec::new();
    collect(folder, folder, &mut files);
    files.sort();
    fs::create_dir_all(compressed).expect("create the folder of compressed copies");
    writeln!(table, "static {name}: &[EmbeddedFile] = &[").unwrap();
    for relative in files {
        let source = folder.join(&relative);
        let bytes = fs::read(&source).expect("read a file to embed");
        let etag = format!("\"{:x}\"", Sha256::digest(&bytes));
        let content_type = content_type(&relative);
        let flat = relative.replace('/', "__");
        let (mut brotli, mut gzip) = ("None".to_owned(), "None".to_owned());
        if compressible(content_type) {
            let mut packed = Vec::new();
            let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 22, ..Default::default() };
            brotli::BrotliCompress(&mut bytes.as_slice(), &mut packed, &params).expect("brotli");
            if packed.len() < bytes.len() {
                let path = compressed.join(format!("{flat}.br"));
                fs::write(&path, &packed).expect("write a brotli copy");
                brotli = format!("Some(include_bytes!({:?}))", path.display().to_string());
            }
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            encoder.write_all(&bytes).expect("gzip");
            let packed = encoder.finish().expect("gzip");
            if packed.len() < bytes.len() {
                let path = compressed.join(format!("{flat}.gz"));
                fs::write(&path, &packed).expect("write a gzip copy");
                gzip = format!("Some(include_bytes!({:?}))", path.display().to_string());
            }
        }
        writeln!(
            table,
            "    EmbeddedFile {{ path: {relative:?}, content_type: {content_type:?}, etag: {etag:?}, \
             identity: include_bytes!({:?}), brotli: {brotli}, gzip: {gzip} }},",
            source.display().to_string()
        )
        .unwrap();
    }
    writeln!(table, "];").unwrap();
}

/// The paths of the files under `folder`, relative to `root`, with `/` between folders.
fn collect(root: &Path, folder: &Path, files: &mut Vec<String>) {
    for entry in fs::read_dir(folder).expect("read a folder to embed") {
        let path = entry.expect("read a folder entry").path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).expect("under the root").to_string_lossy();
            files.push(relative.replace('\\', "/"));
        }
    }
}

/// The `Content-Type` of the kinds of file the front-end build writes.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, extension)| extension) {
        "js" | "mjs" => "text/javascript",
        "css" => "text/css",
        "html" => "text/html",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "webp" => "image/webp",
        "woff2" => "font/woff2",
        "txt" => "text/plain",
        _ => "application/octet-stream",
    }
}

/// Whether compressing a file of this type pays (images and fonts are compressed already).
fn compressible(content_type: &str) -> bool {
    !matches!(content_type, "image/png" | "image/webp" | "font/woff2")
}
