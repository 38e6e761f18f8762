//! The thread converter: from a thread, a hex colour or a Lab value to the nearest threads of
//! other lines by CIEDE2000, each labelled honestly, one at a time or for a pasted list.
//!
//! Most cross-brand matches are *similar*, not *the same*: the charts were sampled from PDFs and
//! photos, and makers dye to their own shade cards. The labels say so (see [`MatchLabel`]).

use serde::{Deserialize, Serialize};

use crate::catalogue::{Catalogue, CatalogueError, LineIndex, LineKind, ThreadIndex, ThreadView};
use crate::colour::{ColourError, Lab, Rgb8, ciede2000_s_l, delta_e_2000, delta_e_2000_textile};

/// At most this many matches per line.
pub const MAX_MATCHES: usize = 20;
/// At most this many candidate threads (a large shop's whole stock).
pub const MAX_CANDIDATES: usize = 20_000;

/// Why a conversion could not be done. `code()` is the stable identifier the API sends.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    #[error(transparent)]
    Colour(#[from] ColourError),
    #[error("ask for 1 to {MAX_MATCHES} matches per line")]
    MatchCountOutOfRange,
    #[error("at most {MAX_CANDIDATES} candidate threads can be given")]
    TooManyCandidates,
    #[error("the list has more than {MAX_BULK_ROWS} rows; convert it in parts")]
    TooManyRows,
    #[error("the list is larger than {} KB; convert it in parts", MAX_BULK_BYTES / 1024)]
    InputTooLarge,
}

impl ConvertError {
    pub fn code(&self) -> &'static str {
        match self {
            ConvertError::Catalogue(CatalogueError::UnknownLine(_)) => "unknown_line",
            ConvertError::Catalogue(CatalogueError::UnknownCode { .. }) => "unknown_thread",
            ConvertError::Catalogue(CatalogueError::InvalidCode) => "invalid_code",
            ConvertError::Colour(_) => "invalid_colour",
            ConvertError::MatchCountOutOfRange => "invalid_match_count",
            ConvertError::TooManyCandidates => "too_many_candidates",
            ConvertError::TooManyRows => "too_many_rows",
            ConvertError::InputTooLarge => "input_too_large",
        }
    }
}

/// How close a match looks, from its CIEDE2000 distance. The thresholds follow the usual reading
/// of ΔE00: below 1 most people cannot see a difference side by side; below 2 only on close
/// inspection; below 5 the colours are clearly related but visibly different; above that the match
/// is a poor substitute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum MatchLabel {
    Indistinguishable,
    Close,
    Similar,
    Poor,
}

impl MatchLabel {
    pub const INDISTINGUISHABLE_BELOW: f64 = 1.0;
    pub const CLOSE_BELOW: f64 = 2.0;
    pub const SIMILAR_BELOW: f64 = 5.0;

    /// The label's name in the API and in CSV files.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchLabel::Indistinguishable => "indistinguishable",
            MatchLabel::Close => "close",
            MatchLabel::Similar => "similar",
            MatchLabel::Poor => "poor",
        }
    }

    /// The label of a match `delta_e` away, never better than `similar` when either colour's
    /// chart is in doubt (`doubtful`: [`crate::catalogue::Doubt`]).
    pub fn of_match(delta_e: f64, doubtful: bool) -> Self {
        let label = Self::of(delta_e);
        if doubtful && label < MatchLabel::Similar { MatchLabel::Similar } else { label }
    }

    pub fn of(delta_e: f64) -> Self {
        if delta_e < Self::INDISTINGUISHABLE_BELOW {
            MatchLabel::Indistinguishable
        } else if delta_e < Self::CLOSE_BELOW {
            MatchLabel::Close
        } else if delta_e < Self::SIMILAR_BELOW {
            MatchLabel::Similar
        } else {
            MatchLabel::Poor
        }
    }
}

/// A thread named by its line and code, as people and other tables refer to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ThreadRef {
    pub line: String,
    pub code: String,
}

