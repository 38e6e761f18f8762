//! The pricing model against examples worked by hand: each test writes out the arithmetic, so a
//! change to the model shows which figure moved and why.

use std::str::FromStr;

use bobbin_core::design::{Format, UsageModel};
use bobbin_core::pricing::{
    BreakRate, Item, Job, Machine, OneOffFees, Problem, Profit, QuantityBreak, Quote, Rates,
    minor_unit_decimals, price,
};
use proptest::prelude::*;
use rust_decimal::Decimal;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

fn job(stitches: u32, colours: u32, quantity: u32) -> Job {
    Job {
        stitches,
        colours,
        quantity,
        locations: 1,
        garment_cost: Decimal::ZERO,
        digitising: false,
        rush: false,
        one_off_fees: OneOffFees::Spread,
        machine: None,
        thread_m: None,
    }
}

/// Rates that charge only stitches, so a test can switch on the one thing it is about.
fn stitches_only(per_thousand: &str) -> Rates {
    Rates {
        price_per_thousand: d(per_thousand),
        minimum_stitches: 0,
        quantity_breaks: vec![],
        setup_fee: Decimal::ZERO,
        digitising_fee: Decimal::ZERO,
        colour_fee: Decimal::ZERO,
        extra_location_fee: Decimal::ZERO,
        backing_cost: Decimal::ZERO,
        thread_cost_per_1000_m: Decimal::ZERO,
        profit: Profit::MarkupPercent(Decimal::ZERO),
        ..Rates::default()
    }
}

fn line(quote: &Quote, item: Item) -> Option<(Option<Decimal>, Decimal)> {
    quote.lines.iter().find(|line| line.item == item).map(|line| (line.per_piece, line.total))
}

fn fields(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|problem| problem.field.as_str()).collect()
}

/// With the design known, the thread is the usage model's figure for it, the one a job's run
/// sheet counts from; without it, the stitches at the price list's metres per 1,000.
#[test]
fn the_thread_comes_from_the_usage_model_when_the_design_is_known() {
    let rates = Rates { thread_cost_per_1000_m: d("4"), ..stitches_only("0") };
    let design = Format::Exp.read(&[30, 0].repeat(1_000)).unwrap();
    let usage = UsageModel::default().usage(&design.blocks());
    // 1,000 stitches of 3 mm and 2.5 mm take-up: 5.5 m of top and 3.3 m of bobbin thread.
    assert_eq!(usage.thread_m(), d("8.8"));
    let priced = |thread_m| price(&rates, &Job { thread_m, ..job(1_000, 1, 100) }, 4).unwrap();
    // 8.8 m at 4.00 / 1,000 m.
    assert_eq!(line(&priced(Some(usage.thread_m())), Item::Thread), Some((Some(d("0.0352")), d("3.5200"))));
    // 1,000 stitches x 5 m / 1,000 at 4.00 / 1,000 m.
    assert_eq!(line(&priced(None), Item::Thread), Some((Some(d("0.0200")), d("2.0000"))));
    let problems = price(&rates, &Job { thread_m: Some(d("-1")), ..job(1_000, 1, 1) }, 2).unwrap_err();
    assert_eq!(problems[0].field, "job.thread_m");
}

