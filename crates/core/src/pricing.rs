//! The price of an embroidery job: what a shop quotes for stitching a design on a number of pieces.
//!
//! The same function prices a job in the browser (through WebAssembly, offline, as inputs change)
//! and on the server (which recomputes a saved quote and refuses one whose result differs), so a
//! quote never depends on where it was computed.
//!
//! # The model
//!
//! A shop's price list is [`Rates`] (kept in the team's settings); one job is a [`Job`]. Per piece:
//!
//! 1. **Stitches**: the design's stitch count, raised to `minimum_stitches`, times the price per
//!    1,000 stitches. A quantity break (the row with the largest `min_quantity` not above the
//!    quantity) either replaces that rate or takes a percentage off it.
//! 2. **Colours**: `colour_fee` for each colour above `included_colours`.
//! 3. **Extra locations**: `extra_location_fee` for each placement after the first.
//! 4. **Materials**, at cost: the garment (0 when the customer brings it), the backing, and the thread
//!    at `thread_cost_per_1000_m`: the job's `thread_m` when the design is known (top and bobbin
//!    thread by the team's thread-usage model, [`crate::design::Usage::thread_m`], the figure a
//!    job's run sheet uses), else estimated from the stitch count (`thread_metres_per_thousand`
//!    metres per 1,000 stitches). The stitch rate is already a price; **markup** (a percentage added
//!    to cost) or a **target margin** (the share of the selling price that is profit) applies to
//!    these bought materials only.
//!
//! Then for the job: the pieces, plus the one-off **set-up fee** and **digitising fee** (when the
//! job needs digitising), plus the **rush surcharge** (a percentage of all that), plus **tax** (a
//! percentage of all that, when the shop charges it). One-off fees are either spread over the
//! pieces or shown apart.
//!
//! **Machine time**: a piece takes `stitches / (stitches per minute x efficiency)` minutes on one
//! head (real output is often about half the rated speed: the efficiency covers trims, colour
//! changes, thread breaks and slowing for dense areas). A machine with several heads sews that
//! many pieces at once, so the job takes `ceil(quantity / heads)` runs; hooping adds
//! `hoop_minutes` for each piece (counted apart from sewing, as a one-person shop works). The
//! result gives the job's hours and the price per machine hour, before tax, with and without the
//! materials, so a shop can see whether the job pays for its machine.
//!
//! # Money
//!
//! Every amount is a [`Decimal`]: exact decimal arithmetic, no binary floating point. Nothing is
//! rounded on the way; each figure the customer sees (per piece, one-off fees, total) is rounded
//! once, half away from zero, to the currency's minor unit (2 decimals, 0 for JPY, 3 for KWD ...).
//! The total is the rounded price per piece times the quantity plus the rounded one-off fees, so
//! the quote adds up as an invoice would. The breakdown lines are each rounded for display and
//! may differ from the total by a minor unit.
//!
//! # Worked example
//!
//! 50 polo shirts, a left-chest logo of 7,200 stitches in 8 colours, on the default [`Rates`]:
//! the 50-piece break takes 20% off 1.00 per 1,000, so stitching is 7.2 x 0.80 = 5.76; 2 colours
//! above the 6 included add 2 x 0.25 = 0.50; materials are the backing 0.15 and thread
//! 7.2 x 5 m x 3.00 / 1,000 m = 0.108, so 0.258 at cost, and the 40% markup adds 0.1032. A piece
//! is 6.6212; 50 pieces are 331.06, plus the set-up fee 25.00 spread over them gives 356.06,
//! 7.1212 a piece: the quote says 7.12 a piece and 356.00 in all (no tax, no rush). On a 6-head
//! machine at 1,000 stitches per minute and 50% efficiency, a piece sews in 14.4 minutes; 9 runs
//! are 129.6 minutes, and hooping 50 pieces one minute each adds 50: 2.99 hours, 118.95 an hour
//! (114.64 after materials). The test `the_worked_example_of_the_module_docs` checks these figures.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// The most pieces one quote prices.
pub const MAX_QUANTITY: u32 = 1_000_000;
/// The most stitches one design may have (the largest designs have about 500,000).
pub const MAX_STITCHES: u32 = 10_000_000;
/// The most thread one piece may take, in metres: the most stitches, 10 cm each.
const MAX_THREAD_M: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// The most rows in the quantity-break table.
pub const MAX_BREAKS: usize = 20;
/// The largest amount of money any one rate or cost may be.
const MAX_AMOUNT: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// Decimals allowed in amounts and percentages (0.0125 per 1,000 stitches, say).
const MAX_DECIMALS: u32 = 4;