/// What to convert from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Source {
    /// A catalogue thread: `{"thread": {"line": "isacord-polyester", "code": "0015"}}`.
    Thread(ThreadRef),
    /// `{"hex": "#1A2B3C"}`.
    Hex(String),
    /// `{"rgb": [26, 43, 60]}`.
    Rgb([u8; 3]),
    /// `{"lab": {"l": 50, "a": 10, "b": -20}}`.
    Lab(Lab),
}

/// A request for the nearest threads to one colour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ConvertRequest {
    pub from: Source,
    /// Line ids to search; empty means every thread line (colour standards are left out).
    #[serde(default)]
    pub to: Vec<String>,
    /// Matches per line, 1 to [`MAX_MATCHES`].
    #[serde(default = "default_matches")]
    pub matches: usize,
    /// When given, only these threads are considered: "closest among the threads we own".
    #[serde(default)]
    pub candidates: Option<Vec<ThreadRef>>,
}

fn default_matches() -> usize {
    5
}

/// The colour converted from, as resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResolvedSource {
    pub hex: Rgb8,
    pub lab: Lab,
    /// Present when converting from a catalogue thread.
    pub thread: Option<ThreadView>,
    /// A Lab value outside what a screen shows: `hex` is the nearest displayable colour.
    pub out_of_gamut: bool,
}

impl ResolvedSource {
    /// The colour and its kind, for [`rank`].
    pub fn neutrality(&self) -> (Lab, Neutrality) {
        (self.lab, Neutrality::of(self.lab, self.thread.as_ref().map_or("", |thread| thread.name)))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Match {
    pub thread: ThreadView,
    /// CIEDE2000 distance to the source; between two near-neutral colours, with a lightness
    /// difference counting half (kL = 2).
    pub delta_e: f64,
    pub label: MatchLabel,
    /// Why this match stands above one with a better label, when it does: from a black, white or
    /// grey, the line's neutrals come first.
    pub note: Option<&'static str>,
}

/// What a match listed above a closer one says (see [`Match::note`]).
pub const NEUTRAL_FIRST: &str = "Listed before closer colours: from a black, white or grey, a neutral thread comes first, as a colour would tint it.";

/// The best matches within one line, best first: by distance, but from a black, white or grey the
/// line's blacks, whites and greys come first unless a colour is much closer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineMatches {
    pub line: &'static str,
    pub line_name: String,
    pub matches: Vec<Match>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Conversion {
    pub source: ResolvedSource,
    pub lines: Vec<LineMatches>,
}

/// Colours under this CIELAB chroma (C*ab, the distance from the grey axis) are *near-neutral*:
/// blacks, whites and greys as the charts give them (docs/behaviour.md, "Blacks, whites and greys").
/// Twelve keeps the bluish whites of optical brighteners (Madeira Rayon 1001 Bright White, C*ab 11.4)
/// and the blue-blacks (Sulky 1182 Blue Black, 8.9) near-neutral, and a dark teal (Sulky 1162
/// Deep Teal, 16.4) chromatic.
pub const NEAR_NEUTRAL_CHROMA: f64 = 12.0;

/// What "much further" means in the near-neutral rule: more than this many ΔE00 further, the width
/// of the *similar* band.
pub const MUCH_FURTHER: f64 = 5.0;

/// How the near-neutral rule sees a colour or a thread (docs/behaviour.md, "Blacks, whites and
/// greys").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neutrality {
    Chromatic,
    /// A grey, or a black or white not named so.
    NearNeutral,
    /// A near-neutral thread whose name ends in "Black" (or "Noir"): "Jet Black", "Blue Black".
    Black,
    /// A near-neutral thread whose name ends in "White" (or "Blanc"): "Snow White", "Blanc de Blanc".
    White,
}

impl Neutrality {
    /// From a colour and the thread's name ("" for a colour without one). The name's last word
    /// decides, so "Blackberry", "Black Cherry" and "White Sand" are not blacks or whites.
    pub fn of(lab: Lab, name: &str) -> Self {
        if lab.chroma() >= NEAR_NEUTRAL_CHROMA {
            return Neutrality::Chromatic;
        }
        let last = name.rsplit(|c: char| !c.is_alphanumeric()).find(|word| !word.is_empty()).unwrap_or("");
        if ["black", "noir"].iter().any(|word| last.eq_ignore_ascii_case(word)) {
            Neutrality::Black
        } else if ["white", "blanc"].iter().any(|word| last.eq_ignore_ascii_case(word)) {
            Neutrality::White
        } else {
            Neutrality::NearNeutral
        }
    }

