//! Team and member settings: maps of a key to a JSON value, with limits so that a map stays
//! small enough to send on every page load, and checks for the keys the tools read.
//!
//! Known keys (the tools read their defaults from them):
//!
//! | key | value | used by |
//! |---|---|---|
//! | `currency` | ISO 4217 code, e.g. `"EUR"` | pricing calculator, inventory costs |
//! | `default_stitch_rate` | number >= 0: price per 1,000 stitches in that currency | pricing calculator |
//! | `preferred_thread_line` | a catalogue line id, e.g. `"madeira-polyneon"` | converter, inventory |
//! | `default_reorder_point` | a whole number of spools, 0 to 100,000,000: the reorder point of every thread without its own | inventory (low stock) |
//! | `pricing` | the rest of the price list: [`Rates`] without `price_per_thousand`, any fields left out take their defaults | pricing calculator |
//! | `thread_usage` | the thread-usage model, the waste a job adds and the unit: [`UsageModel`], any fields left out take their defaults | pricing calculator, jobs |
//! | `quotes` | how the team's quotes read to customers: [`QuoteSettings`], any fields left out take their defaults | quotes |
//!
//! The price per 1,000 stitches is `default_stitch_rate` alone, so the team settings form and the
//! pricing calculator never disagree about it.
//!
//! Any other key matching the pattern may hold any JSON value within the size limit, so a new
//! tool can keep its preferences without a migration.

use std::fmt;

use serde::Deserialize as _;
use serde_json::Value;

use crate::design::UsageModel;
use crate::inventory::amount::{Hundredths, MAX_HUNDREDTHS};
use crate::pricing::{Rates, is_currency_code};

/// The longest key, in bytes (keys are ASCII).
pub const KEY_MAX_LEN: usize = 64;
/// The largest value, as compact JSON.
pub const VALUE_MAX_BYTES: usize = 4 * 1024;
/// The most keys one map (a team's, or one member's in one team) may hold.
pub const MAX_KEYS: usize = 100;
/// The most keys one change of a map may name: enough to remove every key and set as many new.
/// Each is a statement the database runs while the change holds the write lock.
pub const MAX_CHANGES: usize = 2 * MAX_KEYS;

/// The team setting holding the thread-usage model ([`UsageModel`]).
pub const THREAD_USAGE: &str = "thread_usage";

/// The team's thread-usage model held by a `thread_usage` value: the defaults for a key not set
/// (`null`) or a value that is not one (values are checked when set).
pub fn thread_usage(value: &Value) -> UsageModel {
    UsageModel::deserialize(value).ok().and_then(|model| model.checked().ok()).unwrap_or_default()
}

/// The team setting holding how quotes read to customers ([`QuoteSettings`]).
pub const QUOTES: &str = "quotes";

/// The longest shop details (address, telephone, e-mail), in characters.
pub const SHOP_DETAILS_MAX: usize = 500;

/// How the team's quotes read to customers: how long they are valid, and the shop's details and
/// logo printed at their head. The currency and the tax rate are the calculator's (`currency`,
/// `pricing.tax_percent`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct QuoteSettings {
    /// Days a new quote is valid: 1 to [`crate::quote::MAX_VALID_DAYS`].
    pub valid_days: u32,
    /// The shop's address, telephone and e-mail, a line each, as the customer sees them.
    pub shop_details: String,
    /// The path of the shop's logo (PNG or JPEG) in the team's storage bucket, if it has one.
    pub logo: Option<String>,
}

impl Default for QuoteSettings {
    fn default() -> Self {
        Self { valid_days: crate::quote::DEFAULT_VALID_DAYS, shop_details: String::new(), logo: None }
    }
}