/// A shop's price list. Every field has a default (see [`Rates::default`]), so a team that has
/// set nothing still gets a sensible quote, and a partial setting fills in the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rates {
    /// Price per 1,000 stitches.
    pub price_per_thousand: Decimal,
    /// A design with fewer stitches is charged as this many.
    pub minimum_stitches: u32,
    /// Quantity breaks, any order; the row with the largest `min_quantity` not above the quantity
    /// applies.
    pub quantity_breaks: Vec<QuantityBreak>,
    /// One-off, per job.
    pub setup_fee: Decimal,
    /// One-off, when the job needs the design digitised.
    pub digitising_fee: Decimal,
    /// Colours included in the stitch price.
    pub included_colours: u32,
    /// Per piece, for each colour above `included_colours`.
    pub colour_fee: Decimal,
    /// Per piece, for each placement after the first.
    pub extra_location_fee: Decimal,
    /// Per piece, at cost.
    pub backing_cost: Decimal,
    /// Thread used per 1,000 stitches, top and bobbin together, in metres.
    pub thread_metres_per_thousand: Decimal,
    /// What 1,000 m of thread costs (a 5,000 m cone at 15.00 is 3.00).
    pub thread_cost_per_1000_m: Decimal,
    /// Added to the job, in percent, when it is a rush job.
    pub rush_percent: Decimal,
    /// Profit on the bought materials.
    pub profit: Profit,
    /// Sales tax or VAT, in percent; 0 when prices are quoted without tax.
    pub tax_percent: Decimal,
    /// Real output as a share of the machine's speed, in percent.
    pub efficiency_percent: Decimal,
    /// Hooping and unhooping one piece, in minutes.
    pub hoop_minutes: Decimal,
}

impl Default for Rates {
    /// A starting point for a small shop; every team sets its own.
    fn default() -> Self {
        let amount = |units: i64, decimals: u32| Decimal::new(units, decimals);
        Self {
            price_per_thousand: amount(100, 2),
            minimum_stitches: 5_000,
            quantity_breaks: vec![
                QuantityBreak { min_quantity: 12, rate: BreakRate::DiscountPercent(amount(10, 0)) },
                QuantityBreak { min_quantity: 50, rate: BreakRate::DiscountPercent(amount(20, 0)) },
                QuantityBreak { min_quantity: 100, rate: BreakRate::DiscountPercent(amount(25, 0)) },
            ],
            setup_fee: amount(25, 0),
            digitising_fee: amount(60, 0),
            included_colours: 6,
            colour_fee: amount(25, 2),
            extra_location_fee: amount(2, 0),
            backing_cost: amount(15, 2),
            thread_metres_per_thousand: amount(5, 0),
            thread_cost_per_1000_m: amount(3, 0),
            rush_percent: amount(25, 0),
            profit: Profit::MarkupPercent(amount(40, 0)),
            tax_percent: Decimal::ZERO,
            efficiency_percent: amount(50, 0),
            hoop_minutes: amount(1, 0),
        }
    }
}

/// One row of the quantity-break table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuantityBreak {
    /// From this many pieces on.
    pub min_quantity: u32,
    #[serde(flatten)]
    pub rate: BreakRate,
}

/// What a quantity break does to the stitch price.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakRate {
    /// Replaces the price per 1,000 stitches.
    PricePerThousand(Decimal),
    /// Takes this percentage off the price per 1,000 stitches.
    DiscountPercent(Decimal),
}

