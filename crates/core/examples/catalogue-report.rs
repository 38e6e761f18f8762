//! Prints the catalogue's data report, the threads whose charted colour is in doubt:
//! `cargo run -p bobbin-core --example catalogue-report > docs/catalogue-report.md`.

fn main() {
    print!("{}", bobbin_core::catalogue::Catalogue::builtin().doubt_report());
}
