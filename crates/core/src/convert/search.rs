//! The converter's search of one catalogue line: the same result as [`rank`](super::rank) over the
//! line's threads in chart order, item for item and bit for bit, without looking at most of them.
//!
//! Each line's threads are also kept sorted by lightness ([`Catalogue::by_lightness`]). The search
//! walks outwards from the colour's lightness, nearest lightness first, in two passes:
//!
//! 1. the `k` threads nearest in plain CIELAB distance (ΔE76, three subtractions), which stops as
//!    soon as the lightness difference alone is larger than the `k`-th nearest found: these seed
//!    the list of matches with a good `k`-th rank to beat;
//! 2. every thread whose lightness could still beat the `k`-th rank, each first checked against
//!    [`lower_bound`] (lightness, chroma and hue together, from values the catalogue computed
//!    once), so that CIEDE2000 itself is computed for a handful of threads a line.
//!
//! Ties are kept in chart order (thread index), as [`rank`](super::rank) keeps them in pool order.
//! No crate offers a nearest-neighbour search under CIEDE2000 (it is not a metric: the spatial
//! indexes of `kiddo` or `rstar` assume one), so this is written here.

use super::{MUCH_FURTHER, Neutrality, match_distance};
use crate::catalogue::{Catalogue, LineIndex, Probe, ThreadIndex};
use crate::colour::{Lab, ciede2000_s_l};

/// Computed values are shrunk by this factor and this amount before being compared as lower
/// bounds, far more than the rounding of either computation (see [`lower_bound`]).
const ROUNDING_MARGIN: f64 = 1.0 - 1e-9;
const ABSOLUTE_MARGIN: f64 = 1e-9;
/// `1 − √3/2`, rounded down: how much of the chroma and hue terms the rotation term can leave.
const ROTATION_KEEPS: f64 = 0.1339;
/// How much it can leave when the mean hue is at least [`FAR_FROM_BLUE`] from 275°: there
/// `Δθ ≤ 30°·exp(−3²) < 0.0037025°`, so `|R_T| < 2·sin(2Δθ) < 2.585·10⁻⁴`, and `1 − |R_T|/2 > 0.99987`.
const FAR_ROTATION_KEEPS: f64 = 0.9998;
/// See [`FAR_ROTATION_KEEPS`].
const FAR_FROM_BLUE: f64 = 75.0;
/// Below this C*ab a colour's hue is not used (its h' may be 0 by CIEDE2000's rule for greys).
const HUE_CHROMA_MIN: f64 = 1e-6;
/// 25⁷, in CIEDE2000's `G` and `R_C`.
const TWENTY_FIVE_POW_SEVEN: f64 = 6_103_515_625.0;

/// Which threads of the line may match: not `skip` (the thread converted from), and only those in
/// `only` (sorted) when it is given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Allowed<'a> {
    pub(crate) skip: Option<ThreadIndex>,
    pub(crate) only: Option<&'a [ThreadIndex]>,
}

impl Allowed<'_> {
    pub(crate) fn allows(self, index: ThreadIndex) -> bool {
        Some(index) != self.skip && self.only.is_none_or(|set| set.binary_search(&index).is_ok())
    }
}

/// A line's threads in order of lightness difference from `l`, nearest first.
struct Outwards<'a> {
    probes: &'a [Probe],
    l: f64,
    /// The next thread below is `probes[below - 1]`; the next above is `probes[above]`.
    below: usize,
    above: usize,
}

impl<'a> Outwards<'a> {
    fn new(probes: &'a [Probe], l: f64) -> Self {
        let start = probes.partition_point(|probe| probe.lab.l < l);
        Self { probes, l, below: start, above: start }
    }
}