#[test]
fn the_worked_example_of_the_module_docs() {
    // 50 polos, 7,200 stitches in 8 colours, default rates, on a 6-head machine at 1,000 a minute.
    let polos = Job { machine: Some(Machine { stitches_per_minute: 1_000, heads: 6 }), ..job(7_200, 8, 50) };
    let quote = price(&Rates::default(), &polos, 2).unwrap();

    // The 50-piece break: 20% off 1.00.
    assert_eq!(quote.quantity_break.as_ref().map(|row| row.min_quantity), Some(50));
    assert_eq!(quote.price_per_thousand, d("0.8"));
    assert_eq!(quote.billable_stitches, 7_200);
    // 7.2 x 0.80 = 5.76 a piece.
    assert_eq!(line(&quote, Item::Stitches), Some((Some(d("5.76")), d("288.00"))));
    // 8 - 6 included = 2 colours x 0.25.
    assert_eq!(line(&quote, Item::Colours), Some((Some(d("0.50")), d("25.00"))));
    assert_eq!(line(&quote, Item::Backing), Some((Some(d("0.15")), d("7.50"))));
    // 7,200 stitches x 5 m / 1,000 = 36 m at 3.00 / 1,000 m = 0.108.
    assert_eq!(line(&quote, Item::Thread), Some((Some(d("0.11")), d("5.40"))));
    // 40% of (0.15 + 0.108) = 0.1032.
    assert_eq!(line(&quote, Item::Profit), Some((Some(d("0.10")), d("5.16"))));
    assert_eq!(line(&quote, Item::SetupFee), Some((None, d("25.00"))));
    assert_eq!(line(&quote, Item::Garment), None, "no garment cost, no line");
    assert_eq!(line(&quote, Item::Tax), None);
    // 6.6212 a piece + 25.00 / 50 = 7.1212, rounded once: 7.12; 50 x 7.12.
    assert_eq!((quote.per_piece, quote.one_off, quote.total), (d("7.12"), d("0"), d("356.00")));

    let time = quote.machine_time.unwrap();
    // 7,200 / (1,000 x 50%) = 14.4 minutes; ceil(50 / 6) = 9 runs; 9 x 14.4 + 50 x 1 = 179.6 minutes.
    assert_eq!((time.minutes_per_piece, time.runs, time.hours), (d("14.4"), 9, d("2.99")));
    // 356.06 before tax / (179.6 / 60) h; less 50 x 0.258 of materials: 343.16 / 2.9933 h.
    assert_eq!((time.price_per_hour, time.price_per_hour_after_materials), (d("118.95"), d("114.64")));
}

#[test]
fn a_small_design_is_charged_as_the_minimum_stitch_count() {
    let rates = Rates { minimum_stitches: 5_000, ..stitches_only("1.20") };
    let quote = price(&rates, &job(1_200, 1, 1), 2).unwrap();
    // 5,000 x 1.20 / 1,000.
    assert_eq!((quote.billable_stitches, quote.per_piece), (5_000, d("6.00")));
    let quote = price(&rates, &job(5_001, 1, 1), 2).unwrap();
    // 5.001 x 1.20 = 6.0012.
    assert_eq!((quote.billable_stitches, quote.per_piece), (5_001, d("6.00")));
}

#[test]
fn the_largest_break_not_above_the_quantity_applies_and_may_replace_the_rate() {
    let rates = Rates {
        quantity_breaks: vec![
            QuantityBreak { min_quantity: 100, rate: BreakRate::PricePerThousand(d("0.60")) },
            QuantityBreak { min_quantity: 24, rate: BreakRate::DiscountPercent(d("12.5")) },
        ],
        ..stitches_only("1.00")
    };
    let per_piece = |quantity| price(&rates, &job(10_000, 1, quantity), 2).unwrap().per_piece;
    // Below every break: 10 x 1.00.
    assert_eq!(per_piece(23), d("10.00"));
    // 24 to 99: 12.5% off, 10 x 0.875.
    assert_eq!(per_piece(24), d("8.75"));
    assert_eq!(per_piece(99), d("8.75"));
    // From 100: the break's own rate, 10 x 0.60.
    assert_eq!(per_piece(100), d("6.00"));
}