impl QuoteSettings {
    /// What is wrong with these settings, if anything.
    fn problem(&self) -> Option<String> {
        let max = crate::quote::MAX_VALID_DAYS;
        if !(1..=max).contains(&self.valid_days) {
            Some(format!("`{QUOTES}.valid_days` is a whole number of days from 1 to {max}."))
        } else if self.shop_details.chars().count() > SHOP_DETAILS_MAX {
            Some(format!("`{QUOTES}.shop_details` has at most {SHOP_DETAILS_MAX} characters."))
        } else if self.logo.as_ref().is_some_and(|path| path.is_empty() || path.len() > 1024) {
            Some(format!("`{QUOTES}.logo` is the path of an image in the team's storage."))
        } else {
            None
        }
    }
}

/// The team's quote settings held by a `quotes` value: the defaults for a key not set (`null`) or
/// a value that is not one (values are checked when set).
pub fn quote_settings(value: &Value) -> QuoteSettings {
    QuoteSettings::deserialize(value).ok().filter(|settings| settings.problem().is_none()).unwrap_or_default()
}

/// The team setting holding the reorder point of every thread without its own.
pub const DEFAULT_REORDER_POINT: &str = "default_reorder_point";

/// The largest default reorder point: the largest amount, in whole spools.
const MAX_REORDER_POINT: u64 = MAX_HUNDREDTHS.unsigned_abs() / 100;

/// The team's default reorder point held by a `default_reorder_point` value; `None` for a value
/// that is not one (a key not set reads as `null`).
pub fn default_reorder_point(value: &Value) -> Option<Hundredths> {
    let spools = value.as_u64().filter(|&spools| spools <= MAX_REORDER_POINT)?;
    Hundredths::from_hundredths(i64::try_from(spools * 100).ok()?).ok()
}

/// A setting's name: a lower-case letter, then lower-case letters, digits, `_`, `.` or `-`; at
/// most 64 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SettingKey(String);

/// Why a setting was refused. The API turns each into a field error naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error(
        "A setting's name starts with a lower-case letter and holds only lower-case letters, digits, \
         `_`, `.` and `-`, at most {KEY_MAX_LEN} characters."
    )]
    InvalidKey,
    #[error("A setting's value may be at most {VALUE_MAX_BYTES} bytes of JSON.")]
    ValueTooLarge,
    #[error("{0}")]
    InvalidValue(String),
    #[error("A settings map holds at most {MAX_KEYS} keys: remove some first.")]
    TooManyKeys,
    #[error("One change may name at most {MAX_CHANGES} settings: send the rest in another.")]
    TooManyChanges,
}

impl SettingError {
    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidKey => "invalid_key",
            Self::ValueTooLarge => "too_large",
            Self::InvalidValue(_) => "invalid",
            Self::TooManyKeys => "too_many_keys",
            Self::TooManyChanges => "too_many_changes",
        }
    }
}

