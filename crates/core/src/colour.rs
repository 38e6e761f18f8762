//! Colour science for thread matching: sRGB (D65) to linear RGB to CIE XYZ to CIELAB and back, and
//! the colour differences CIE76, CIE94 (textile weights) and CIEDE2000.
//!
//! The conversions and CIEDE2000 come from the `palette` crate, whose implementation is checked here
//! against the reference data of Sharma, Wu and Dalal (2005). CIE94 is written out below because
//! `palette` does not offer it; it is five lines of the published formula.

use std::fmt;
use std::str::FromStr;

use palette::color_difference::{Ciede2000, EuclideanDistance};
use palette::white_point::D65;
use palette::{FromColor, IntoColor, LinSrgb, Srgb};
use serde::{Deserialize, Serialize};

/// Why a colour given by a person could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColourError {
    #[error("'{0}' is not a hex colour: use #RRGGBB or #RGB")]
    InvalidHex(String),
    #[error("L* must be between 0 and 100, and a* and b* between -128 and 128")]
    LabOutOfRange,
}

/// An sRGB colour with 8 bits per channel: what thread charts, hex codes and colour pickers give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rgb8 {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Rgb8 {
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b }
    }

    /// Reads `#RRGGBB`, `RRGGBB`, `#RGB` or `RGB`, in either case, ignoring surrounding spaces.
    pub fn parse_hex(input: &str) -> Result<Self, ColourError> {
        let invalid = || ColourError::InvalidHex(input.trim().to_owned());
        let digits = input.trim();
        let digits = digits.strip_prefix('#').unwrap_or(digits);
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid());
        }
        let channel = |s: &str| u8::from_str_radix(s, 16).map_err(|_| invalid());
        match digits.len() {
            6 => Ok(Self::new(channel(&digits[0..2])?, channel(&digits[2..4])?, channel(&digits[4..6])?)),
            // #abc is shorthand for #aabbcc, as in CSS.
            3 => {
                let short = |i: usize| channel(&digits[i..=i]).map(|v| v * 17);
                Ok(Self::new(short(0)?, short(1)?, short(2)?))
            }
            _ => Err(invalid()),
        }
    }

    /// `#RRGGBB` in upper case.
    pub fn to_hex(self) -> String {
        self.to_string()
    }

    /// First step of the chain: undo the sRGB transfer curve.
    pub fn to_linear(self) -> LinearRgb {
        let linear: LinSrgb<f64> = Srgb::new(self.r, self.g, self.b).into_format::<f64>().into_linear();
        LinearRgb { r: linear.red, g: linear.green, b: linear.blue }
    }

    /// The colour in CIELAB (D65), through linear RGB and XYZ.
    pub fn to_lab(self) -> Lab {
        self.to_linear().to_xyz().to_lab()
    }
}

impl fmt::Display for Rgb8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }
}

impl FromStr for Rgb8 {
    type Err = ColourError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_hex(s)
    }
}