/// Profit on the bought materials (garment, backing, thread).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profit {
    /// Cost plus this percentage of the cost: 40% on 10.00 sells at 14.00.
    MarkupPercent(Decimal),
    /// Sells so that this percentage of the selling price is profit: 40% on 10.00 sells at 16.67.
    MarginPercent(Decimal),
}

/// One job to price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    pub stitches: u32,
    pub colours: u32,
    pub quantity: u32,
    /// Placements on each piece (left chest and back is 2).
    #[serde(default = "one")]
    pub locations: u32,
    /// Per piece, at cost; 0 when the customer brings the garments.
    #[serde(default)]
    pub garment_cost: Decimal,
    #[serde(default)]
    pub digitising: bool,
    #[serde(default)]
    pub rush: bool,
    #[serde(default)]
    pub one_off_fees: OneOffFees,
    /// The machine it runs on, for the machine time; none gives no time.
    #[serde(default)]
    pub machine: Option<Machine>,
    /// Thread per piece, top and bobbin, in metres, from the design by the thread-usage model;
    /// none estimates it from the stitches at `thread_metres_per_thousand`.
    #[serde(default)]
    pub thread_m: Option<Decimal>,
}

fn one() -> u32 {
    1
}

/// How the one-off fees (set-up, digitising) appear in the quote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OneOffFees {
    /// Included in the price per piece.
    #[default]
    Spread,
    /// A line of their own; the price per piece leaves them out.
    Separate,
}

/// What the machine time needs to know of a machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Typical (not maximum) stitches per minute.
    pub stitches_per_minute: u32,
    pub heads: u32,
}

/// What a job costs, rounded for the customer, with how it was reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quote {
    /// Decimals of the currency's minor unit that the figures are rounded to.
    pub decimals: u32,
    /// The stitches charged for: the design's, or the minimum.
    pub billable_stitches: u32,
    /// The price per 1,000 stitches after the quantity break.
    pub price_per_thousand: Decimal,
    /// The quantity break applied, if any.
    pub quantity_break: Option<QuantityBreak>,
    /// Per piece, tax and rush included; one-off fees too when they are spread.
    pub per_piece: Decimal,
    /// The one-off fees with rush and tax, when shown apart; 0 when spread.
    pub one_off: Decimal,
    /// `per_piece x quantity + one_off`.
    pub total: Decimal,
    /// How the price is made up, each line rounded for display.
    pub lines: Vec<Line>,
    pub machine_time: Option<MachineTime>,
}

/// One line of the breakdown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub item: Item,
    /// Per piece, where the item is charged per piece.
    pub per_piece: Option<Decimal>,
    /// For the whole job.
    pub total: Decimal,
}

/// What a breakdown line is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Stitches,
    Colours,
    ExtraLocations,
    Garment,
    Backing,
    Thread,
    Profit,
    SetupFee,
    DigitisingFee,
    Rush,
    Tax,
}

/// How long the job keeps a machine busy, and what it earns an hour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineTime {
    /// Sewing one piece on one head, in minutes (1 decimal).
    pub minutes_per_piece: Decimal,
    /// Times the machine is loaded: `ceil(quantity / heads)`.
    pub runs: u32,
    /// The whole job, sewing and hooping, in hours (2 decimals).
    pub hours: Decimal,
    /// The price before tax, divided by the hours.
    pub price_per_hour: Decimal,
    /// The same, less the materials at cost.
    pub price_per_hour_after_materials: Decimal,
}

/// What is wrong with one input. `field` is its path, e.g. `job.quantity` or
/// `rates.quantity_breaks[1].min_quantity`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub field: String,
    /// Stable: `out_of_range`, `too_precise`, `duplicate`.
    pub code: &'static str,
    pub message: String,
}

/// Whether `code` has the shape of an ISO 4217 currency code: three capital letters ("EUR").
#[must_use]
pub fn is_currency_code(code: &str) -> bool {
    code.len() == 3 && code.chars().all(|c| c.is_ascii_uppercase())
}