impl<'a> Iterator for Outwards<'a> {
    /// The thread and its lightness difference |ΔL*|, which never decreases along the walk.
    type Item = (&'a Probe, f64);

    fn next(&mut self) -> Option<Self::Item> {
        let below = self.below.checked_sub(1).map(|i| (i, self.l - self.probes[i].lab.l));
        let above = self.probes.get(self.above).map(|probe| (self.above, probe.lab.l - self.l));
        match (below, above) {
            (Some((i, down)), Some((_, up))) if down <= up => {
                self.below = i;
                Some((&self.probes[i], down))
            }
            (_, Some((i, up))) => {
                self.above = i + 1;
                Some((&self.probes[i], up))
            }
            (Some((i, down)), None) => {
                self.below = i;
                Some((&self.probes[i], down))
            }
            (None, None) => None,
        }
    }
}

/// Lower bounds of the CIEDE2000 distance from one colour, cheap enough to check for every thread
/// near its lightness.
///
/// CIEDE2000 is `√((ΔL'/(k_L·S_L))² + Q)` with `Q = x² + y² + R_T·x·y`, `x = ΔC'/S_C`,
/// `y = ΔH'/S_H`, and `ΔL' = ΔL*`. As `|R_T| < √3` (see
/// [`delta_e_2000_lower_bound`](super::delta_e_2000_lower_bound)), `Q ≥ (1 − √3/2)·(x² + y²)`. The
/// weighting function `T` stays below 1.93, so `S_H = 1 + 0.015·C̄'·T < S_C = 1 + 0.045·C̄'`, and
/// `x² + y² ≥ (ΔC'² + ΔH'²)/S_C²`; and `ΔC'² + ΔH'² = Δa'² + Δb²` (the law of cosines in the a'b'
/// plane, as `ΔH' = 2√(C₁'C₂')·sin(Δh'/2)`), which is at least `Δa² + Δb²` because `a' = (1 + G)·a`
/// with `G ≥ 0`. Then `C̄' ≤ (1 + G)·C̄` for the mean C*ab `C̄`, and `G` falls as `C̄` grows, and
/// `C̄ ≥ C₁/2`, so `S_C ≤ 1 + 0.045·(1 + G(C₁/2))·C̄`. With `S_L` at most its largest value over
/// the line's lightness range (it grows with `|L̄ − 50|`, so that is at one end of the range or at
/// the colour's own lightness):
/// `ΔE00 ≥ √((ΔL*/(k_L·S_L,max))² + 0.1339·(Δa² + Δb²)/(1 + 0.045·(1 + G(C₁/2))·C̄)²)`, whatever
/// the hues (so it holds on either side of CIEDE2000's jumps where two hues differ by 180°).
///
/// The rotation term is about blues: `Δθ = 30°·exp(−((h̄' − 275°)/25°)²)`. Where the mean hue h̄'
/// is sure to be at least 75° from 275°, 0.9998 replaces 0.1339 ([`FAR_ROTATION_KEEPS`]). h̄' is
/// `(h₁' + h₂')/2`, or `(h₁' + h₂' + 360°)/2` when `|h₁' − h₂'| > 180°` (as `palette` computes it,
/// without taking it modulo 360°). Each h' is the hue of `((1 + G)·a, b)`, in the same quadrant
/// as `h_ab` and at most `2·atan(√(1 + G)) − 90°` from it (stretching one axis by `f` turns an angle
/// by at most `atan(√f) − atan(1/√f)`); so from the two colours' `h_ab`, known once, both possible
/// means are known to within that, and which of them applies is known unless `|h₁ − h₂|` is that
/// close to 180°, in which case both are checked.
///
/// The rounding of the two computations differs by a few parts in 10¹⁶ of the values involved
/// (at most about 10⁻¹³ for colours in the catalogue's range); the bound is shrunk by one part in
/// 10⁹ and by 10⁻⁹ (and `G` and `S_L,max` raised by one part in 10⁹), which is far more. For a pair
/// of identical colours it is 0 (or below), as CIEDE2000 is.
struct Bounds {
    target: Lab,
    /// `C₁`, the colour's C*ab.
    chroma: f64,
    /// `0.045·(1 + G(C₁/2))/2`, so that `S_C ≤ 1 + scale·(C₁ + C₂)`.
    s_c_scale: f64,
    /// `S_L,max`.
    s_l_max: f64,
    /// The colour's `h_ab`, and how far an h' can be from its `h_ab` (with room for rounding), both
    /// in degrees.
    hue: f64,
    hue_slack: f64,
}

impl Bounds {
    fn new(target: Lab, probes: &[Probe]) -> Self {
        let chroma = target.chroma();
        let half_pow_seven = (chroma / 2.0).powi(7);
        let g = 0.5 * (1.0 - (half_pow_seven / (half_pow_seven + TWENTY_FIVE_POW_SEVEN)).sqrt());
        let ends = [probes.first(), probes.last()].map(|end| end.map_or(target.l, |probe| probe.lab.l));
        let s_l_max = ends
            .iter()
            .fold(ciede2000_s_l(target.l, target.l), |max, &l| max.max(ciede2000_s_l(target.l, l)));
        let g = g * (1.0 + 1e-9);
        let turn = 2.0 * (1.0 + g).sqrt().atan() - std::f64::consts::FRAC_PI_2;
        Self {
            target,
            chroma,
            s_c_scale: 0.045 * (1.0 + g) / 2.0,
            s_l_max: s_l_max * (1.0 + 1e-9),
            hue: target.hue(),
            hue_slack: turn.to_degrees() + 1e-6,
        }
    }