// Across the API and the WebAssembly boundary a colour is its hex string: what people read and type.
impl Serialize for Rgb8 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rgb8 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse_hex(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Rgb8 {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^#[0-9A-F]{6}$"))
            .description(Some("An sRGB colour as #RRGGBB."))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Rgb8 {}

/// Linear-light sRGB, each channel 0.0 to 1.0 inside the gamut.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearRgb {
    pub r: f64,
    pub g: f64,
    pub b: f64,
}

impl LinearRgb {
    pub fn to_xyz(self) -> Xyz {
        let xyz: palette::Xyz<D65, f64> = LinSrgb::new(self.r, self.g, self.b).into_color();
        Xyz { x: xyz.x, y: xyz.y, z: xyz.z }
    }

    /// Applies the sRGB transfer curve and rounds to 8 bits, clamping colours outside the gamut.
    pub fn to_rgb8(self) -> Rgb8 {
        let srgb: Srgb<u8> = Srgb::from_linear(LinSrgb::new(self.r, self.g, self.b));
        Rgb8::new(srgb.red, srgb.green, srgb.blue)
    }

    /// Whether every channel is inside 0..=1, with room for the 1e-7 error of the published
    /// sRGB matrices (a round trip of pure red gives green = 1.3e-7).
    pub fn in_gamut(self) -> bool {
        const EPSILON: f64 = 1e-6;
        [self.r, self.g, self.b].iter().all(|c| (-EPSILON..=1.0 + EPSILON).contains(c))
    }
}

/// CIE 1931 XYZ relative to the D65 white point, with Y = 1.0 for white.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Xyz {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Xyz {
    pub fn to_lab(self) -> Lab {
        let lab: palette::Lab<D65, f64> = palette::Xyz::<D65, f64>::new(self.x, self.y, self.z).into_color();
        Lab { l: lab.l, a: lab.a, b: lab.b }
    }

    /// Back to linear RGB, without clamping: a Lab colour may lie outside the sRGB gamut.
    pub fn to_linear(self) -> LinearRgb {
        use palette::convert::FromColorUnclamped;
        let linear =
            LinSrgb::<f64>::from_color_unclamped(palette::Xyz::<D65, f64>::new(self.x, self.y, self.z));
        LinearRgb { r: linear.red, g: linear.green, b: linear.blue }
    }
}

/// CIELAB (D65): L* lightness 0 to 100, a* green to red, b* blue to yellow.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Lab {
    pub l: f64,
    pub a: f64,
    pub b: f64,
}

impl Lab {
    /// Checks a Lab value typed by a person or sent by a client: finite, L* in 0..=100 and a*, b*
    /// in -128..=128 (the range of 8-bit Lab encodings, wide enough for every real colour).
    pub fn parse(l: f64, a: f64, b: f64) -> Result<Self, ColourError> {
        let valid =
            (0.0..=100.0).contains(&l) && (-128.0..=128.0).contains(&a) && (-128.0..=128.0).contains(&b);
        if valid { Ok(Self { l, a, b }) } else { Err(ColourError::LabOutOfRange) }
    }

    pub fn to_xyz(self) -> Xyz {
        let xyz: palette::Xyz<D65, f64> = palette::Xyz::from_color(self.to_palette());
        Xyz { x: xyz.x, y: xyz.y, z: xyz.z }
    }

    /// The nearest displayable sRGB colour (channels clamped); see [`Lab::in_srgb_gamut`].
    pub fn to_rgb8(self) -> Rgb8 {
        self.to_xyz().to_linear().to_rgb8()
    }

    /// Whether the colour can be shown on an sRGB screen without clamping.
    pub fn in_srgb_gamut(self) -> bool {
        self.to_xyz().to_linear().in_gamut()
    }

    /// C*ab, the distance from the grey axis.
    pub fn chroma(self) -> f64 {
        self.a.hypot(self.b)
    }

    /// `h_ab`, the hue angle in degrees from 0 (inclusive) to 360, as CIEDE2000 computes its h'.
    pub fn hue(self) -> f64 {
        let degrees = self.b.atan2(self.a).to_degrees();
        if degrees < 0.0 { degrees + 360.0 } else { degrees }
    }

    fn to_palette(self) -> palette::Lab<D65, f64> {
        palette::Lab::new(self.l, self.a, self.b)
    }
}

/// CIE76: the straight-line distance in CIELAB. Fast, but it overstates differences in saturated
/// colours; shown for comparison only.
pub fn delta_e_76(x: Lab, y: Lab) -> f64 {
    x.to_palette().distance(y.to_palette())
}