/// Decimals of a currency's minor unit (ISO 4217): 2 unless the code is one of the few with 0 or 3.
#[must_use]
pub fn minor_unit_decimals(currency: &str) -> u32 {
    const NONE: [&str; 16] = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF",
        "XOF", "XPF",
    ];
    const THREE: [&str; 7] = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"];
    if NONE.contains(&currency) {
        0
    } else if THREE.contains(&currency) {
        3
    } else {
        2
    }
}

/// Prices `job` with `rates`, rounding to `decimals` (see [`minor_unit_decimals`]).
///
/// # Errors
///
/// Every input out of range, each naming its field.
pub fn price(rates: &Rates, job: &Job, decimals: u32) -> Result<Quote, Vec<Problem>> {
    let problems = [rates.problems(), check_job(job)].concat();
    if !problems.is_empty() {
        return Err(problems);
    }
    let decimals = decimals.min(4);
    let round =
        |value: Decimal| value.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
    let percent = |value: Decimal| value / Decimal::ONE_HUNDRED;
    let thousand = Decimal::ONE_THOUSAND;
    let quantity = Decimal::from(job.quantity);

    // Per piece.
    let billable_stitches = job.stitches.max(rates.minimum_stitches);
    let quantity_break = rates
        .quantity_breaks
        .iter()
        .filter(|row| row.min_quantity <= job.quantity)
        .max_by_key(|row| row.min_quantity)
        .cloned();
    let price_per_thousand = match quantity_break.as_ref().map(|row| row.rate) {
        None => rates.price_per_thousand,
        Some(BreakRate::PricePerThousand(rate)) => rate,
        Some(BreakRate::DiscountPercent(off)) => rates.price_per_thousand * (Decimal::ONE - percent(off)),
    };
    let stitches = Decimal::from(billable_stitches) * price_per_thousand / thousand;
    let colours = Decimal::from(job.colours.saturating_sub(rates.included_colours)) * rates.colour_fee;
    let locations = Decimal::from(job.locations - 1) * rates.extra_location_fee;
    let thread_m = job
        .thread_m
        .unwrap_or_else(|| Decimal::from(job.stitches) * rates.thread_metres_per_thousand / thousand);
    let thread = thread_m * rates.thread_cost_per_1000_m / thousand;
    let materials = job.garment_cost + rates.backing_cost + thread;
    let profit = match rates.profit {
        Profit::MarkupPercent(markup) => materials * percent(markup),
        Profit::MarginPercent(margin) => materials * margin / (Decimal::ONE_HUNDRED - margin),
    };
    let piece = stitches + colours + locations + materials + profit;

    // The job.
    let setup = rates.setup_fee;
    let digitising = if job.digitising { rates.digitising_fee } else { Decimal::ZERO };
    let one_offs = setup + digitising;
    let rush_share = if job.rush { percent(rates.rush_percent) } else { Decimal::ZERO };
    let tax_share = percent(rates.tax_percent);
    // Rush, then tax on top, as one factor for anything charged.
    let charged = (Decimal::ONE + rush_share) * (Decimal::ONE + tax_share);
    let before_rush = piece * quantity + one_offs;
    let rush = before_rush * rush_share;
    let tax = (before_rush + rush) * tax_share;
    let (per_piece, one_off) = match job.one_off_fees {
        OneOffFees::Spread => (round((piece + one_offs / quantity) * charged), Decimal::ZERO),
        OneOffFees::Separate => (round(piece * charged), round(one_offs * charged)),
    };
    let total = per_piece * quantity + one_off;

    let line = |item, per_piece: Option<Decimal>, total: Decimal| Line {
        item,
        per_piece: per_piece.map(round),
        total: round(total),
    };
    let per_piece_line = |item, amount: Decimal| line(item, Some(amount), amount * quantity);
    let mut lines = vec![per_piece_line(Item::Stitches, stitches)];
    let optional = [
        (Item::Colours, colours),
        (Item::ExtraLocations, locations),
        (Item::Garment, job.garment_cost),
        (Item::Backing, rates.backing_cost),
        (Item::Thread, thread),
        (Item::Profit, profit),
    ];
    lines.extend(
        optional
            .into_iter()
            .filter(|(_, amount)| !amount.is_zero())
            .map(|(item, amount)| per_piece_line(item, amount)),
    );
    let job_lines =
        [(Item::SetupFee, setup), (Item::DigitisingFee, digitising), (Item::Rush, rush), (Item::Tax, tax)];
    lines.extend(
        job_lines
            .into_iter()
            .filter(|(_, amount)| !amount.is_zero())
            .map(|(item, amount)| line(item, None, amount)),
    );

    let machine_time = job.machine.map(|machine| {
        let before_tax = before_rush + rush;
        machine_time(rates, job, machine, before_tax, before_tax - materials * quantity, round)
    });

    Ok(Quote {
        decimals,
        billable_stitches,
        price_per_thousand: price_per_thousand.normalize(),
        quantity_break,
        per_piece,
        one_off,
        total,
        lines,
        machine_time,
    })
}

