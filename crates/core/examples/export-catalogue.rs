//! Writes the compact thread catalogue to a file, for the browser app and the widget, which load
//! it apart from the WebAssembly module: `cargo run --release -p bobbin-core --example
//! export-catalogue -- crates/wasm/pkg/threads.bin` (scripts/build-wasm.sh does this).

fn main() -> std::io::Result<()> {
    let path = std::env::args_os().nth(1).expect("usage: export-catalogue <file>");
    std::fs::write(path, bobbin_core::catalogue::EMBEDDED)
}