    /// How many times [`MUCH_FURTHER`] a candidate of kind `candidate` ranks behind its distance
    /// when converting from `self`: nothing from a chromatic colour; from a near-neutral one, a
    /// chromatic thread once; from a black (white), another near-neutral once and a chromatic thread
    /// twice, so the target line's blacks (whites) come first.
    fn handicap(self, candidate: Neutrality) -> u8 {
        let chromatic = candidate == Neutrality::Chromatic;
        match self {
            Neutrality::Chromatic => 0,
            Neutrality::NearNeutral => u8::from(chromatic),
            Neutrality::Black | Neutrality::White if chromatic => 2,
            Neutrality::Black | Neutrality::White => u8::from(candidate != self),
        }
    }
}

/// The distance the converter reports between two colours of the given kinds: CIEDE2000, with a
/// lightness difference counting half (kL = 2, [`delta_e_2000_textile`]) when both are near-neutral,
/// because the charts get the lightness of blacks, whites and greys least right (a black sampled
/// from a photograph is charted anywhere from #000000 to #3D3A38).
pub fn match_distance(x: (Lab, Neutrality), y: (Lab, Neutrality)) -> f64 {
    if x.1 == Neutrality::Chromatic || y.1 == Neutrality::Chromatic {
        delta_e_2000(x.0, y.0)
    } else {
        delta_e_2000_textile(x.0, y.0)
    }
}

/// The `k` items of `pool` nearest to `target` by CIEDE2000, nearest first; ties keep pool order.
/// Generic so that colours outside the catalogue (a team's custom threads) can be ranked the same
/// way. This is [`rank`] for a chromatic colour: distance alone.
pub fn nearest<T>(target: Lab, pool: impl IntoIterator<Item = (T, Lab)>, k: usize) -> Vec<(T, f64)> {
    rank((target, Neutrality::Chromatic), pool.into_iter().map(|(item, lab)| (item, lab, "")), k)
}

/// The `k` threads of `pool` (item, colour, name) to offer first for the colour `source`, each with
/// its [`match_distance`], by the near-neutral rule (docs/behaviour.md, "Blacks, whites and
/// greys"): each candidate ranks as if it were [`MUCH_FURTHER`] times its
/// [`handicap`](Neutrality::handicap) further than it is. So, converting from a near-neutral colour,
/// a chromatic thread comes before the target line's nearest near-neutral only when that one is
/// more than [`MUCH_FURTHER`] further; from a chromatic colour the order is by distance alone.
/// Ties keep pool order.
///
/// Once `k` items are held, a candidate whose [`delta_e_2000_lower_bound`] (halved where the
/// distance halves lightness) plus its handicap already reaches the k-th best rank is skipped
/// without computing CIEDE2000: its rank would reach it too, and such a candidate is skipped below
/// anyway (a tie does not displace an earlier item). The result is the same as computing every
/// distance, item for item and bit for bit; it is just faster (most of the catalogue differs from a
/// colour in lightness alone by more than the best match does).
pub fn rank<'a, T>(
    source: (Lab, Neutrality),
    pool: impl IntoIterator<Item = (T, Lab, &'a str)>,
    k: usize,
) -> Vec<(T, f64)> {
    // (item, distance, rank): the rank is the distance plus the handicap.
    let mut best: Vec<(T, f64, f64)> = Vec::with_capacity(k + 1);
    if k == 0 {
        return Vec::new();
    }
    let (target, from) = source;
    for (item, lab, name) in pool {
        let cut = if best.len() == k { best[k - 1].2 } else { f64::INFINITY };
        let bound = delta_e_2000_lower_bound(target, lab);
        // Too far even in the kindest case (lightness counting half, no handicap): skipped before
        // looking at the candidate's chroma and name.
        let kindest = if from == Neutrality::Chromatic { bound } else { bound / 2.0 };
        if kindest >= cut {
            continue;
        }
        let kind =
            if from == Neutrality::Chromatic { Neutrality::Chromatic } else { Neutrality::of(lab, name) };
        let handicap = MUCH_FURTHER * f64::from(from.handicap(kind));
        let lightness_weight =
            if from == Neutrality::Chromatic || kind == Neutrality::Chromatic { 1.0 } else { 2.0 };
        if bound / lightness_weight + handicap >= cut {
            continue;
        }
        let distance = match_distance(source, (lab, kind));
        let ranked = distance + handicap;
        if ranked >= cut {
            continue;
        }
        let at = best.partition_point(|(_, _, r)| *r <= ranked);
        best.insert(at, (item, distance, ranked));
        best.truncate(k);
    }
    best.into_iter().map(|(item, distance, _)| (item, distance)).collect()
}

/// A cheap lower bound of [`delta_e_2000`]: the lightness term alone, `|ΔL*| / S_L`. Half of it
/// bounds [`delta_e_2000_textile`], whose lightness term is `|ΔL*| / (2·S_L)` and whose `Q` is the same.
///
/// CIEDE2000 (kL = kC = kH = 1) is `√((ΔL'/S_L)² + Q)` with `Q = x² + y² + R_T·x·y`, where
/// `x = ΔC'/S_C` and `y = ΔH'/S_H`, and `ΔL' = ΔL*` (only a* is rescaled). The rotation term is
/// `R_T = −R_C·sin(2Δθ)` with `R_C = 2·√(C̄'⁷/(C̄'⁷ + 25⁷)) < 2` and `Δθ = 30°·exp(−(…)²)` in
/// (0°, 30°], so `|R_T| < 2·sin 60° = √3`. As `2|x·y| ≤ x² + y²`,
/// `Q ≥ x² + y² − √3·|x·y| ≥ (1 − √3/2)·(x² + y²) ≥ 0`, hence `ΔE00 ≥ |ΔL*| / S_L`.
///
/// `S_L = 1 + 0.015·(L̄ − 50)² / √(20 + (L̄ − 50)²)` is computed (`ciede2000_s_l`) exactly as `palette` computes
/// it (at most 1 + 0.015·2500/√2520 ≈ 1.7471 for L* in 0..=100, so the bound is never weaker than
/// `|ΔL*| / 1.7472`). Rounding cannot break the bound: `Q` keeps a margin of 13% of `x² + y²` above
/// zero, so its computed value is never negative, and the bound is shrunk by one part in 10⁹, far
/// more than the few ulps by which the two computations of `|ΔL*| / S_L` could differ.
///
/// For colours with a NaN component the bound says nothing; catalogue and parsed colours are finite.
fn delta_e_2000_lower_bound(x: Lab, y: Lab) -> f64 {
    const ROUNDING_MARGIN: f64 = 1.0 - 1e-9;
    (y.l - x.l).abs() / ciede2000_s_l(x.l, y.l) * ROUNDING_MARGIN
}

impl Catalogue {
    /// Resolves what to convert from; for a thread with conflicting colours, the chart's first.
    pub fn resolve(&self, source: &Source) -> Result<(ResolvedSource, Option<ThreadIndex>), ConvertError> {
        let from_rgb =
            |rgb: Rgb8| ResolvedSource { hex: rgb, lab: rgb.to_lab(), thread: None, out_of_gamut: false };
        Ok(match source {
            Source::Thread(reference) => {
                let index = self.find_ref(reference)?[0];
                let thread = self.thread(index);
                let resolved = ResolvedSource { thread: Some(self.view(index)), ..from_rgb(thread.rgb) };
                (resolved, Some(index))
            }
            Source::Hex(text) => (from_rgb(Rgb8::parse_hex(text)?), None),
            Source::Rgb([r, g, b]) => (from_rgb(Rgb8::new(*r, *g, *b)), None),
            Source::Lab(lab) => {
                let lab = Lab::parse(lab.l, lab.a, lab.b)?;
                let resolved = ResolvedSource {
                    hex: lab.to_rgb8(),
                    lab,
                    thread: None,
                    out_of_gamut: !lab.in_srgb_gamut(),
                };
                (resolved, None)
            }
        })
    }

