//! Amounts with two decimals: spools on the shelf (a part-used cone is 0.5), reorder points and
//! money. Kept as whole hundredths, so adding, comparing and writing them back is exact: a
//! quantity exported as `2.35` imports as exactly 2.35, never 2.3499999.

use std::fmt;

/// A non-negative amount in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hundredths(i64);

/// The largest amount: a hundred million (spools or currency units), far past any shop.
pub const MAX_HUNDREDTHS: i64 = 10_000_000_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    #[error("\"{0}\" is not a number")]
    NotANumber(String),
    #[error("use at most two decimals")]
    TooPrecise,
    #[error("must not be negative")]
    Negative,
    #[error("is too large")]
    TooLarge,
}

impl Hundredths {
    pub const ZERO: Self = Self(0);

    /// From whole hundredths, as stored.
    ///
    /// # Errors
    ///
    /// When negative or over [`MAX_HUNDREDTHS`].
    pub fn from_hundredths(value: i64) -> Result<Self, AmountError> {
        if value < 0 {
            Err(AmountError::Negative)
        } else if value > MAX_HUNDREDTHS {
            Err(AmountError::TooLarge)
        } else {
            Ok(Self(value))
        }
    }

    pub fn hundredths(self) -> i64 {
        self.0
    }

    /// Reads `2`, `2.5`, `2.50`, `0.25` and, as spreadsheets in much of Europe write them,
    /// `2,5`. No thousands separators, no signs but a leading `-` (which is refused).
    ///
    /// # Errors
    ///
    /// When the text is not such a number, has more than two decimals, is negative or too large.
    pub fn parse(raw: &str) -> Result<Self, AmountError> {
        let text = raw.trim();
        let not_a_number = || AmountError::NotANumber(text.chars().take(40).collect());
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match digits.split_once(['.', ',']) {
            Some((whole, fraction)) => (whole, fraction),
            None => (digits, ""),
        };
        let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
            return Err(not_a_number());
        }
        if fraction.trim_end_matches('0').len() > 2 {
            return Err(AmountError::TooPrecise);
        }
        let whole: i64 =
            if whole.is_empty() { 0 } else { whole.parse().map_err(|_| AmountError::TooLarge)? };
        let cents: i64 = format!("{:0<2}", &fraction[..fraction.len().min(2)]).parse().unwrap_or(0);
        let value = whole.checked_mul(100).and_then(|w| w.checked_add(cents)).ok_or(AmountError::TooLarge)?;
        if negative && value != 0 {
            return Err(AmountError::Negative);
        }
        Self::from_hundredths(value)
    }

    /// From a JSON number such as `2.5`. Binary floating point cannot hold most decimals
    /// exactly, so the value is rounded to hundredths and refused if that changed it by more
    /// than a rounding error.
    ///
    /// # Errors
    ///
    /// As [`Hundredths::parse`].
    pub fn from_f64(value: f64) -> Result<Self, AmountError> {
        if !value.is_finite() {
            return Err(AmountError::NotANumber(value.to_string()));
        }
        let scaled = value * 100.0;
        let rounded = scaled.round();
        if (scaled - rounded).abs() > 1e-6 * scaled.abs().max(1.0) {
            return Err(AmountError::TooPrecise);
        }
        // MAX_HUNDREDTHS as a float (10^10 is exact in an f64).
        if rounded > 1e10 {
            return Err(AmountError::TooLarge);
        }
        #[expect(clippy::cast_possible_truncation, reason = "rounded and bounded above")]
        Self::from_hundredths(rounded as i64)
    }

    /// For JSON answers: `2.5`.
    #[expect(clippy::cast_precision_loss, reason = "at most 10^10, exact in an f64")]
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 100.0
    }
}

/// `2`, `2.5`, `2.35`: the shortest text that reads back as the same amount.
impl fmt::Display for Hundredths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, cents) = (self.0 / 100, self.0 % 100);
        match cents {
            0 => write!(f, "{whole}"),
            c if c % 10 == 0 => write!(f, "{whole}.{}", c / 10),
            c => write!(f, "{whole}.{c:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn amounts_read_as_people_write_them() {
        for (text, hundredths) in [
            ("2", 200),
            ("2.5", 250),
            ("2,5", 250),
            ("0.25", 25),
            (".5", 50),
            ("3.", 300),
            (" 7.10 ", 710),
            ("1.500", 150),
            ("-0", 0),
        ] {
            assert_eq!(Hundredths::parse(text).map(Hundredths::hundredths), Ok(hundredths), "{text}");
        }
    }

    #[test]
    fn bad_amounts_say_what_is_wrong() {
        assert!(matches!(Hundredths::parse("two"), Err(AmountError::NotANumber(_))));
        assert!(matches!(Hundredths::parse(""), Err(AmountError::NotANumber(_))));
        assert!(matches!(Hundredths::parse("1,000.5"), Err(AmountError::NotANumber(_))));
        assert_eq!(Hundredths::parse("1.255"), Err(AmountError::TooPrecise));
        assert_eq!(Hundredths::parse("-1"), Err(AmountError::Negative));
        assert_eq!(Hundredths::parse("100000001"), Err(AmountError::TooLarge));
        assert_eq!(Hundredths::parse("99999999999999999999"), Err(AmountError::TooLarge));
    }

    #[test]
    fn json_numbers_are_taken_to_the_hundredth() {
        assert_eq!(Hundredths::from_f64(0.1 + 0.2).unwrap().hundredths(), 30);
        assert_eq!(Hundredths::from_f64(2.35).unwrap().hundredths(), 235);
        assert_eq!(Hundredths::from_f64(2.355), Err(AmountError::TooPrecise));
        assert_eq!(Hundredths::from_f64(-0.5), Err(AmountError::Negative));
        assert!(Hundredths::from_f64(f64::NAN).is_err());
    }

    proptest! {
        #[test]
        fn writing_then_reading_gives_the_same_amount(value in 0..=MAX_HUNDREDTHS) {
            let amount = Hundredths::from_hundredths(value).unwrap();
            prop_assert_eq!(Hundredths::parse(&amount.to_string()), Ok(amount));
            prop_assert_eq!(Hundredths::from_f64(amount.as_f64()), Ok(amount));
        }
    }
}