    /// How much of the chroma and hue terms the rotation term can leave, between the colour and
    /// `probe`.
    fn rotation_keeps(&self, probe: &Probe) -> f64 {
        if self.chroma < HUE_CHROMA_MIN || probe.chroma < HUE_CHROMA_MIN {
            return ROTATION_KEEPS;
        }
        let (sum, difference) = (self.hue + probe.hue, (self.hue - probe.hue).abs());
        // Each h' within hue_slack of its h_ab: the mean within hue_slack of the h_ab mean.
        let near_blue = |mean: f64| (mean - 275.0).abs() < FAR_FROM_BLUE + self.hue_slack;
        let either_side = 2.0 * self.hue_slack;
        let plain = difference <= 180.0 + either_side && near_blue(sum / 2.0);
        let turned = difference > 180.0 - either_side && near_blue(f64::midpoint(sum, 360.0));
        if plain || turned { ROTATION_KEEPS } else { FAR_ROTATION_KEEPS }
    }

    /// Whether the distance to any thread `lightness` (|ΔL*|) or more away is above `cut`, with
    /// lightness divided by `k_l`.
    fn lightness_beyond(&self, lightness: f64, k_l: f64, cut: f64) -> bool {
        lightness / (k_l * self.s_l_max) * ROUNDING_MARGIN - ABSOLUTE_MARGIN > cut
    }