/// CIE94 with the textile weights (kL = 2, K1 = 0.048, K2 = 0.014). Not symmetric: `reference` is
/// the colour asked for and `sample` the candidate, as the standard defines.
pub fn delta_e_94_textile(reference: Lab, sample: Lab) -> f64 {
    const K_L: f64 = 2.0;
    const K1: f64 = 0.048;
    const K2: f64 = 0.014;
    let (c1, c2) = (reference.chroma(), sample.chroma());
    let delta_l = reference.l - sample.l;
    let delta_c = c1 - c2;
    let (delta_a, delta_b) = (reference.a - sample.a, reference.b - sample.b);
    // ΔH² = Δa² + Δb² − ΔC²; rounding can make it a hair below zero for equal hues.
    let delta_h_squared = (delta_a * delta_a + delta_b * delta_b - delta_c * delta_c).max(0.0);
    let s_c = 1.0 + K1 * c1;
    let s_h = 1.0 + K2 * c1;
    ((delta_l / K_L).powi(2) + (delta_c / s_c).powi(2) + delta_h_squared / (s_h * s_h)).sqrt()
}

/// CIEDE2000 (CIE 142-2001) with kL = kC = kH = 1: the difference the converter ranks and labels by.
pub fn delta_e_2000(x: Lab, y: Lab) -> f64 {
    x.to_palette().difference(y.to_palette())
}

/// CIEDE2000 with the textile weights (kL = 2, kC = kH = 1): a lightness difference counts half.
/// The converter uses it between two near-neutral colours (docs/behaviour.md, "Catalogue and
/// converter").
///
/// CIEDE2000 is `√((ΔL'/(kL·S_L))² + Q)`, where `Q` (the chroma, hue and rotation terms) does not
/// depend on kL and `ΔL' = ΔL*`. So with `t = ΔL*/S_L`, the kL = 2 difference is
/// `√(ΔE00² − ¾·t²)`, computed here from `palette`'s ΔE00 rather than by a second implementation.
pub fn delta_e_2000_textile(x: Lab, y: Lab) -> f64 {
    let full = delta_e_2000(x, y);
    let lightness = (y.l - x.l) / ciede2000_s_l(x.l, y.l);
    // Never below zero in exact arithmetic (it is (t/2)² + Q); rounding could make it a hair so.
    (full * full - 0.75 * lightness * lightness).max(0.0).sqrt()
}