/// The job's hours on `machine`, and what it earns an hour before tax, with and without the
/// materials (see the module docs).
fn machine_time(
    rates: &Rates,
    job: &Job,
    machine: Machine,
    before_tax: Decimal,
    after_materials: Decimal,
    round: impl Fn(Decimal) -> Decimal,
) -> MachineTime {
    let per_minute =
        Decimal::from(machine.stitches_per_minute) * rates.efficiency_percent / Decimal::ONE_HUNDRED;
    let minutes_per_piece = Decimal::from(job.stitches) / per_minute;
    let runs = job.quantity.div_ceil(machine.heads);
    let minutes = minutes_per_piece * Decimal::from(runs) + rates.hoop_minutes * Decimal::from(job.quantity);
    let hours = minutes / Decimal::from(60);
    let per_hour = |amount: Decimal| if hours.is_zero() { Decimal::ZERO } else { round(amount / hours) };
    MachineTime {
        minutes_per_piece: minutes_per_piece
            .round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero),
        runs,
        hours: hours.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero),
        price_per_hour: per_hour(before_tax),
        price_per_hour_after_materials: per_hour(after_materials),
    }
}

/// Checks `value` is within `0..=max` with at most [`MAX_DECIMALS`] decimals.
fn check_amount(problems: &mut Vec<Problem>, field: &str, value: Decimal, max: Decimal) {
    if value.is_sign_negative() && !value.is_zero() || value > max {
        problems.push(Problem {
            field: field.to_owned(),
            code: "out_of_range",
            message: format!("Give a number from 0 to {max}."),
        });
    } else if value.normalize().scale() > MAX_DECIMALS {
        problems.push(Problem {
            field: field.to_owned(),
            code: "too_precise",
            message: format!("Give at most {MAX_DECIMALS} decimals."),
        });
    }
}

fn check_count(problems: &mut Vec<Problem>, field: &str, value: u32, min: u32, max: u32) {
    if !(min..=max).contains(&value) {
        problems.push(Problem {
            field: field.to_owned(),
            code: "out_of_range",
            message: format!("Give a whole number from {min} to {max}."),
        });
    }
}

impl Rates {
    /// Every field out of range, each named `rates.<field>`.
    #[must_use]
    pub fn problems(&self) -> Vec<Problem> {
        check_rates(self)
    }
}