    /// Every variant of a referenced thread.
    pub fn find_ref(&self, reference: &ThreadRef) -> Result<Vec<ThreadIndex>, CatalogueError> {
        self.find(self.line_by_id(&reference.line)?, &reference.code)
    }

    /// The lines a request searches: the ones named, or every thread line.
    pub fn target_lines(&self, ids: &[String]) -> Result<Vec<LineIndex>, CatalogueError> {
        if ids.is_empty() {
            return Ok(self
                .line_indices()
                .filter(|&line| self.line(line).kind == LineKind::Thread)
                .collect());
        }
        let mut lines = Vec::with_capacity(ids.len());
        for id in ids {
            let line = self.line_by_id(id)?;
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
        Ok(lines)
    }

    /// The nearest threads to a colour in each target line.
    pub fn convert(&self, request: &ConvertRequest) -> Result<Conversion, ConvertError> {
        if !(1..=MAX_MATCHES).contains(&request.matches) {
            return Err(ConvertError::MatchCountOutOfRange);
        }
        let (source, source_thread) = self.resolve(&request.from)?;
        let targets = self.target_lines(&request.to)?;
        let candidates = match &request.candidates {
            Some(refs) if refs.len() > MAX_CANDIDATES => return Err(ConvertError::TooManyCandidates),
            Some(refs) => {
                let mut set = Vec::new();
                for reference in refs {
                    set.extend(self.find_ref(reference)?);
                }
                set.sort_unstable();
                set.dedup();
                Some(set)
            }
            None => None,
        };
        // The source thread is not a match for itself.
        let allowed = Allowed { skip: source_thread, only: candidates.as_deref() };
        let lines = targets
            .into_iter()
            .map(|line| {
                self.line_matches(
                    &source,
                    line,
                    self.rank_line(source.neutrality(), line, allowed, request.matches),
                )
            })
            .collect();
        Ok(Conversion { source, lines })
    }

    /// A line's ranked matches from `source`, labelled: never better than `similar` when either
    /// chart is in doubt, and each one ranked above a better-labelled one saying why.
    fn line_matches(
        &self,
        source: &ResolvedSource,
        line: LineIndex,
        ranked: Vec<(ThreadIndex, f64)>,
    ) -> LineMatches {
        let source_doubtful = source.thread.as_ref().is_some_and(|thread| thread.doubt.is_some());
        let mut matches: Vec<Match> = ranked
            .into_iter()
            .map(|(index, delta_e)| {
                let thread = self.view(index);
                let label = MatchLabel::of_match(delta_e, source_doubtful || thread.doubt.is_some());
                Match { thread, delta_e, label, note: None }
            })
            .collect();
        // Only the neutral rule ranks a match above a nearer one of a better label.
        for at in 0..matches.len() {
            let label = MatchLabel::of(matches[at].delta_e);
            if matches[at + 1..].iter().any(|later| MatchLabel::of(later.delta_e) < label) {
                matches[at].note = Some(NEUTRAL_FIRST);
            }
        }
        LineMatches { line: self.line(line).id, line_name: self.line(line).display_name(), matches }
    }
}

/// At most this many rows in one bulk conversion.
pub const MAX_BULK_ROWS: usize = 2_000;
/// At most this much pasted text, in bytes.
pub const MAX_BULK_BYTES: usize = 256 * 1024;

mod bulk;
mod search;
pub use bulk::{BulkConversion, BulkRequest, BulkRow};
use search::Allowed;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_documented_thresholds() {
        assert_eq!(MatchLabel::of(0.0), MatchLabel::Indistinguishable);
        assert_eq!(MatchLabel::of(0.999), MatchLabel::Indistinguishable);
        assert_eq!(MatchLabel::of(1.0), MatchLabel::Close);
        assert_eq!(MatchLabel::of(1.999), MatchLabel::Close);
        assert_eq!(MatchLabel::of(2.0), MatchLabel::Similar);
        assert_eq!(MatchLabel::of(4.999), MatchLabel::Similar);
        assert_eq!(MatchLabel::of(5.0), MatchLabel::Poor);
        assert_eq!(MatchLabel::of(40.0), MatchLabel::Poor);
    }

