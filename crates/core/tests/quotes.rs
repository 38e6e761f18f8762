//! A quote as a document (issue 51): each option is the calculator's price at its quantity before
//! tax, the shop's lines are added, and tax is charged once on the sum. The figures are worked by
//! hand from the worked example of `bobbin_core::pricing`.

use std::str::FromStr;

use bobbin_core::pricing::{Job, OneOffFees, Rates};
use bobbin_core::quote::{ExtraLine, QuoteStatus, Terms, money, price_options, valid_until};
use rust_decimal::Decimal;
use time::macros::date;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

/// The pricing module's worked example: 50 polos, 7,200 stitches in 8 colours.
fn polos() -> Job {
    Job {
        stitches: 7_200,
        colours: 8,
        quantity: 50,
        locations: 1,
        garment_cost: Decimal::ZERO,
        digitising: false,
        rush: false,
        one_off_fees: OneOffFees::Spread,
        machine: None,
        thread_m: None,
    }
}

fn terms(quantities: &[u32]) -> Terms {
    Terms {
        quantities: quantities.to_vec(),
        lines: vec![
            ExtraLine { description: "Polo shirts".into(), unit_price: d("8.50"), quantity: None },
            ExtraLine { description: "Digitising".into(), unit_price: d("60"), quantity: Some(1) },
        ],
        tax_percent: d("20"),
        notes: String::new(),
    }
}

#[test]
fn each_option_is_the_calculators_price_before_tax_with_the_lines_and_tax_on_the_sum() {
    let options = price_options(&Rates::default(), &polos(), &terms(&[50, 100]), 2).unwrap();

    // 50: 7.12 a piece, 356.00 (the worked example); shirts 50 x 8.50 = 425.00; digitising 60.00.
    // Subtotal 841.00, 20% tax 168.20, total 1,009.20.
    let fifty = &options[0];
    assert_eq!((fifty.quantity, fifty.per_piece, fifty.design_total), (50, d("7.12"), d("356.00")));
    assert_eq!(fifty.lines, vec![d("425.00"), d("60.00")]);
    assert_eq!((fifty.subtotal, fifty.tax, fifty.total), (d("841.00"), d("168.20"), d("1009.20")));

    // 100: the 25% break makes stitching 5.40; with colours 0.50 and materials 0.3612 a piece is
    // 6.2612, and 626.12 + the 25.00 set-up spread is 6.5112: 6.51 a piece, 651.00. Shirts follow
    // the option (850.00); digitising stays one. 1,561.00 + 312.20 tax = 1,873.20.
    let hundred = &options[1];
    assert_eq!((hundred.per_piece, hundred.design_total), (d("6.51"), d("651.00")));
    assert_eq!(hundred.lines, vec![d("850.00"), d("60.00")]);
    assert_eq!((hundred.subtotal, hundred.tax, hundred.total), (d("1561.00"), d("312.20"), d("1873.20")));
}

#[test]
fn every_figure_is_written_with_the_currencys_decimals() {
    let untaxed = Terms { tax_percent: Decimal::ZERO, lines: vec![], ..terms(&[50]) };
    let option = &price_options(&Rates::default(), &polos(), &untaxed, 2).unwrap()[0];
    assert_eq!((option.tax.to_string(), option.one_off.to_string()), ("0.00".to_owned(), "0.00".to_owned()));
    assert_eq!(option.total.to_string(), "356.00");
}

#[test]
fn the_rates_tax_is_left_to_the_document() {
    let taxed = Rates { tax_percent: d("20"), ..Rates::default() };
    let options = price_options(&taxed, &polos(), &terms(&[50]), 2).unwrap();
    assert_eq!(options[0].per_piece, d("7.12"), "the calculator's 8.54 a piece would be taxed twice");
    assert_eq!(Terms::for_job(&polos(), &taxed).tax_percent, d("20"), "a new quote takes the team's rate");
}