    /// Whether the distance to `probe`, `lightness` (|ΔL*|) away, with lightness divided by `k_l`,
    /// is above `cut`.
    fn beyond(&self, probe: &Probe, lightness: f64, k_l: f64, cut: f64) -> bool {
        if cut < 0.0 {
            return true;
        }
        let s_c = 1.0 + self.s_c_scale * (self.chroma + probe.chroma);
        let (da, db) = (probe.lab.a - self.target.a, probe.lab.b - self.target.b);
        let light = lightness / (k_l * self.s_l_max);
        // bound² = light² + keeps·(Δa² + Δb²)/S_C², compared without dividing.
        let bound_squared_times_s_c_squared =
            light * light * s_c * s_c + self.rotation_keeps(probe) * (da * da + db * db);
        let limit = (cut + ABSOLUTE_MARGIN) / ROUNDING_MARGIN;
        bound_squared_times_s_c_squared > limit * limit * s_c * s_c
    }
}

/// One match held while searching: (thread, distance, rank), the rank being the distance plus
/// the handicap of the near-neutral rule.
type Held = (ThreadIndex, f64, f64);

/// Whether a thread of rank `rank` comes before `held`: by rank, ties by index (chart order).
fn before(rank: f64, index: ThreadIndex, held: &Held) -> bool {
    match rank.partial_cmp(&held.2) {
        Some(std::cmp::Ordering::Less) => true,
        Some(std::cmp::Ordering::Equal) => index < held.0,
        _ => false,
    }
}

impl Catalogue {
    /// The `k` threads of `line` to offer first for `source`: exactly what
    /// [`rank`](super::rank) gives for the line's allowed threads in chart order (see the module's
    /// documentation).
    pub(crate) fn rank_line(
        &self,
        source: (Lab, Neutrality),
        line: LineIndex,
        allowed: Allowed<'_>,
        k: usize,
    ) -> Vec<(ThreadIndex, f64)> {
        if k == 0 {
            return Vec::new();
        }
        let (target, from) = source;
        let probes = self.by_lightness(line);

        // Pass 1: the k nearest by ΔE76 (squared), nearest first.
        let mut seeds: Vec<(f64, ThreadIndex)> = Vec::with_capacity(k + 1);
        for (probe, lightness) in Outwards::new(probes, target.l) {
            if seeds.len() == k && lightness * lightness > seeds[k - 1].0 {
                break;
            }
            if !allowed.allows(probe.index) {
                continue;
            }
            let (da, db) = (probe.lab.a - target.a, probe.lab.b - target.b);
            let squared = lightness * lightness + da * da + db * db;
            if seeds.len() < k || squared < seeds[k - 1].0 {
                let at = seeds.partition_point(|(held, _)| *held <= squared);
                seeds.insert(at, (squared, probe.index));
                seeds.truncate(k);
            }
        }

        let mut best: Vec<Held> = Vec::with_capacity(k + 1);
        let consider = |best: &mut Vec<Held>, index: ThreadIndex, distance: f64, rank: f64| {
            if best.len() < k || before(rank, index, &best[k - 1]) {
                let at = best.partition_point(|held| before(held.2, held.0, &(index, distance, rank)));
                best.insert(at, (index, distance, rank));
                best.truncate(k);
            }
        };
        // The thread's kind under the near-neutral rule, and its handicap.
        let assess = |lab: Lab, index: ThreadIndex| -> (Neutrality, f64) {
            let kind = if from == Neutrality::Chromatic {
                Neutrality::Chromatic
            } else {
                Neutrality::of(lab, self.thread(index).name)
            };
            (kind, MUCH_FURTHER * f64::from(from.handicap(kind)))
        };
        for &(_, index) in &seeds {
            let lab = self.thread(index).lab;
            let (kind, handicap) = assess(lab, index);
            let distance = match_distance(source, (lab, kind));
            consider(&mut best, index, distance, distance + handicap);
        }

        // Pass 2: every other thread that might still come before the k-th held.
        let kindest_k_l = if from == Neutrality::Chromatic { 1.0 } else { 2.0 };
        let bounds = Bounds::new(target, probes);
        for (probe, lightness) in Outwards::new(probes, target.l) {
            let cut = if best.len() == k { best[k - 1].2 } else { f64::INFINITY };
            // Every thread from here on is at least this far, in the kindest case (lightness
            // counting half, no handicap).
            if bounds.lightness_beyond(lightness, kindest_k_l, cut) {
                break;
            }
            if !allowed.allows(probe.index) || bounds.beyond(probe, lightness, kindest_k_l, cut) {
                continue;
            }
            let (kind, handicap) = assess(probe.lab, probe.index);
            // Lightness counts in full unless both colours are near-neutral.
            let full_lightness = from == Neutrality::Chromatic || kind == Neutrality::Chromatic;
            let k_l = if full_lightness { 1.0 } else { 2.0 };
            let lightness_differs = full_lightness != (from == Neutrality::Chromatic);
            if (lightness_differs || handicap > 0.0) && bounds.beyond(probe, lightness, k_l, cut - handicap) {
                continue;
            }
            if seeds.iter().any(|&(_, seed)| seed == probe.index) {
                continue;
            }
            let distance = match_distance(source, (probe.lab, kind));
            consider(&mut best, probe.index, distance, distance + handicap);
        }
        best.into_iter().map(|(index, distance, _)| (index, distance)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::{delta_e_2000, delta_e_2000_textile};
    use crate::convert::tests::numbers;

    fn probe(lab: Lab) -> Probe {
        Probe::new(lab, ThreadIndex::default())
    }

    /// The bounds never exceed CIEDE2000 (nor its textile form, with `k_L` = 2): on random pairs,
    /// pairs a little apart, pairs a hair apart, pairs of opposite hues (where CIEDE2000 jumps),
    /// pairs differing in lightness alone, and identical pairs.
    #[test]
    fn the_bounds_never_exceed_ciede2000() {
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        let mut next_blue = numbers(0x2545_F491_4F6C_DD1D);
        let mut lab = || Lab { l: 100.0 * next(), a: 256.0 * next() - 128.0, b: 256.0 * next() - 128.0 };
        let mut pairs: Vec<(Lab, Lab)> = Vec::new();
        for _ in 0..20_000 {
            let (x, d) = (lab(), lab());
            pairs.push((x, d));
            pairs.push((
                x,
                Lab {
                    l: (x.l + (d.l - 50.0) / 20.0).clamp(0.0, 100.0),
                    a: x.a + d.a / 50.0,
                    b: x.b + d.b / 50.0,
                },
            ));
            pairs.push((x, Lab { l: x.l + d.l * 1e-10, a: x.a + d.a * 1e-12, b: x.b - d.b * 1e-12 }));
            let scale = d.l / 50.0;
            pairs.push((x, Lab { l: d.l, a: -x.a * scale, b: -x.b * scale }));
            pairs.push((x, Lab { l: d.l, ..x }));
            pairs.push((x, x));
            // Hues turned by about 180°, a little either way (where h̄' jumps by 180°), and
            // colours of every chroma around the blues, where the rotation term acts.
            let turn = std::f64::consts::PI + (d.a / 128.0).powi(3) * 0.2;
            let (sin, cos) = turn.sin_cos();
            pairs.push((
                x,
                Lab { l: d.l, a: (x.a * cos - x.b * sin) * scale, b: (x.a * sin + x.b * cos) * scale },
            ));
            let mut blue = |chroma: f64, degrees: f64| {
                let (sin, cos) = degrees.to_radians().sin_cos();
                Lab { l: 100.0 * next_blue(), a: chroma * cos, b: chroma * sin }
            };
            pairs.push((blue(x.l, 180.0 + d.l * 1.9), blue(d.l * 1.2, 180.0 + x.l * 1.9)));
        }
        for (x, y) in pairs {
            // The line's range: y alone, or y with the ends of the lightness scale.
            let ends = [probe(Lab { l: 0.0, ..y }), probe(y), probe(Lab { l: 100.0, ..y })];
            for range in [&ends[1..2], &ends[..]] {
                let bounds = Bounds::new(x, range);
                let lightness = (y.l - x.l).abs();
                for (k_l, distance) in [(1.0, delta_e_2000(x, y)), (2.0, delta_e_2000_textile(x, y))] {
                    assert!(!bounds.lightness_beyond(lightness, k_l, distance), "{x:?} {y:?} k_L {k_l}");
                    assert!(
                        !bounds.beyond(&probe(y), lightness, k_l, distance),
                        "{x:?} {y:?} k_L {k_l}: ΔE {distance}"
                    );
                }
            }
        }
    }

    /// The bounds do their work: a thread far in hue but near in lightness is beyond a small cut.
    #[test]
    fn the_bounds_rule_out_distant_colours() {
        let red = Lab { l: 42.0, a: 68.0, b: 40.0 };
        let blue = Lab { l: 43.0, a: 10.0, b: -50.0 };
        let bounds = Bounds::new(red, &[probe(blue)]);
        assert!(delta_e_2000(red, blue) > 10.0);
        assert!(bounds.beyond(&probe(blue), 1.0, 1.0, 3.0));
        assert!(!bounds.beyond(&probe(blue), 1.0, 1.0, 30.0 * delta_e_2000(red, blue)));
        assert!(bounds.lightness_beyond(20.0, 1.0, 3.0));
        assert!(!bounds.lightness_beyond(2.0, 1.0, 3.0));
    }
}
