//! A quote as the document a customer receives (issue 51; docs/behaviour.md, "Quotes"): the
//! design job priced by the calculator at each quantity the shop offers, the shop's own lines
//! (set-up, digitising, garments), tax, and where the quote stands.
//!
//! The calculator's [`price`] answers what a job costs with everything in it, tax included. A
//! document shows prices before tax, with the tax added once at the foot, as an invoice does: each
//! option prices the job with the calculator at its quantity and no tax, adds the lines, and taxes
//! the sum. So what the customer approves is always what the shop's rates give; nothing here is
//! typed in by hand but the lines.
//!
//! # Options
//!
//! A quote offers the design job at one to [`MAX_OPTIONS`] quantities (24, 48 or 96 pieces, say,
//! usually the shop's quantity breaks) and the customer chooses one when approving. A line is
//! either for the whole job (`quantity` given: "Digitising, 1 x 60.00") or one a piece (`quantity`
//! absent: "Polo shirts, 8.50 each", counted at the option's quantity).
//!
//! # Money
//!
//! As in [`crate::pricing`]: decimals, each figure rounded once, half away from zero, to the
//! currency's minor unit. A line's total is its unit price times its count, rounded; the tax is the
//! subtotal times the rate, rounded; the total is the subtotal plus the tax, so the document adds
//! up as written.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};
use time::{Date, Duration};

use crate::pricing::{self, Job, Problem, Rates};

/// The most quantities one quote offers.
pub const MAX_OPTIONS: usize = 6;
/// The most lines of the shop's own one quote has.
pub const MAX_LINES: usize = 30;
/// The longest line description, in characters.
pub const DESCRIPTION_MAX: usize = 200;
/// The longest notes, in characters.
pub const NOTES_MAX: usize = 4_000;
/// How long a quote is valid when the team has not said: 30 days.
pub const DEFAULT_VALID_DAYS: u32 = 30;
/// The longest validity a team may set, in days.
pub const MAX_VALID_DAYS: u32 = 365;
/// The largest unit price of a line.
const MAX_UNIT_PRICE: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);

/// Where a quote stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum QuoteStatus {
    /// Being written; no customer has it.
    Draft,
    /// Sent to the customer, not yet opened since (its latest version).
    Sent,
    /// The customer has opened its latest version.
    Viewed,
    /// The customer approved it: final.
    Approved,
    /// The customer declined it; the shop may revise it and send it again.
    Declined,
    /// Sent, but its validity date has passed with no answer. Never stored: a sent or viewed
    /// quote reads as expired from the day after its validity date ([`QuoteStatus::on`]).
    Expired,
}

impl QuoteStatus {
    pub const ALL: [Self; 6] =
        [Self::Draft, Self::Sent, Self::Viewed, Self::Approved, Self::Declined, Self::Expired];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Sent => "sent",
            Self::Viewed => "viewed",
            Self::Approved => "approved",
            Self::Declined => "declined",
            Self::Expired => "expired",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == raw)
    }

    /// The status as of `today`, for a quote stored as `self` and valid until `valid_until`
    /// (inclusive): a quote waiting on the customer past its date has expired.
    #[must_use]
    pub fn on(self, valid_until: Date, today: Date) -> Self {
        if self.awaits_customer() && today > valid_until { Self::Expired } else { self }
    }

    /// Whether the customer may answer it (approve, decline), the date allowing.
    pub fn awaits_customer(self) -> bool {
        matches!(self, Self::Sent | Self::Viewed)
    }

    /// Whether the shop may still change it: an approved quote is final (a copy can change).
    pub fn editable(self) -> bool {
        self != Self::Approved
    }

    /// The stored status after the shop changes the quote: a quote the customer has keeps waiting
    /// on them (its latest version now unseen); a declined or expired one goes back to a draft, to
    /// be sent again.
    #[must_use]
    pub fn after_edit(self) -> Self {
        match self {
            Self::Sent | Self::Viewed => Self::Sent,
            Self::Draft | Self::Declined | Self::Expired | Self::Approved => Self::Draft,
        }
    }
}

