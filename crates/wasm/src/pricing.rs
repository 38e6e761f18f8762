//! The pricing model and the design-file readers (the `pricing` feature: the `bobbin_pricing`
//! module).

use bobbin_core::design::{self, ColourBlock, DesignSummary, Preview, Usage};
use bobbin_core::pricing::{self, Job, Problem, Quote, Rates};
use bobbin_core::settings;
use rust_decimal::Decimal;
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
    blocks: Vec<ColourBlock>,
    preview: Preview,
}

/// Reads an embroidery design file (DST, PES, JEF, EXP or VP3; `fileName` only helps tell the
/// format, and is needed for EXP): its figures, and a preview of at most `maxPoints` points.
/// Throws a sentence to show a person for a file it cannot read.
#[wasm_bindgen(js_name = readDesign, unchecked_return_type = "DesignFile")]
pub fn read_design(bytes: &[u8], file_name: &str, max_points: usize) -> Result<JsValue, JsError> {
    let design = design::read(bytes, Some(file_name))?;
    to_js(&DesignFile {
        summary: design.summary(),
        blocks: design.blocks(),
        preview: design.preview(max_points),
    })
}

#[derive(Serialize)]
struct ThreadUsage {
    #[serde(flatten)]
    usage: Usage,
    /// Top and bobbin thread for one piece, in metres rounded to the centimetre: the pricing
    /// job's `thread_m`.
    thread_m: Decimal,
}

/// The thread a design uses for one piece, per colour block and in all, by the team's
/// thread-usage model (its `thread_usage` setting, any value: defaults fill what it lacks).
#[wasm_bindgen(js_name = threadUsage, unchecked_return_type = "ThreadUsage")]
pub fn thread_usage(
    #[wasm_bindgen(unchecked_param_type = "ColourBlock[]")] blocks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] setting: JsValue,
) -> Result<JsValue, JsError> {
    let blocks: Vec<ColourBlock> = from_js(blocks)?;
    let setting: serde_json::Value = from_js(setting).unwrap_or_default();
    let usage = settings::thread_usage(&setting).usage(&blocks);
    to_js(&ThreadUsage { thread_m: usage.thread_m(), usage })
}