impl SettingKey {
    /// Parses a key.
    ///
    /// # Errors
    ///
    /// [`SettingError::InvalidKey`] when `raw` does not match the pattern.
    pub fn parse(raw: &str) -> Result<Self, SettingError> {
        let mut chars = raw.chars();
        let starts_well = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        let rest_ok =
            chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-'));
        if starts_well && rest_ok && raw.len() <= KEY_MAX_LEN {
            Ok(Self(raw.to_owned()))
        } else {
            Err(SettingError::InvalidKey)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SettingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks `value` for `key`: the size limit for every key, and the shape of the known keys.
/// `is_thread_line` says whether a catalogue line id exists (the catalogue is the caller's).
/// Returns the value as compact JSON, ready to store.
///
/// # Errors
///
/// [`SettingError::ValueTooLarge`] over the limit; [`SettingError::InvalidValue`] for a known
/// key whose value has the wrong shape.
pub fn check_value(
    key: &SettingKey,
    value: &Value,
    is_thread_line: impl Fn(&str) -> bool,
) -> Result<String, SettingError> {
    let json = value.to_string();
    if json.len() > VALUE_MAX_BYTES {
        return Err(SettingError::ValueTooLarge);
    }
    let problem = match key.as_str() {
        "currency" => (!value.as_str().is_some_and(is_currency_code)).then_some(
            "`currency` is a three-letter ISO 4217 code in capitals, such as \"EUR\" or \"USD\".".to_owned(),
        ),
        "default_stitch_rate" => (!value.as_f64().is_some_and(|rate| rate.is_finite() && rate >= 0.0))
            .then_some(
                "`default_stitch_rate` is the price per 1,000 stitches: a number of zero or more.".to_owned(),
            ),
        "preferred_thread_line" => (!value.as_str().is_some_and(&is_thread_line)).then_some(
            "`preferred_thread_line` must be the id of a thread line in the catalogue.".to_owned(),
        ),
        DEFAULT_REORDER_POINT => default_reorder_point(value)
            .is_none()
            .then(|| format!("`{DEFAULT_REORDER_POINT}` is a whole number of spools from 0 to 100,000,000.")),
        "pricing" => pricing_problem(value),
        THREAD_USAGE => match UsageModel::deserialize(value) {
            Err(error) => Some(format!("`{THREAD_USAGE}` is not a thread-usage model: {error}.")),
            Ok(model) => model.checked().err().map(|error| format!("`{THREAD_USAGE}`: {error}")),
        },
        QUOTES => match QuoteSettings::deserialize(value) {
            Err(error) => Some(format!("`{QUOTES}` is not a quote setting: {error}.")),
            Ok(settings) => settings.problem(),
        },
        _ => None,
    };
    if let Some(message) = problem {
        return Err(SettingError::InvalidValue(message));
    }
    Ok(json)
}

/// What is wrong with a `pricing` value, if anything: the first problem, naming its field.
fn pricing_problem(value: &Value) -> Option<String> {
    if value.get("price_per_thousand").is_some() {
        return Some("`pricing` leaves out `price_per_thousand`: the price per 1,000 stitches is `default_stitch_rate`.".to_owned());
    }
    match Rates::deserialize(value) {
        Err(error) => Some(format!("`pricing` is not a price list: {error}.")),
        Ok(rates) => rates
            .problems()
            .into_iter()
            .next()
            .map(|problem| format!("`pricing`: {}: {}", problem.field, problem.message)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn key(raw: &str) -> SettingKey {
        SettingKey::parse(raw).unwrap()
    }

    #[test]
    fn keys_follow_the_pattern() {
        for good in ["currency", "a", "pricing.rush_fee", "ui-theme2"] {
            assert!(SettingKey::parse(good).is_ok(), "{good}");
        }
        for bad in ["", "Currency", "2fa", "_x", "has space", "ü", &"a".repeat(65)] {
            assert_eq!(SettingKey::parse(bad), Err(SettingError::InvalidKey), "{bad}");
        }
        assert!(SettingKey::parse(&"a".repeat(64)).is_ok());
    }

    #[test]
    fn any_value_within_the_limit_is_kept_as_compact_json() {
        assert_eq!(check_value(&key("notes"), &json!({ "a": [1, 2] }), |_| false).unwrap(), r#"{"a":[1,2]}"#);
        let big = json!("x".repeat(VALUE_MAX_BYTES));
        assert_eq!(check_value(&key("notes"), &big, |_| false), Err(SettingError::ValueTooLarge));
    }

    #[test]
    fn quote_settings_take_defaults_and_are_checked() {
        assert_eq!(quote_settings(&Value::Null), QuoteSettings::default());
        assert_eq!(quote_settings(&json!({ "valid_days": 14 })).valid_days, 14);
        assert!(
            check_value(&key(QUOTES), &json!({ "valid_days": 14, "shop_details": "1 Mill Lane" }), |_| false)
                .is_ok()
        );
        for bad in [
            json!({ "valid_days": 0 }),
            json!({ "valid_days": 366 }),
            json!({ "colour": 1 }),
            json!({ "shop_details": "x".repeat(501) }),
        ] {
            assert!(
                matches!(check_value(&key(QUOTES), &bad, |_| false), Err(SettingError::InvalidValue(_))),
                "{bad}"
            );
        }
        assert_eq!(quote_settings(&json!({ "valid_days": 0 })), QuoteSettings::default());
    }

    #[test]
    fn known_keys_are_checked() {
        assert!(check_value(&key("currency"), &json!("EUR"), |_| false).is_ok());
        for bad in [json!("eur"), json!("EURO"), json!(978)] {
            assert!(matches!(
                check_value(&key("currency"), &bad, |_| false),
                Err(SettingError::InvalidValue(_))
            ));
        }
        assert!(check_value(&key("default_stitch_rate"), &json!(1.25), |_| false).is_ok());
        assert!(check_value(&key("default_stitch_rate"), &json!(0), |_| false).is_ok());
        for bad in [json!(-1), json!("1.25")] {
            assert!(check_value(&key("default_stitch_rate"), &bad, |_| false).is_err());
        }
        let known = |line: &str| line == "madeira-polyneon";
        assert!(check_value(&key("preferred_thread_line"), &json!("madeira-polyneon"), known).is_ok());
        assert!(check_value(&key("preferred_thread_line"), &json!("no-such-line"), known).is_err());
    }

    #[test]
    fn the_thread_usage_model_is_checked_and_defaults_fill_the_rest() {
        let usage = key(THREAD_USAGE);
        assert!(check_value(&usage, &json!({ "take_up_mm": 3, "unit": "yards" }), |_| false).is_ok());
        assert!((thread_usage(&json!({ "waste_percent": 5 })).waste_percent - 5.0).abs() < f64::EPSILON);
        assert_eq!(thread_usage(&Value::Null), UsageModel::default());
        for (bad, says) in [
            (json!({ "take_up_mm": 21 }), "take_up_mm must be a number from 0 to 20."),
            (json!({ "unit": "feet" }), "not a thread-usage model"),
            (json!({ "take_up": 2 }), "not a thread-usage model"),
            (json!(3), "not a thread-usage model"),
        ] {
            let Err(SettingError::InvalidValue(message)) = check_value(&usage, &bad, |_| false) else {
                panic!("{bad} was kept")
            };
            assert!(message.contains(says), "{bad}: {message}");
        }
    }

    #[test]
    fn the_default_reorder_point_is_a_whole_number_of_spools() {
        let point = key(DEFAULT_REORDER_POINT);
        for good in [json!(0), json!(3), json!(100_000_000)] {
            assert!(check_value(&point, &good, |_| false).is_ok(), "{good}");
        }
        for bad in [json!(-1), json!(1.5), json!("3"), json!(100_000_001), json!(true)] {
            assert_eq!(
                check_value(&point, &bad, |_| false),
                Err(SettingError::InvalidValue(
                    "`default_reorder_point` is a whole number of spools from 0 to 100,000,000.".to_owned()
                )),
                "{bad}"
            );
        }
        assert_eq!(default_reorder_point(&json!(3)), Some(Hundredths::parse("3").unwrap()));
        assert_eq!(default_reorder_point(&Value::Null), None);
    }

    #[test]
    fn pricing_is_a_partial_price_list_without_the_stitch_rate() {
        let pricing = key("pricing");
        assert!(check_value(&pricing, &json!({ "setup_fee": "30", "tax_percent": 20 }), |_| false).is_ok());
        assert!(check_value(&pricing, &json!({}), |_| false).is_ok(), "every field has a default");
        let message = |value| match check_value(&pricing, &value, |_| false) {
            Err(SettingError::InvalidValue(message)) => message,
            other => panic!("{other:?}"),
        };
        assert!(message(json!({ "price_per_thousand": 1 })).contains("`default_stitch_rate`"));
        assert_eq!(
            message(json!({ "tax_percent": 120 })),
            "`pricing`: rates.tax_percent: Give a number from 0 to 100."
        );
        assert!(
            message(json!({ "setup": 30 }))
                .starts_with("`pricing` is not a price list: unknown field `setup`")
        );
    }
}