/// The last day a quote made on `today` is valid, `days` later.
#[must_use]
pub fn valid_until(today: Date, days: u32) -> Date {
    today.saturating_add(Duration::days(i64::from(days.min(MAX_VALID_DAYS))))
}

/// `amount` as a customer reads it in e-mails and PDFs: the currency's sign where it is well
/// known (`€1,009.20`, `$12.00`, `£3.50`, `¥1,200`), else its code (`CHF 12.00`), thousands
/// grouped with commas and exactly the currency's decimals.
#[must_use]
pub fn money(amount: Decimal, currency: &str) -> String {
    let decimals = pricing::minor_unit_decimals(currency);
    let rounded = amount.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
    let text = format!("{:.*}", decimals as usize, rounded.abs());
    let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
    let mut grouped = String::new();
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if let Some(fraction) = fraction {
        grouped.push('.');
        grouped.push_str(fraction);
    }
    let sign = if rounded.is_sign_negative() && !rounded.is_zero() { "-" } else { "" };
    match currency {
        "EUR" => format!("{sign}€{grouped}"),
        "USD" => format!("{sign}${grouped}"),
        "GBP" => format!("{sign}£{grouped}"),
        "JPY" => format!("{sign}¥{grouped}"),
        code => format!("{sign}{code} {grouped}"),
    }
}

/// A line of the shop's own: set-up, digitising, garments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExtraLine {
    /// What it is, 1 to 200 characters.
    pub description: String,
    /// Before tax.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub unit_price: Decimal,
    /// How many for the whole job; absent: one a piece, at the quantity chosen.
    #[serde(default)]
    pub quantity: Option<u32>,
}

/// What the shop offers besides the design job, as the quote page edits it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Terms {
    /// The quantities the customer may choose between, 1 to [`MAX_OPTIONS`], each once.
    pub quantities: Vec<u32>,
    #[serde(default)]
    pub lines: Vec<ExtraLine>,
    /// Tax on the subtotal, in percent (the team's rate by default).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub tax_percent: Decimal,
    /// For the customer: what is included, delivery, payment terms.
    #[serde(default)]
    pub notes: String,
}

/// One quantity priced: what the customer sees for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OptionPrice {
    pub quantity: u32,
    /// The design job per piece, before tax (one-off fees in it when the shop spreads them).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub per_piece: Decimal,
    /// The set-up and digitising fees when shown apart, before tax; 0 when spread.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub one_off: Decimal,
    /// `per_piece x quantity + one_off`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub design_total: Decimal,
    /// Each of the terms' lines at this quantity, in their order.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub lines: Vec<Decimal>,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub subtotal: Decimal,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub tax: Decimal,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub total: Decimal,
}

/// Prices every option of `terms` for `job` with `rates`, rounding to `decimals` (the currency's
/// minor unit, [`pricing::minor_unit_decimals`]).
///
/// # Errors
///
/// Every input out of range, each naming its field (`terms.quantities[1]`,
/// `terms.lines[0].unit_price`, or the calculator's `rates.*` and `job.*`).
pub fn price_options(
    rates: &Rates,
    job: &Job,
    terms: &Terms,
    decimals: u32,
) -> Result<Vec<OptionPrice>, Vec<Problem>> {
    let problems = terms.problems(decimals);
    if !problems.is_empty() {
        return Err(problems);
    }
    let decimals = decimals.min(4);
    // Rounded, and written with exactly the currency's decimals ("0.00", not "0").
    let round = |value: Decimal| {
        let mut rounded = value.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
        rounded.rescale(decimals);
        rounded
    };
    let untaxed = Rates { tax_percent: Decimal::ZERO, ..rates.clone() };
    terms
        .quantities
        .iter()
        .map(|&quantity| {
            let priced = pricing::price(&untaxed, &Job { quantity, ..job.clone() }, decimals)?;
            let lines: Vec<Decimal> = terms
                .lines
                .iter()
                .map(|line| round(line.unit_price * Decimal::from(line.quantity.unwrap_or(quantity))))
                .collect();
            let subtotal = round(priced.total + lines.iter().sum::<Decimal>());
            let tax = round(subtotal * terms.tax_percent / Decimal::ONE_HUNDRED);
            Ok(OptionPrice {
                quantity,
                per_piece: round(priced.per_piece),
                one_off: round(priced.one_off),
                design_total: round(priced.total),
                lines,
                subtotal,
                tax,
                total: round(subtotal + tax),
            })
        })
        .collect()
}

