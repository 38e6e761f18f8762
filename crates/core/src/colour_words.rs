//! The everyday colour words people search by ("red", "navy" is not one) and which of them a
//! colour is: so that searching a shop's threads for "red" finds its reds, whatever their names
//! ("Poinsettia", "Wildfire"), and a name that says one colour while its chart says another can
//! be noticed.
//!
//! A colour is sorted by its OKLCH lightness, chroma and hue: below a chroma of 0.035 it is
//! black, grey or white by lightness; otherwise its hue picks the family, with dark oranges and
//! yellows as brown and light reds and purples as pink. The bounds were set against the named colours of CSS
//! (the tests below) and are meant for finding, not for matching: a colour on a border goes to
//! one side.

use palette::{FromColor, Oklch, Srgb};

use crate::colour::Rgb8;

/// One everyday colour word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Red,
    Orange,
    Yellow,
    Green,
    Blue,
    Purple,
    Pink,
    Brown,
    Black,
    Grey,
    White,
}

impl Family {
    pub const ALL: [Self; 11] = [
        Self::Red,
        Self::Orange,
        Self::Yellow,
        Self::Green,
        Self::Blue,
        Self::Purple,
        Self::Pink,
        Self::Brown,
        Self::Black,
        Self::Grey,
        Self::White,
    ];

    /// The family a word names, in any case, with its common spellings ("gray", "violet"); `None`
    /// for any other word.
    pub fn from_word(word: &str) -> Option<Self> {
        Some(match word.trim().to_lowercase().as_str() {
            "red" | "reds" => Self::Red,
            "orange" | "oranges" => Self::Orange,
            "yellow" | "yellows" => Self::Yellow,
            "green" | "greens" => Self::Green,
            "blue" | "blues" => Self::Blue,
            "purple" | "purples" | "violet" | "violets" => Self::Purple,
            "pink" | "pinks" => Self::Pink,
            "brown" | "browns" => Self::Brown,
            "black" | "blacks" => Self::Black,
            "grey" | "greys" | "gray" | "grays" => Self::Grey,
            "white" | "whites" => Self::White,
            _ => return None,
        })
    }

    /// The family of `colour`, by its OKLCH lightness, chroma and hue (whose hues are closer
    /// to how people name colours than CIELAB's, where a pure blue sits at 306°).
    pub fn of(colour: Rgb8) -> Self {
        let srgb = Srgb::new(colour.r, colour.g, colour.b).into_format::<f64>();
        let oklch: Oklch<f64> = Oklch::from_color(srgb.into_linear());
        let (lightness, chroma, hue) = (oklch.l, oklch.chroma, oklch.hue.into_positive_degrees());
        if chroma < 0.035 {
            return if lightness < 0.33 {
                Self::Black
            } else if lightness > 0.92 {
                Self::White
            } else {
                Self::Grey
            };
        }
        let light = |above: f64, light: Self, dark: Self| if lightness > above { light } else { dark };
        match hue {
            h if !(40.0..345.0).contains(&h) => light(0.7, Self::Pink, Self::Red),
            h if h < 80.0 => light(0.58, Self::Orange, Self::Brown),
            h if h < 120.0 => light(0.6, Self::Yellow, Self::Brown),
            h if h < 190.0 => Self::Green,
            h if h < 290.0 => Self::Blue,
            _ => light(0.68, Self::Pink, Self::Purple),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(hex: &str) -> Family {
        Family::of(Rgb8::parse_hex(hex).unwrap())
    }

    #[test]
    fn named_colours_fall_in_their_families() {
        for (hex, expected, name) in [
            ("#FF0000", Family::Red, "red"),
            ("#C8102E", Family::Red, "a thread red"),
            ("#8B0000", Family::Red, "dark red"),
            ("#DC143C", Family::Red, "crimson"),
            ("#FFA500", Family::Orange, "orange"),
            ("#FF8C00", Family::Orange, "dark orange"),
            ("#FFFF00", Family::Yellow, "yellow"),
            ("#FFD700", Family::Yellow, "gold"),
            ("#008000", Family::Green, "green"),
            ("#4CBB17", Family::Green, "kelly green"),
            ("#2E8B57", Family::Green, "sea green"),
            ("#0000FF", Family::Blue, "blue"),
            ("#000080", Family::Blue, "navy"),
            ("#1F3A93", Family::Blue, "a thread navy"),
            ("#008080", Family::Blue, "teal"),
            ("#800080", Family::Purple, "purple"),
            ("#4B0082", Family::Purple, "indigo"),
            ("#FFC0CB", Family::Pink, "pink"),
            ("#FF69B4", Family::Pink, "hot pink"),
            ("#FF00FF", Family::Pink, "magenta"),
            ("#8B4513", Family::Brown, "saddle brown"),
            ("#A0522D", Family::Brown, "sienna"),
            ("#000000", Family::Black, "black"),
            ("#2F3032", Family::Black, "a thread black"),
            ("#808080", Family::Grey, "grey"),
            ("#C0C0C0", Family::Grey, "silver"),
            ("#FFFFFF", Family::White, "white"),
            ("#F8F8F0", Family::White, "off-white"),
        ] {
            assert_eq!(family(hex), expected, "{name} {hex}");
        }
    }

    #[test]
    fn words_name_families_in_any_case_and_spelling() {
        assert_eq!(Family::from_word("Red"), Some(Family::Red));
        assert_eq!(Family::from_word(" gray "), Some(Family::Grey));
        assert_eq!(Family::from_word("violet"), Some(Family::Purple));
        assert_eq!(Family::from_word("poinsettia"), None);
        assert_eq!(Family::from_word("redwood"), None);
    }
}
