//! The colour differences against published reference data, and properties that must hold for
//! every colour.

use bobbin_core::colour::{Lab, Rgb8, delta_e_76, delta_e_94_textile, delta_e_2000, delta_e_2000_textile};
use proptest::prelude::*;

/// All 34 pairs of Table 1 in G. Sharma, W. Wu and E. N. Dalal, "The CIEDE2000 color-difference
/// formula: implementation notes, supplementary test data, and mathematical observations",
/// Color Research & Application 30(1), 2005: (L1, a1, b1), (L2, a2, b2), ΔE00 to four decimals.
/// Pairs 7 to 16 exercise the hue-angle edge cases that naive implementations get wrong.
type LabTriple = (f64, f64, f64);

const SHARMA_2005: [(LabTriple, LabTriple, f64); 34] = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
];

fn lab((l, a, b): LabTriple) -> Lab {
    Lab { l, a, b }
}

#[test]
fn ciede2000_matches_every_pair_of_sharma_wu_and_dalal_to_1e_4() {
    for (i, (x, y, expected)) in SHARMA_2005.into_iter().enumerate() {
        let forward = delta_e_2000(lab(x), lab(y));
        let backward = delta_e_2000(lab(y), lab(x));
        // The table is rounded to four decimals, so a correct value is within half a unit of it.
        assert!((forward - expected).abs() <= 0.5e-4, "pair {}: {forward} != {expected}", i + 1);
        assert!((backward - expected).abs() <= 0.5e-4, "pair {} reversed: {backward} != {expected}", i + 1);
    }
}

/// With kL = 2 a lightness difference counts half: between greys of equal chroma (zero) the
/// textile difference is exactly half of ΔE00, and between colours of equal lightness the two agree.
#[test]
fn ciede2000_textile_halves_the_lightness_term_alone() {
    for (l1, l2) in [(0.0, 19.8), (100.0, 93.2), (50.0, 60.0), (30.0, 31.0)] {
        let (x, y) = (Lab { l: l1, a: 0.0, b: 0.0 }, Lab { l: l2, a: 0.0, b: 0.0 });
        let (full, textile) = (delta_e_2000(x, y), delta_e_2000_textile(x, y));
        assert!((textile - full / 2.0).abs() < 1e-9, "L* {l1} and {l2}: {textile} != {full} / 2");
    }
    for (x, y, _) in SHARMA_2005 {
        let (x, y) = (lab(x), Lab { l: x.0, ..lab(y) });
        assert!((delta_e_2000_textile(x, y) - delta_e_2000(x, y)).abs() < 1e-9, "{x:?} {y:?}");
    }
}

fn any_lab() -> impl Strategy<Value = Lab> {
    (0.0..=100.0, -128.0..=128.0, -128.0..=128.0).prop_map(|(l, a, b)| Lab { l, a, b })
}

fn any_rgb() -> impl Strategy<Value = Rgb8> {
    any::<[u8; 3]>().prop_map(|[r, g, b]| Rgb8::new(r, g, b))
}

proptest! {
    #[test]
    fn ciede2000_is_symmetric_and_non_negative(x in any_lab(), y in any_lab()) {
        let d = delta_e_2000(x, y);
        prop_assert!(d >= 0.0 && d.is_finite());
        prop_assert!((d - delta_e_2000(y, x)).abs() < 1e-9);
    }

    #[test]
    fn ciede2000_textile_lies_between_half_and_all_of_ciede2000(x in any_lab(), y in any_lab()) {
        let (full, textile) = (delta_e_2000(x, y), delta_e_2000_textile(x, y));
        prop_assert!(textile.is_finite() && textile <= full + 1e-9 && full <= 2.0 * textile + 1e-9);
        prop_assert!((textile - delta_e_2000_textile(y, x)).abs() < 1e-9);
    }

    #[test]
    fn every_difference_is_zero_on_identity(x in any_lab()) {
        prop_assert!(delta_e_2000(x, x).abs() < 1e-12);
        prop_assert!(delta_e_2000_textile(x, x).abs() < 1e-12);
        prop_assert!(delta_e_76(x, x).abs() < 1e-12);
        prop_assert!(delta_e_94_textile(x, x).abs() < 1e-12);
    }

    #[test]
    fn cie76_and_cie94_are_non_negative_and_cie76_symmetric(x in any_lab(), y in any_lab()) {
        prop_assert!(delta_e_76(x, y) >= 0.0);
        prop_assert!((delta_e_76(x, y) - delta_e_76(y, x)).abs() < 1e-9);
        prop_assert!(delta_e_94_textile(x, y) >= 0.0);
    }

    #[test]
    fn any_8_bit_colour_survives_the_round_trip_through_lab(rgb in any_rgb()) {
        let lab = rgb.to_lab();
        prop_assert!(lab.in_srgb_gamut(), "{rgb} -> {lab:?}");
        prop_assert_eq!(lab.to_rgb8(), rgb);
    }

    #[test]
    fn xyz_and_linear_steps_invert_each_other(rgb in any_rgb()) {
        let linear = rgb.to_linear();
        let back = linear.to_xyz().to_lab().to_xyz().to_linear();
        // The sRGB matrix and its inverse are published to about seven digits.
        let error = (back.r - linear.r).abs().max((back.g - linear.g).abs()).max((back.b - linear.b).abs());
        prop_assert!(error < 1e-6, "{rgb}: {linear:?} came back as {back:?}");
    }

    #[test]
    fn hex_text_round_trips(rgb in any_rgb()) {
        prop_assert_eq!(Rgb8::parse_hex(&rgb.to_hex()), Ok(rgb));
        prop_assert_eq!(Rgb8::parse_hex(&rgb.to_hex().to_lowercase()), Ok(rgb));
    }
}