#[test]
fn separate_fees_digitising_rush_and_tax() {
    // 10 caps, 12,000 stitches, 3 colours, front and back, caps at 4.50, digitising, rush, 20% tax.
    let rates = Rates { tax_percent: d("20"), ..Rates::default() };
    let caps = Job {
        locations: 2,
        garment_cost: d("4.50"),
        digitising: true,
        rush: true,
        one_off_fees: OneOffFees::Separate,
        ..job(12_000, 3, 10)
    };
    let quote = price(&rates, &caps, 2).unwrap();
    // No break under 12 pieces: 12 x 1.00 = 12.00. 3 colours are included. One extra location, 2.00.
    // Materials 4.50 + 0.15 + 60 m at 3.00 / 1,000 m (0.18) = 4.83; markup 40% = 1.932.
    // A piece: 12 + 2 + 4.83 + 1.932 = 20.762; with rush and tax, x 1.25 x 1.20 = 31.143.
    assert_eq!(quote.per_piece, d("31.14"));
    // Set-up 25 + digitising 60 = 85, x 1.5.
    assert_eq!(quote.one_off, d("127.50"));
    assert_eq!(quote.total, d("438.90"));
    assert_eq!(line(&quote, Item::ExtraLocations), Some((Some(d("2.00")), d("20.00"))));
    assert_eq!(line(&quote, Item::Garment), Some((Some(d("4.50")), d("45.00"))));
    assert_eq!(line(&quote, Item::DigitisingFee), Some((None, d("60.00"))));
    // Rush: 25% of 207.62 + 85 = 73.155. Tax: 20% of 365.775 = 73.155. Both round half up.
    assert_eq!(line(&quote, Item::Rush), Some((None, d("73.16"))));
    assert_eq!(line(&quote, Item::Tax), Some((None, d("73.16"))));
    assert_eq!(line(&quote, Item::Colours), None);
}

#[test]
fn a_target_margin_is_a_share_of_the_selling_price() {
    let margin = Rates { profit: Profit::MarginPercent(d("40")), ..stitches_only("1.00") };
    let shirt = Job { garment_cost: d("10.00"), ..job(5_000, 1, 1) };
    // 10.00 / (1 - 40%) = 16.6667 sells the shirt; 5.00 of stitching.
    let quote = price(&margin, &shirt, 2).unwrap();
    assert_eq!(line(&quote, Item::Profit), Some((Some(d("6.67")), d("6.67"))));
    assert_eq!(quote.per_piece, d("21.67"));
    // A 40% markup on the same shirt: 10.00 + 4.00.
    let markup = Rates { profit: Profit::MarkupPercent(d("40")), ..margin };
    assert_eq!(price(&markup, &shirt, 2).unwrap().per_piece, d("19.00"));
}

#[test]
fn money_is_exact_and_rounded_once_half_away_from_zero() {
    // 5,000 x 0.001 / 1,000 = 0.005 exactly: half a cent rounds up, not to the even 0.00.
    let quote = price(&stitches_only("0.001"), &job(5_000, 1, 1), 2).unwrap();
    assert_eq!(quote.per_piece, d("0.01"));
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004; here 3 pieces of 0.1 are 0.3.
    let quote = price(&stitches_only("0.1"), &job(1_000, 1, 3), 4).unwrap();
    assert_eq!((quote.per_piece, quote.total), (d("0.1"), d("0.3")));
    // Spread fees round once: 100.00 over 3 pieces is 33.33 a piece, not 33.333... rounded per line.
    let fee = Rates { setup_fee: d("100"), ..stitches_only("0") };
    let quote = price(&fee, &job(1_000, 1, 3), 2).unwrap();
    assert_eq!((quote.per_piece, quote.total), (d("33.33"), d("99.99")));
}

#[test]
fn currencies_round_to_their_own_minor_unit() {
    assert_eq!(minor_unit_decimals("EUR"), 2);
    assert_eq!(minor_unit_decimals("JPY"), 0);
    assert_eq!(minor_unit_decimals("KWD"), 3);
    // The worked example in yen: 7.1212 a piece is 7.
    let quote = price(&Rates::default(), &job(7_200, 8, 50), minor_unit_decimals("JPY")).unwrap();
    assert_eq!((quote.per_piece, quote.total), (d("7"), d("350")));
}

