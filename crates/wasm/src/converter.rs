//! The thread catalogue and the converter (the `converter` feature: the `bobbin_wasm` module).

use std::sync::OnceLock;

use bobbin_core::catalogue::Catalogue;
use bobbin_core::colour::{Lab, delta_e_2000};
use bobbin_core::convert::{BulkRequest, ConvertRequest};
use wasm_bindgen::prelude::{JsError, JsValue, wasm_bindgen};

use crate::{from_js, to_js};

/// The catalogue handed over by [`load_catalogue`]. A page holds one for its whole life.
static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();

/// Reads the compact catalogue (`threads.bin`, fetched by the app or inlined in the widget). Call
/// once before the functions below; later calls are ignored.
#[wasm_bindgen(js_name = loadCatalogue)]
pub fn load_catalogue(bytes: Vec<u8>) -> Result<(), JsError> {
    if CATALOGUE.get().is_none() {
        // Leaked on purpose: the catalogue lives as long as the page, and its strings borrow
        // from these bytes rather than being copied.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let catalogue = Catalogue::decode(bytes).map_err(|error| JsError::new(error.0))?;
        let _ = CATALOGUE.set(catalogue);
    }
    Ok(())
}

fn catalogue() -> Result<&'static Catalogue, JsError> {
    CATALOGUE
        .get()
        .ok_or_else(|| JsError::new("the thread catalogue is not loaded: call loadCatalogue first"))
}

/// Every line of the catalogue, without threads.
#[wasm_bindgen(js_name = catalogueLines, unchecked_return_type = "LineSummary[]")]
pub fn catalogue_lines() -> Result<JsValue, JsError> {
    to_js(&catalogue()?.summaries())
}

/// One line with its threads; throws for an unknown id.
#[wasm_bindgen(js_name = catalogueLine, unchecked_return_type = "LineDetail")]
pub fn catalogue_line(id: &str) -> Result<JsValue, JsError> {
    let catalogue = catalogue()?;
    to_js(&catalogue.detail(catalogue.line_by_id(id)?))
}

/// Threads whose code or name matches `query`, best first; `lines` (ids) limits the search when
/// not empty.
#[wasm_bindgen(js_name = searchThreads, unchecked_return_type = "ThreadView[]")]
#[expect(clippy::needless_pass_by_value, reason = "wasm-bindgen hands arrays over by value")]
pub fn search_threads(query: &str, lines: Vec<String>, limit: usize) -> Result<JsValue, JsError> {
    let catalogue = catalogue()?;
    let lines = lines.iter().map(|id| catalogue.line_by_id(id)).collect::<Result<Vec<_>, _>>()?;
    let found: Vec<_> =
        catalogue.search(query, &lines, limit).into_iter().map(|i| catalogue.view(i)).collect();
    to_js(&found)
}

/// The nearest threads to one colour in each target line.
#[wasm_bindgen(unchecked_return_type = "Conversion")]
pub fn convert(
    #[wasm_bindgen(unchecked_param_type = "ConvertRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: ConvertRequest = from_js(request)?;
    to_js(&catalogue()?.convert(&request)?)
}

/// A pasted list converted to one line.
#[wasm_bindgen(js_name = convertBulk, unchecked_return_type = "BulkConversion")]
pub fn convert_bulk(
    #[wasm_bindgen(unchecked_param_type = "BulkRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: BulkRequest = from_js(request)?;
    to_js(&catalogue()?.convert_bulk(&request)?)
}

/// The same bulk conversion as CSV text, for a download.
#[wasm_bindgen(js_name = convertBulkCsv)]
pub fn convert_bulk_csv(
    #[wasm_bindgen(unchecked_param_type = "BulkRequest")] request: JsValue,
) -> Result<String, JsError> {
    let request: BulkRequest = from_js(request)?;
    Ok(catalogue()?.convert_bulk(&request)?.to_csv())
}

/// CIEDE2000 between two CIELAB colours.
#[wasm_bindgen(js_name = deltaE2000)]
pub fn delta_e2000(l1: f64, a1: f64, b1: f64, l2: f64, a2: f64, b2: f64) -> f64 {
    delta_e_2000(Lab { l: l1, a: a1, b: b1 }, Lab { l: l2, a: a2, b: b2 })
}
