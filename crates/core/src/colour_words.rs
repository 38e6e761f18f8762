//! The everyday colour words people search by ("red", "navy" is not one) and which of them a
//! colour is: so that searching a shop's threads for "red" finds its reds, whatever their names
//! ("Poinsettia", "Wildfire"), and a name that says one colour while its chart says another can
//! be noticed.
//!
//! A colour is sorted by its OKLCH lightness, chroma and hue: below a chroma of 0.035 it is
//! black, grey or white by lightness; otherwise its hue picks the family, with dark oranges as
//! brown, dark yellows as olive, and light reds and purples as pink. The bounds were set against the named colours of CSS
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
    /// A dark yellow or yellow-green: "olive", "khaki".
    Olive,
    Black,
    Grey,
    White,
}

impl Family {
    pub const ALL: [Self; 12] = [
        Self::Red,
        Self::Orange,
        Self::Yellow,
        Self::Green,
        Self::Blue,
        Self::Purple,
        Self::Pink,
        Self::Brown,
        Self::Olive,
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
            "olive" | "olives" | "khaki" => Self::Olive,
            "black" | "blacks" => Self::Black,
            "grey" | "greys" | "gray" | "grays" => Self::Grey,
            "white" | "whites" => Self::White,
            _ => return None,
        })
    }

    /// The families a name's words say ("Dark Kelly Green": green), once each, in order.
    pub fn in_name(name: &str) -> Vec<Self> {
        let mut found = Vec::new();
        for family in name.split(|c: char| !c.is_alphabetic()).filter_map(Self::from_word) {
            if !found.contains(&family) {
                found.push(family);
            }
        }
        found
    }

    /// Whether a colour of one family may fairly be called by the other: the same, or next to it
    /// (a dark orange is a brown, a light red a pink, a dark grey a black). A name and a chart
    /// colour further apart than this disagree.
    pub fn near(self, other: Self) -> bool {
        use Family::{Black, Blue, Brown, Green, Grey, Olive, Orange, Pink, Purple, Red, White, Yellow};
        self == other
            || [
                (Red, Pink),
                (Red, Orange),
                (Red, Brown),
                (Red, Purple),
                (Orange, Yellow),
                (Orange, Pink),
                (Orange, Brown),
                (Yellow, Green),
                (Yellow, Brown),
                (Green, Blue),
                (Blue, Purple),
                (Purple, Pink),
                (Grey, Black),
                (Grey, White),
                (Brown, Black),
                (Olive, Green),
                (Olive, Yellow),
                (Olive, Brown),
            ]
            .iter()
            .any(|&(a, b)| (a, b) == (self, other) || (b, a) == (self, other))
    }

    /// Whether a name saying `self` is wrong for a colour charted in `charted`, of OKLCH chroma
    /// `chroma`. Only a clear disagreement counts: a muted colour charted grey or a pale one
    /// charted white may still be what its name says ("Camouflage Green", "Vapor Blue"), and a
    /// grey with a tint ("Gun Metal Gray") is still a grey; but a green charted black, a brown
    /// charted teal or a white charted black is not.
    pub fn disagrees(self, charted: Self, chroma: f64) -> bool {
        let neutral = |family: Self| matches!(family, Self::Black | Self::Grey | Self::White);
        if self.near(charted) {
            return false;
        }
        match (neutral(self), charted) {
            (false, Self::Grey | Self::White) => false,
            (true, charted) if !neutral(charted) => chroma > 0.1,
            _ => true,
        }
    }

    /// The OKLCH chroma of `colour`: 0 for a grey, about 0.3 for the most vivid.
    pub fn chroma(colour: Rgb8) -> f64 {
        oklch(colour).chroma
    }

    /// The family of `colour`, by its OKLCH lightness, chroma and hue (whose hues are closer
    /// to how people name colours than CIELAB's, where a pure blue sits at 306°).
    pub fn of(colour: Rgb8) -> Self {
        let oklch = oklch(colour);
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
            h if h < 120.0 => light(0.6, Self::Yellow, Self::Olive),
            h if h < 190.0 => Self::Green,
            h if h < 290.0 => Self::Blue,
            _ => light(0.68, Self::Pink, Self::Purple),
        }
    }
}

fn oklch(colour: Rgb8) -> Oklch<f64> {
    Oklch::from_color(Srgb::new(colour.r, colour.g, colour.b).into_format::<f64>().into_linear())
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
            ("#808000", Family::Olive, "olive"),
            ("#5B491F", Family::Olive, "an army green"),
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
    fn a_name_says_its_families_and_near_ones_do_not_disagree() {
        assert_eq!(Family::in_name("Dark Kelly Green"), [Family::Green]);
        assert_eq!(Family::in_name("Blue-Green"), [Family::Blue, Family::Green]);
        assert_eq!(Family::in_name("Poinsettia"), []);
        assert!(Family::Red.near(Family::Pink) && Family::Pink.near(Family::Red));
        assert!(!Family::Green.near(Family::Black));
        assert!(!Family::White.near(Family::Black));
        // A green charted black, a brown charted teal: wrong. A green charted grey, a grey with a
        // purple tint: not clearly so.
        let says = |named: Family, hex: &str| {
            let colour = Rgb8::parse_hex(hex).unwrap();
            named.disagrees(Family::of(colour), Family::chroma(colour))
        };
        assert!(says(Family::Green, "#1D222A"), "Gunold 61449 Dark Kelly Green");
        assert!(says(Family::Brown, "#14BEA0"), "a Pale Brown charted teal");
        assert!(says(Family::White, "#000000"));
        assert!(!says(Family::Green, "#5A5941"), "Camouflage Green");
        assert!(!says(Family::Blue, "#C2C2C2"), "Vapor Blue");
        assert!(!says(Family::Grey, "#7D6A82"), "Gun Metal Gray");
        assert!(!says(Family::Brown, "#4D3A2D"), "Traditional Brown");
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