#[test]
fn one_off_fees_shown_apart_stay_apart() {
    let job = Job { one_off_fees: OneOffFees::Separate, ..polos() };
    let option = &price_options(&Rates::default(), &job, &terms(&[50]), 2).unwrap()[0];
    // 6.6212 a piece is 6.62; the set-up fee 25.00 is its own figure: 331.00 + 25.00.
    assert_eq!((option.per_piece, option.one_off, option.design_total), (d("6.62"), d("25.00"), d("356.00")));
}

#[test]
fn bad_terms_name_their_fields() {
    let mut bad = terms(&[50, 50, 0]);
    bad.lines[0].description = "  ".into();
    bad.lines[1].unit_price = d("60.005");
    bad.lines[1].quantity = Some(0);
    bad.tax_percent = d("101");
    let problems = price_options(&Rates::default(), &polos(), &bad, 2).unwrap_err();
    let fields: Vec<(&str, &str)> = problems.iter().map(|p| (p.field.as_str(), p.code)).collect();
    assert_eq!(
        fields,
        [
            ("terms.quantities[1]", "duplicate"),
            ("terms.quantities[2]", "out_of_range"),
            ("terms.lines[0].description", "required"),
            ("terms.lines[1].unit_price", "too_precise"),
            ("terms.lines[1].quantity", "out_of_range"),
            ("terms.tax_percent", "out_of_range"),
        ]
    );
    let none = Terms { quantities: vec![], ..terms(&[]) };
    assert_eq!(none.problems(2)[0].field, "terms.quantities");
    assert_eq!(terms(&[1, 2, 3, 4, 5, 6, 7]).problems(2)[0].code, "out_of_range");
    // A yen price has no decimals.
    let mut yen = terms(&[50]);
    assert_eq!(yen.problems(0)[0].field, "terms.lines[0].unit_price", "8.50 yen");
    yen.lines[0].unit_price = d("850");
    assert!(yen.problems(0).is_empty());
}

#[test]
fn a_quote_waiting_past_its_date_has_expired() {
    let until = date!(2026 - 12 - 31);
    assert_eq!(
        QuoteStatus::Sent.on(until, date!(2026 - 12 - 31)),
        QuoteStatus::Sent,
        "valid through its last day"
    );
    assert_eq!(QuoteStatus::Viewed.on(until, date!(2027 - 01 - 01)), QuoteStatus::Expired);
    for settled in [QuoteStatus::Draft, QuoteStatus::Approved, QuoteStatus::Declined] {
        assert_eq!(settled.on(until, date!(2030 - 01 - 01)), settled);
    }
    assert_eq!(valid_until(date!(2026 - 12 - 07), 30), date!(2027 - 01 - 06));
}

#[test]
fn a_change_keeps_a_sent_quote_with_the_customer_and_reopens_a_closed_one() {
    assert_eq!(QuoteStatus::Viewed.after_edit(), QuoteStatus::Sent, "the new version is unseen");
    assert_eq!(QuoteStatus::Sent.after_edit(), QuoteStatus::Sent);
    assert_eq!(QuoteStatus::Declined.after_edit(), QuoteStatus::Draft);
    assert_eq!(QuoteStatus::Expired.after_edit(), QuoteStatus::Draft);
    assert!(!QuoteStatus::Approved.editable());
    assert_eq!(QuoteStatus::parse("viewed"), Some(QuoteStatus::Viewed));
}

#[test]
fn money_reads_as_customers_write_it() {
    assert_eq!(money(d("1009.2"), "EUR"), "€1,009.20");
    assert_eq!(money(d("1234567.891"), "USD"), "$1,234,567.89");
    assert_eq!(money(d("0"), "GBP"), "£0.00");
    assert_eq!(money(d("1200"), "JPY"), "¥1,200");
    assert_eq!(money(d("12.5"), "CHF"), "CHF 12.50");
    assert_eq!(money(d("1.2345"), "KWD"), "KWD 1.235");
    assert_eq!(money(d("-5"), "EUR"), "-€5.00");
}