    #[test]
    fn nearest_keeps_the_k_closest_in_order_and_ties_in_pool_order() {
        let target = Lab { l: 50.0, a: 0.0, b: 0.0 };
        let pool = [("far", 90.0), ("near", 51.0), ("tie-a", 55.0), ("mid", 53.0), ("tie-b", 55.0)]
            .map(|(name, l)| (name, Lab { l, a: 0.0, b: 0.0 }));
        let names = |k| nearest(target, pool, k).into_iter().map(|(name, _)| name).collect::<Vec<_>>();
        assert_eq!(names(3), ["near", "mid", "tie-a"]);
        assert_eq!(names(4), ["near", "mid", "tie-a", "tie-b"]);
        assert_eq!(names(10).len(), 5);
        assert!(names(0).is_empty());
        let distances: Vec<f64> = nearest(target, pool, 5).into_iter().map(|(_, d)| d).collect();
        assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
    }

    /// A small deterministic generator (xorshift), so the tests need no random-number crate
    /// (the search's tests use it too).
    pub(super) fn numbers(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            #[expect(clippy::cast_precision_loss, reason = "53 random bits are plenty")]
            let unit = (state >> 11) as f64 / (1_u64 << 53) as f64;
            unit
        }
    }

    #[test]
    fn the_lightness_bound_never_exceeds_ciede2000() {
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        let mut lab = || Lab { l: 100.0 * next(), a: 256.0 * next() - 128.0, b: 256.0 * next() - 128.0 };
        // Random pairs, then pairs that differ a little, then pairs that differ in lightness only or
        // sit at the ends of the lightness scale, where S_L is largest.
        let mut pairs: Vec<(Lab, Lab)> = (0..20_000).map(|_| (lab(), lab())).collect();
        for _ in 0..20_000 {
            let (x, d) = (lab(), lab());
            pairs.push((
                x,
                Lab {
                    l: (x.l + (d.l - 50.0) / 20.0).clamp(0.0, 100.0),
                    a: x.a + d.a / 50.0,
                    b: x.b + d.b / 50.0,
                },
            ));
            pairs.push((x, Lab { l: d.l, ..x }));
            pairs.push((Lab { l: 0.0, ..x }, Lab { l: 100.0, ..d }));
        }
        for (x, y) in pairs {
            let (bound, distance) = (delta_e_2000_lower_bound(x, y), delta_e_2000(x, y));
            assert!(bound <= distance, "{x:?} {y:?}: bound {bound} > ΔE00 {distance}");
            assert!(bound >= (x.l - y.l).abs() / 1.7472, "{x:?} {y:?}: S_L above its maximum");
        }
    }