/// CIEDE2000's lightness weight `S_L = 1 + 0.015·(L̄ − 50)² / √(20 + (L̄ − 50)²)`, computed as
/// `palette` computes it.
pub(crate) fn ciede2000_s_l(l1: f64, l2: f64) -> f64 {
    let l_bar = f64::midpoint(l1, l2);
    let offset_squared = (l_bar - 50.0) * (l_bar - 50.0);
    1.0 + (0.015 * offset_squared) / (offset_squared + 20.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_in_long_and_short_form() {
        assert_eq!(Rgb8::parse_hex("#1a2B3c"), Ok(Rgb8::new(0x1a, 0x2b, 0x3c)));
        assert_eq!(Rgb8::parse_hex(" 1A2B3C "), Ok(Rgb8::new(0x1a, 0x2b, 0x3c)));
        assert_eq!(Rgb8::parse_hex("#fa0"), Ok(Rgb8::new(0xff, 0xaa, 0x00)));
        assert_eq!(Rgb8::new(0xff, 0xaa, 0).to_hex(), "#FFAA00");
    }

    #[test]
    fn malformed_hex_colours_are_rejected_with_the_input() {
        for bad in ["", "#", "#12345", "#1234567", "#GGGGGG", "12 34 56", "#+1+2+3"] {
            assert_eq!(Rgb8::parse_hex(bad), Err(ColourError::InvalidHex(bad.trim().to_owned())), "{bad:?}");
        }
    }

    #[test]
    fn rgb8_serialises_as_its_hex_string() {
        let json = serde_json::to_string(&Rgb8::new(1, 2, 255)).unwrap();
        assert_eq!(json, "\"#0102FF\"");
        assert_eq!(serde_json::from_str::<Rgb8>("\"#0102ff\"").unwrap(), Rgb8::new(1, 2, 255));
        assert!(serde_json::from_str::<Rgb8>("\"blue\"").is_err());
    }

    /// Values from the sRGB and CIELAB definitions (IEC 61966-2-1, CIE 15), as tabulated by
    /// Bruce Lindbloom's calculator for D65.
    #[test]
    fn known_colours_convert_to_their_published_lab_values() {
        let cases = [
            (Rgb8::new(255, 255, 255), (100.0, 0.0, 0.0)),
            (Rgb8::new(0, 0, 0), (0.0, 0.0, 0.0)),
            (Rgb8::new(255, 0, 0), (53.2408, 80.0925, 67.2032)),
            (Rgb8::new(0, 255, 0), (87.7347, -86.1827, 83.1793)),
            (Rgb8::new(0, 0, 255), (32.2970, 79.1875, -107.8602)),
            (Rgb8::new(128, 128, 128), (53.5850, 0.0, 0.0)),
        ];
        for (rgb, (l, a, b)) in cases {
            let lab = rgb.to_lab();
            assert!((lab.l - l).abs() < 0.01, "{rgb} L* {} != {l}", lab.l);
            assert!((lab.a - a).abs() < 0.01, "{rgb} a* {} != {a}", lab.a);
            assert!((lab.b - b).abs() < 0.01, "{rgb} b* {} != {b}", lab.b);
        }
    }

    #[test]
    fn mid_grey_is_one_fifth_linear_light() {
        // The sRGB curve: 0.5 encoded is about 0.214 linear, the fact every colour picker relies on.
        let linear = Rgb8::new(128, 128, 128).to_linear();
        assert!((linear.r - 0.215_860_5).abs() < 1e-6, "{linear:?}");
        let xyz = Rgb8::new(255, 255, 255).to_linear().to_xyz();
        assert!((xyz.y - 1.0).abs() < 1e-9 && (xyz.x - 0.95047).abs() < 1e-4, "{xyz:?}");
    }

    #[test]
    fn colours_outside_srgb_are_reported_and_clamped() {
        let vivid_green = Lab { l: 60.0, a: -120.0, b: 100.0 };
        assert!(!vivid_green.in_srgb_gamut());
        assert_eq!(vivid_green.to_rgb8().r, 0);
        assert!(Rgb8::new(10, 200, 30).to_lab().in_srgb_gamut());
    }

    #[test]
    fn lab_values_from_outside_are_range_checked() {
        assert!(Lab::parse(50.0, 10.0, -10.0).is_ok());
        for (l, a, b) in [(-1.0, 0.0, 0.0), (100.1, 0.0, 0.0), (50.0, 129.0, 0.0), (f64::NAN, 0.0, 0.0)] {
            assert_eq!(Lab::parse(l, a, b), Err(ColourError::LabOutOfRange), "{l} {a} {b}");
        }
    }

    #[test]
    fn cie76_is_the_euclidean_distance() {
        let x = Lab { l: 50.0, a: 0.0, b: 0.0 };
        let y = Lab { l: 53.0, a: 4.0, b: 0.0 };
        assert!((delta_e_76(x, y) - 5.0).abs() < 1e-12);
    }

    /// CIE94 textile, worked by hand from CIE 116-1995: reference C1 = 50, so SC = 1 + 0.048·50 = 3.4
    /// and SH = 1 + 0.014·50 = 1.7; ΔL = 4 over kL = 2 gives 2; ΔC = 10 / 3.4; ΔH = 0.
    #[test]
    fn cie94_textile_matches_a_hand_worked_example() {
        let reference = Lab { l: 50.0, a: 50.0, b: 0.0 };
        let sample = Lab { l: 46.0, a: 40.0, b: 0.0 };
        let expected = (2.0_f64.powi(2) + (10.0 / 3.4_f64).powi(2)).sqrt();
        assert!((delta_e_94_textile(reference, sample) - expected).abs() < 1e-12);
        // A pure hue change: ΔH = 2·C·sin(Δh/2) for equal chromas, weighted by SH.
        let turned = Lab { l: 50.0, a: 0.0, b: 50.0 };
        let delta_h = 2.0 * 50.0 * (std::f64::consts::FRAC_PI_4).sin();
        assert!((delta_e_94_textile(reference, turned) - delta_h / 1.7).abs() < 1e-9);
    }
}