#[test]
fn every_bad_input_is_named() {
    let rates = Rates {
        price_per_thousand: d("-1"),
        setup_fee: d("0.00001"),
        tax_percent: d("101"),
        efficiency_percent: Decimal::ZERO,
        profit: Profit::MarginPercent(d("100")),
        quantity_breaks: vec![
            QuantityBreak { min_quantity: 12, rate: BreakRate::DiscountPercent(d("10")) },
            QuantityBreak { min_quantity: 12, rate: BreakRate::DiscountPercent(d("150")) },
        ],
        ..Rates::default()
    };
    let bad =
        Job { locations: 0, machine: Some(Machine { stitches_per_minute: 0, heads: 6 }), ..job(0, 0, 0) };
    let problems = price(&rates, &bad, 2).unwrap_err();
    assert_eq!(
        fields(&problems),
        [
            "rates.price_per_thousand",
            "rates.setup_fee",
            "rates.tax_percent",
            "rates.efficiency_percent",
            "rates.profit.margin_percent",
            "rates.quantity_breaks[1].min_quantity",
            "rates.quantity_breaks[1].discount_percent",
            "job.stitches",
            "job.colours",
            "job.quantity",
            "job.locations",
            "job.machine.stitches_per_minute",
        ]
    );
    let codes: Vec<&str> = problems.iter().map(|problem| problem.code).collect();
    assert_eq!(codes[1], "too_precise");
    assert_eq!(codes[5], "duplicate");
    assert_eq!(problems[0].message, "Give a number from 0 to 1000000.");
}

#[test]
fn rates_come_from_partial_json_with_numbers_or_strings() {
    let rates: Rates = serde_json::from_value(serde_json::json!({
        "price_per_thousand": "1.35",
        "tax_percent": 8.25,
        "profit": { "margin_percent": 35 },
        "quantity_breaks": [{ "min_quantity": 24, "price_per_thousand": "1.10" }],
    }))
    .unwrap();
    assert_eq!(rates.price_per_thousand, d("1.35"));
    assert_eq!(rates.tax_percent, d("8.25"));
    assert_eq!(rates.profit, Profit::MarginPercent(d("35")));
    assert_eq!(
        rates.quantity_breaks,
        [QuantityBreak { min_quantity: 24, rate: BreakRate::PricePerThousand(d("1.10")) }]
    );
    // What was not given is the default.
    assert_eq!(rates.setup_fee, Rates::default().setup_fee);
    // A misspelt field is refused, not silently ignored.
    assert!(serde_json::from_value::<Rates>(serde_json::json!({ "price_per_1000": 1 })).is_err());
    // Amounts go out as strings, so JavaScript keeps them exact.
    let quote = price(&rates, &job(10_000, 1, 1), 2).unwrap();
    let json = serde_json::to_value(&quote).unwrap();
    assert_eq!(json["per_piece"], serde_json::json!(quote.per_piece.to_string()));
    let back: Quote = serde_json::from_value(json).unwrap();
    assert_eq!(back, quote);
}

fn amount() -> impl Strategy<Value = Decimal> {
    (0i64..=1_000_000).prop_map(|cents| Decimal::new(cents, 2))
}

proptest! {
    #[test]
    fn the_total_adds_up_and_more_stitches_never_cost_less(
        stitches in 1u32..=200_000,
        extra in 0u32..=50_000,
        colours in 1u32..=30,
        quantity in 1u32..=5_000,
        garment in amount(),
        setup in amount(),
        tax in 0u32..=30,
        separate in any::<bool>(),
        rush in any::<bool>(),
    ) {
        let rates = Rates { setup_fee: setup, tax_percent: Decimal::from(tax), ..Rates::default() };
        let one_off_fees = if separate { OneOffFees::Separate } else { OneOffFees::Spread };
        let small = Job { garment_cost: garment, rush, one_off_fees, ..job(stitches, colours, quantity) };
        let large = Job { stitches: stitches + extra, ..small.clone() };
        let quote = price(&rates, &small, 2).unwrap();
        prop_assert_eq!(quote.total, quote.per_piece * Decimal::from(quantity) + quote.one_off);
        prop_assert!(quote.per_piece.scale() <= 2 && quote.total.scale() <= 2);
        prop_assert!(quote.per_piece > Decimal::ZERO);
        let larger = price(&rates, &large, 2).unwrap();
        prop_assert!(larger.total >= quote.total, "{} stitches cost {}, {} cost {}", stitches, quote.total, stitches + extra, larger.total);
    }
}