impl Terms {
    /// The terms a new quote starts with: the job's quantity, no lines, the rates' tax.
    #[must_use]
    pub fn for_job(job: &Job, rates: &Rates) -> Self {
        Self {
            quantities: vec![job.quantity],
            lines: Vec::new(),
            tax_percent: rates.tax_percent,
            notes: String::new(),
        }
    }

    /// Every field out of range, each named `terms.<field>`; prices may have at most `decimals`
    /// decimals (the currency's minor unit).
    #[must_use]
    pub fn problems(&self, decimals: u32) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut problem = |field: String, code: &'static str, message: String| {
            problems.push(Problem { field, code, message });
        };
        if self.quantities.is_empty() || self.quantities.len() > MAX_OPTIONS {
            problem(
                "terms.quantities".to_owned(),
                "out_of_range",
                format!("Offer 1 to {MAX_OPTIONS} quantities."),
            );
        }
        for (index, &quantity) in self.quantities.iter().enumerate() {
            let field = format!("terms.quantities[{index}]");
            if !(1..=pricing::MAX_QUANTITY).contains(&quantity) {
                problem(
                    field,
                    "out_of_range",
                    format!("Give a whole number from 1 to {}.", pricing::MAX_QUANTITY),
                );
            } else if self.quantities[..index].contains(&quantity) {
                problem(field, "duplicate", format!("{quantity} pieces is offered twice."));
            }
        }
        if self.lines.len() > MAX_LINES {
            problem(
                "terms.lines".to_owned(),
                "out_of_range",
                format!("A quote has at most {MAX_LINES} lines."),
            );
        }
        for (index, line) in self.lines.iter().enumerate() {
            let field = |name: &str| format!("terms.lines[{index}].{name}");
            let length = line.description.trim().chars().count();
            if length == 0 {
                problem(field("description"), "required", "Say what the line is for.".to_owned());
            } else if length > DESCRIPTION_MAX {
                problem(
                    field("description"),
                    "too_long",
                    format!("Use at most {DESCRIPTION_MAX} characters."),
                );
            }
            if line.unit_price.is_sign_negative() && !line.unit_price.is_zero()
                || line.unit_price > MAX_UNIT_PRICE
            {
                problem(
                    field("unit_price"),
                    "out_of_range",
                    format!("Give a price from 0 to {MAX_UNIT_PRICE}."),
                );
            } else if line.unit_price.normalize().scale() > decimals {
                problem(field("unit_price"), "too_precise", format!("Give at most {decimals} decimals."));
            }
            if let Some(quantity) = line.quantity
                && !(1..=pricing::MAX_QUANTITY).contains(&quantity)
            {
                problem(
                    field("quantity"),
                    "out_of_range",
                    format!("Give a whole number from 1 to {}.", pricing::MAX_QUANTITY),
                );
            }
        }
        if self.tax_percent.is_sign_negative() && !self.tax_percent.is_zero()
            || self.tax_percent > Decimal::ONE_HUNDRED
        {
            problem("terms.tax_percent".to_owned(), "out_of_range", "Give a rate from 0 to 100.".to_owned());
        } else if self.tax_percent.normalize().scale() > 4 {
            problem("terms.tax_percent".to_owned(), "too_precise", "Give at most 4 decimals.".to_owned());
        }
        if self.notes.chars().count() > NOTES_MAX {
            problem("terms.notes".to_owned(), "too_long", format!("Use at most {NOTES_MAX} characters."));
        }
        problems
    }
}
