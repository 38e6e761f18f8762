//! The pricing model and the design-file readers (the `pricing` feature: the `bobbin_pricing`
//! module).

use bobbin_core::design::{self, DesignSummary, Preview};
use bobbin_core::pricing::{self, Job, Problem, Quote, Rates};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::{JsError, JsValue, wasm_bindgen};

use crate::{from_js, to_js};

/// The default price list, for a team that has set none.
#[wasm_bindgen(js_name = defaultRates, unchecked_return_type = "Rates")]
pub fn default_rates() -> Result<JsValue, JsError> {
    to_js(&Rates::default())
}

/// What the calculator asks the core: a price list (missing fields take the defaults), a job,
/// and the currency whose minor unit the figures are rounded to.
#[derive(Deserialize)]
struct PriceRequest {
    rates: Rates,
    job: Job,
    currency: String,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Pricing {
    Quote(Quote),
    Problems(Vec<Problem>),
}

/// Prices a job: `{ quote }`, or `{ problems }` naming each input out of range. Throws only for
/// a request of the wrong shape.
#[wasm_bindgen(js_name = priceJob, unchecked_return_type = "Pricing")]
pub fn price_job(
    #[wasm_bindgen(unchecked_param_type = "PriceRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: PriceRequest = from_js(request)?;
    let decimals = pricing::minor_unit_decimals(&request.currency);
    to_js(&match pricing::price(&request.rates, &request.job, decimals) {
        Ok(quote) => Pricing::Quote(quote),
        Err(problems) => Pricing::Problems(problems),
    })
}

#[derive(Serialize)]
struct DesignFile {
    summary: DesignSummary,
    preview: Preview,
}

/// Reads an embroidery design file (DST, PES, JEF, EXP or VP3; `fileName` only helps tell the
/// format, and is needed for EXP): its figures, and a preview of at most `maxPoints` points.
/// Throws a sentence to show a person for a file it cannot read.
#[wasm_bindgen(js_name = readDesign, unchecked_return_type = "DesignFile")]
pub fn read_design(bytes: &[u8], file_name: &str, max_points: usize) -> Result<JsValue, JsError> {
    let design = design::read(bytes, Some(file_name))?;
    to_js(&DesignFile { summary: design.summary(), preview: design.preview(max_points) })
}