    /// `rank` without the lower bound: every distance computed, then a stable sort by rank (which
    /// keeps ties in pool order).
    fn rank_by_brute_force<T>(
        source: (Lab, Neutrality),
        pool: impl IntoIterator<Item = (T, Lab, &'static str)>,
        k: usize,
    ) -> Vec<(T, f64)> {
        let mut all: Vec<(T, f64, f64)> = pool
            .into_iter()
            .map(|(item, lab, name)| {
                let kind = if source.1 == Neutrality::Chromatic {
                    Neutrality::Chromatic
                } else {
                    Neutrality::of(lab, name)
                };
                let distance = match_distance(source, (lab, kind));
                (item, distance, distance + MUCH_FURTHER * f64::from(source.1.handicap(kind)))
            })
            .collect();
        all.sort_by(|a, b| a.2.total_cmp(&b.2));
        all.into_iter().take(k).map(|(item, distance, _)| (item, distance)).collect()
    }

    #[test]
    #[cfg(feature = "embedded-catalogue")]
    fn rank_gives_exactly_what_computing_every_distance_gives() {
        let c = Catalogue::builtin();
        let mut next = numbers(0x2545_F491_4F6C_DD1D);
        let threads: Vec<_> = c.threads().collect();
        // Catalogue colours (exact ties with other threads), random colours, the extremes and
        // near-neutral ones.
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let mut targets: Vec<Lab> =
            (0..8).map(|_| threads[(next() * threads.len() as f64) as usize].1.lab).collect();
        targets.extend((0..8).map(|_| Lab {
            l: 100.0 * next(),
            a: 160.0 * next() - 80.0,
            b: 160.0 * next() - 80.0,
        }));
        targets.extend((0..4).map(|_| Lab {
            l: 100.0 * next(),
            a: 16.0 * next() - 8.0,
            b: 16.0 * next() - 8.0,
        }));
        targets.extend([Lab { l: 0.0, a: 0.0, b: 0.0 }, Lab { l: 100.0, a: 0.0, b: 0.0 }]);
        let kinds = [Neutrality::Chromatic, Neutrality::NearNeutral, Neutrality::Black, Neutrality::White];
        for target in targets {
            for (k, kind) in [1, 2, 5, MAX_MATCHES].into_iter().flat_map(|k| kinds.map(|kind| (k, kind))) {
                // Per line, as the converter searches, and over the whole catalogue at once.
                let pools = c
                    .line_indices()
                    .map(|line| c.threads_of(line).map(|(i, t)| (i, t.lab, t.name)).collect::<Vec<_>>())
                    .chain([threads.iter().map(|(i, t)| (*i, t.lab, t.name)).collect()]);
                for pool in pools {
                    let fast = if kind == Neutrality::Chromatic {
                        nearest(target, pool.iter().map(|&(i, lab, _)| (i, lab)), k)
                    } else {
                        rank((target, kind), pool.iter().copied(), k)
                    };
                    let slow = rank_by_brute_force((target, kind), pool.iter().copied(), k);
                    let bits = |ranked: &[(ThreadIndex, f64)]| -> Vec<(ThreadIndex, u64)> {
                        ranked.iter().map(|(i, d)| (*i, d.to_bits())).collect()
                    };
                    assert_eq!(bits(&fast), bits(&slow), "target {target:?} as {kind:?}, k = {k}");
                }
            }
        }
    }

    /// The converter's search of a line (`search.rs`) against every distance computed, on random
    /// colours of the whole Lab range, catalogue colours (exact ties) and colours a hair away from
    /// them, near-neutral ones and the extremes, as each kind of source, for 1, 2, 5 and 20 matches,
    /// with and without the thread converted from and a set of candidates: any thread the search
    /// wrongly skipped would change a result here.
    #[test]
    #[cfg(feature = "embedded-catalogue")]
    fn the_line_search_gives_exactly_what_computing_every_distance_gives() {
        let c = Catalogue::builtin();
        let mut next = numbers(0x5DEE_CE66_D1CE_4E5B);
        let threads: Vec<_> = c.threads().collect();
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let pick = |next: &mut dyn FnMut() -> f64| threads[(next() * threads.len() as f64) as usize];
        let mut targets: Vec<Lab> = (0..6).map(|_| pick(&mut next).1.lab).collect();
        targets.extend((0..4).map(|_| {
            let lab = pick(&mut next).1.lab;
            Lab { l: lab.l + 1e-7, a: lab.a - 1e-7, b: lab.b }
        }));
        targets.extend((0..12).map(|_| Lab {
            l: 100.0 * next(),
            a: 256.0 * next() - 128.0,
            b: 256.0 * next() - 128.0,
        }));
        targets.extend((0..6).map(|_| Lab {
            l: 100.0 * next(),
            a: 24.0 * next() - 12.0,
            b: 24.0 * next() - 12.0,
        }));
        targets.extend([
            Lab { l: 0.0, a: 0.0, b: 0.0 },
            Lab { l: 100.0, a: 0.0, b: 0.0 },
            Rgb8::parse_hex("#C8102E").unwrap().to_lab(),
            Rgb8::parse_hex("#808080").unwrap().to_lab(),
        ]);
        let kinds = [Neutrality::Chromatic, Neutrality::NearNeutral, Neutrality::Black, Neutrality::White];
        let bits = |ranked: &[(ThreadIndex, f64)]| -> Vec<(ThreadIndex, u64)> {
            ranked.iter().map(|(i, d)| (*i, d.to_bits())).collect()
        };
        let mut searched = 0;
        for target in targets {
            for kind in kinds {
                for line in c.line_indices() {
                    let pool: Vec<_> = c.threads_of(line).map(|(i, t)| (i, t.lab, t.name)).collect();
                    // Every thread of the line in order; each case below is a prefix of a part of it.
                    let all = rank_by_brute_force((target, kind), pool.iter().copied(), usize::MAX);
                    let (first, last) = (pool[0].0, pool[pool.len() - 1].0);
                    let some: Vec<ThreadIndex> =
                        pool.iter().map(|t| t.0).filter(|_| next() < 0.3).chain([last]).collect();
                    let cases = [
                        Allowed { skip: None, only: None },
                        Allowed { skip: Some(first), only: None },
                        Allowed { skip: Some(last), only: Some(&some) },
                    ];
                    for (allowed, k) in cases.into_iter().flat_map(|a| [1, 2, 5, MAX_MATCHES].map(|k| (a, k)))
                    {
                        let expected: Vec<_> =
                            all.iter().copied().filter(|&(i, _)| allowed.allows(i)).take(k).collect();
                        let found = c.rank_line((target, kind), line, allowed, k);
                        assert_eq!(
                            bits(&found),
                            bits(&expected),
                            "target {target:?} as {kind:?}, line {}, k = {k}, {allowed:?}",
                            c.line(line).id
                        );
                        searched += 1;
                    }
                }
            }
        }
        assert!(searched > 30_000, "{searched}");
    }

    #[test]
    fn the_last_word_of_a_near_neutral_thread_s_name_says_black_or_white() {
        let (black, white, grey) =
            (Rgb8::new(0x2F, 0x30, 0x32), Rgb8::new(0xEC, 0xEC, 0xE6), Rgb8::new(128, 128, 128));
        let cases = [
            (black, "Black", Neutrality::Black),
            (black, "Jet Black", Neutrality::Black),
            (black, "Dk. Black", Neutrality::Black),
            (black, "Blackberry", Neutrality::NearNeutral),
            (black, "Black Stallion", Neutrality::NearNeutral),
            (white, "Snow White", Neutrality::White),
            (white, "Blanc de Blanc", Neutrality::White),
            (white, "WHITE", Neutrality::White),
            (white, "White Sand", Neutrality::NearNeutral),
            (grey, "", Neutrality::NearNeutral),
            // Sulky 1162 Deep Teal, C*ab 16.4, and a white charted pink.
            (Rgb8::new(0x10, 0x39, 0x4A), "Deep Teal", Neutrality::Chromatic),
            (Rgb8::new(0xEA, 0x56, 0x50), "Natural White", Neutrality::Chromatic),
        ];
        for (rgb, name, expected) in cases {
            assert_eq!(Neutrality::of(rgb.to_lab(), name), expected, "{rgb} {name:?}");
        }
    }
}