fn check_rates(rates: &Rates) -> Vec<Problem> {
    let mut problems = Vec::new();
    let hundred = Decimal::ONE_HUNDRED;
    let money = [
        ("rates.price_per_thousand", rates.price_per_thousand),
        ("rates.setup_fee", rates.setup_fee),
        ("rates.digitising_fee", rates.digitising_fee),
        ("rates.colour_fee", rates.colour_fee),
        ("rates.extra_location_fee", rates.extra_location_fee),
        ("rates.backing_cost", rates.backing_cost),
        ("rates.thread_cost_per_1000_m", rates.thread_cost_per_1000_m),
    ];
    for (field, value) in money {
        check_amount(&mut problems, field, value, MAX_AMOUNT);
    }
    check_amount(
        &mut problems,
        "rates.thread_metres_per_thousand",
        rates.thread_metres_per_thousand,
        Decimal::from(1_000),
    );
    check_amount(&mut problems, "rates.rush_percent", rates.rush_percent, Decimal::from(1_000));
    check_amount(&mut problems, "rates.tax_percent", rates.tax_percent, hundred);
    check_amount(&mut problems, "rates.hoop_minutes", rates.hoop_minutes, Decimal::from(600));
    check_count(&mut problems, "rates.minimum_stitches", rates.minimum_stitches, 0, MAX_STITCHES);
    check_count(&mut problems, "rates.included_colours", rates.included_colours, 0, 1_000);
    // An efficiency of 0 would make every job endless.
    check_amount(&mut problems, "rates.efficiency_percent", rates.efficiency_percent, hundred);
    if rates.efficiency_percent.is_zero() {
        problems.push(Problem {
            field: "rates.efficiency_percent".to_owned(),
            code: "out_of_range",
            message: "Give a share above 0 and at most 100.".to_owned(),
        });
    }
    match rates.profit {
        Profit::MarkupPercent(markup) => {
            check_amount(&mut problems, "rates.profit.markup_percent", markup, Decimal::from(10_000));
        }
        Profit::MarginPercent(margin) => {
            check_amount(&mut problems, "rates.profit.margin_percent", margin, hundred);
            // All of the price as profit means no price at all.
            if margin == hundred {
                problems.push(Problem {
                    field: "rates.profit.margin_percent".to_owned(),
                    code: "out_of_range",
                    message: "A margin is below 100%.".to_owned(),
                });
            }
        }
    }
    if rates.quantity_breaks.len() > MAX_BREAKS {
        problems.push(Problem {
            field: "rates.quantity_breaks".to_owned(),
            code: "out_of_range",
            message: format!("Give at most {MAX_BREAKS} quantity breaks."),
        });
    }
    for (n, row) in rates.quantity_breaks.iter().enumerate() {
        let field = format!("rates.quantity_breaks[{n}]");
        check_count(&mut problems, &format!("{field}.min_quantity"), row.min_quantity, 1, MAX_QUANTITY);
        if rates.quantity_breaks[..n].iter().any(|earlier| earlier.min_quantity == row.min_quantity) {
            problems.push(Problem {
                field: format!("{field}.min_quantity"),
                code: "duplicate",
                message: format!("Two breaks start at {} pieces.", row.min_quantity),
            });
        }
        match row.rate {
            BreakRate::PricePerThousand(rate) => {
                check_amount(&mut problems, &format!("{field}.price_per_thousand"), rate, MAX_AMOUNT);
            }
            BreakRate::DiscountPercent(off) => {
                check_amount(&mut problems, &format!("{field}.discount_percent"), off, hundred);
            }
        }
    }
    problems
}

fn check_job(job: &Job) -> Vec<Problem> {
    let mut problems = Vec::new();
    check_count(&mut problems, "job.stitches", job.stitches, 1, MAX_STITCHES);
    check_count(&mut problems, "job.colours", job.colours, 1, 1_000);
    check_count(&mut problems, "job.quantity", job.quantity, 1, MAX_QUANTITY);
    check_count(&mut problems, "job.locations", job.locations, 1, 20);
    check_amount(&mut problems, "job.garment_cost", job.garment_cost, MAX_AMOUNT);
    if let Some(thread_m) = job.thread_m {
        check_amount(&mut problems, "job.thread_m", thread_m, MAX_THREAD_M);
    }
    if let Some(machine) = job.machine {
        check_count(&mut problems, "job.machine.stitches_per_minute", machine.stitches_per_minute, 1, 5_000);
        check_count(&mut problems, "job.machine.heads", machine.heads, 1, 100);
    }
    problems
}
