//! One thread a team owns: a catalogue thread (line and code; its name and colour come from the
//! catalogue) or a custom one (a name and a colour), with how many spools or cones there are and
//! what the shop wants to know about them.

use crate::catalogue::{Catalogue, code_key};
use crate::colour::Rgb8;

use super::amount::{AmountError, Hundredths};

/// The longest storage location, in characters.
pub const LOCATION_MAX_CHARS: usize = 100;
/// The longest custom thread name, in characters.
pub const NAME_MAX_CHARS: usize = 100;
/// The longest note, in characters.
pub const NOTES_MAX_CHARS: usize = 2_000;
/// The longest spool, in metres (the largest cones hold about 40,000 m).
pub const SPOOL_LENGTH_MAX_M: u32 = 100_000;

/// Which thread an entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadSource {
    /// `line` is the catalogue line's id; `code` is the code as the maker prints it (so "15"
    /// typed for Madeira's "0015" is stored as "0015").
    Catalogue {
        line: String,
        code: String,
    },
    Custom {
        name: String,
        colour: Rgb8,
    },
}

impl ThreadSource {
    /// What makes two entries the same thread: the line and the code's comparison key, or the
    /// custom name without regard to case.
    pub fn identity(&self) -> String {
        match self {
            Self::Catalogue { line, code } => format!("{line}\u{1f}{}", code_key(code).unwrap_or_default()),
            Self::Custom { name, .. } => format!("custom\u{1f}{}", name.to_lowercase()),
        }
    }
}

/// A valid inventory entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadEntry {
    pub source: ThreadSource,
    /// Spools or cones; fractions for part-used ones.
    pub quantity: Hundredths,
    pub spool_length_m: Option<u32>,
    /// Empty when not given.
    pub location: String,
    pub reorder_point: Option<Hundredths>,
    /// In hundredths of the team's currency.
    pub cost_per_spool: Option<Hundredths>,
    pub notes: String,
}

/// Low stock (docs/behaviour.md, "Low stock"): `team_default` is the team's default reorder
/// point (its `default_reorder_point` setting), which applies to every entry without its own.
impl ThreadEntry {
    /// The reorder point that applies: the entry's own, else the team's default.
    pub fn reorder_point_or(&self, team_default: Option<Hundredths>) -> Option<Hundredths> {
        self.reorder_point.or(team_default)
    }

    /// Whether it is time to buy more: none left, or at or below the reorder point that applies.
    pub fn is_low(&self, team_default: Option<Hundredths>) -> bool {
        self.quantity == Hundredths::ZERO
            || self.reorder_point_or(team_default).is_some_and(|point| self.quantity <= point)
    }

    /// How many whole spools to buy: the fewest that take the quantity above the reorder point
    /// that applies (0 when there is none), so the entry is no longer low; the reorder point
    /// minus the quantity, rounded down, plus one. 0 when it is not low.
    pub fn to_buy(&self, team_default: Option<Hundredths>) -> u64 {
        if !self.is_low(team_default) {
            return 0;
        }
        let point = self.reorder_point_or(team_default).unwrap_or(Hundredths::ZERO);
        // Low, so the quantity is at most the point (or 0): the shortfall is never negative.
        let short = point.hundredths().saturating_sub(self.quantity.hundredths()).max(0);
        u64::try_from(short / 100 + 1).unwrap_or(1)
    }
}

/// An entry as typed or imported, before it is checked: every field as text, as a form or a
/// spreadsheet cell gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadDraft {
    /// A line id (`madeira-polyneon`) or its name as shown (`Madeira Polyneon`).
    pub line: String,
    pub code: String,
    pub name: String,
    /// `#RRGGBB`.
    pub colour: String,
    pub quantity: String,
    pub spool_length_m: String,
    pub location: String,
    pub reorder_point: String,
    pub cost_per_spool: String,
    pub notes: String,
}

/// What is wrong with one field of a draft.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    /// The field's name as in [`ThreadDraft`] (and the CSV header).
    pub field: &'static str,
    /// Stable: `required`, `unknown_line`, `unknown_code`, `bad_number`, `bad_colour`,
    /// `too_long`, `ambiguous`.
    pub code: &'static str,
    pub message: String,
}

impl FieldProblem {
    fn new(field: &'static str, code: &'static str, message: impl Into<String>) -> Self {
        Self { field, code, message: message.into() }
    }
}

impl ThreadDraft {
    /// Checks every field and answers the entry, or every problem found (not only the first).
    ///
    /// # Errors
    ///
    /// The problems, one per field at most.
    pub fn parse(&self, catalogue: &Catalogue) -> Result<ThreadEntry, Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let source = self.source(catalogue).map_err(|problem| problems.push(problem)).ok();
        let quantity = if self.quantity.trim().is_empty() {
            problems.push(FieldProblem::new(
                "quantity",
                "required",
                "Give the number of spools or cones (0 is fine).",
            ));
            None
        } else {
            amount("quantity", &self.quantity).map_err(|problem| problems.push(problem)).ok()
        };
        let optional_amount = |field: &'static str, raw: &str, problems: &mut Vec<FieldProblem>| {
            if raw.trim().is_empty() {
                None
            } else {
                amount(field, raw).map_err(|problem| problems.push(problem)).ok()
            }
        };
        let reorder_point = optional_amount("reorder_point", &self.reorder_point, &mut problems);
        let cost_per_spool = optional_amount("cost_per_spool", &self.cost_per_spool, &mut problems);
        let spool_length_m = match self.spool_length_m.trim() {
            "" => None,
            raw => match raw.parse::<u32>() {
                Ok(metres) if (1..=SPOOL_LENGTH_MAX_M).contains(&metres) => Some(metres),
                _ => {
                    problems.push(FieldProblem::new(
                        "spool_length_m",
                        "bad_number",
                        format!(
                            "The spool length is a whole number of metres from 1 to {SPOOL_LENGTH_MAX_M}."
                        ),
                    ));
                    None
                }
            },
        };
        let location =
            text("location", &self.location, LOCATION_MAX_CHARS).map_err(|p| problems.push(p)).ok();
        let notes = text("notes", &self.notes, NOTES_MAX_CHARS).map_err(|p| problems.push(p)).ok();
        match (source, quantity, location, notes) {
            (Some(source), Some(quantity), Some(location), Some(notes)) if problems.is_empty() => {
                Ok(ThreadEntry {
                    source,
                    quantity,
                    spool_length_m,
                    location,
                    reorder_point,
                    cost_per_spool,
                    notes,
                })
            }
            _ => Err(problems),
        }
    }

    /// A catalogue thread when a line is given, else a custom one.
    fn source(&self, catalogue: &Catalogue) -> Result<ThreadSource, FieldProblem> {
        let line = self.line.trim();
        if line.is_empty() {
            let name = text("name", &self.name, NAME_MAX_CHARS)?;
            if name.is_empty() {
                return Err(FieldProblem::new(
                    "line",
                    "required",
                    "Give a catalogue line and code, or a name and colour for a thread not in the catalogue.",
                ));
            }
            let colour = Rgb8::parse_hex(self.colour.trim()).map_err(|_| {
                FieldProblem::new(
                    "colour",
                    "bad_colour",
                    "Give the colour of a custom thread as #RRGGBB, e.g. #1A2B3C.",
                )
            })?;
            return Ok(ThreadSource::Custom { name, colour });
        }
        let index = catalogue
            .line_by_id(line)
            .ok()
            .or_else(|| {
                catalogue
                    .line_indices()
                    .find(|&i| catalogue.line(i).display_name().eq_ignore_ascii_case(line))
            })
            .ok_or_else(|| {
                FieldProblem::new(
                    "line",
                    "unknown_line",
                    format!("There is no thread line \"{}\" in the catalogue.", short(line)),
                )
            })?;
        let found = catalogue.find(index, &self.code).map_err(|_| {
            let line_name = catalogue.line(index).display_name();
            if self.code.trim().is_empty() {
                FieldProblem::new("code", "required", format!("Give the {line_name} code."))
            } else {
                FieldProblem::new(
                    "code",
                    "unknown_code",
                    format!("{line_name} has no thread \"{}\".", short(self.code.trim())),
                )
            }
        })?;
        let thread = catalogue.thread(found[0]);
        Ok(ThreadSource::Catalogue {
            line: catalogue.line(index).id.to_owned(),
            code: thread.code.to_owned(),
        })
    }
}

impl ThreadEntry {
    /// The thread's name and `#RRGGBB` colour: the catalogue's for a catalogue thread (both empty
    /// where the catalogue does not know it), its own for a custom one.
    pub fn name_and_colour(&self, catalogue: &Catalogue) -> (String, String) {
        match &self.source {
            ThreadSource::Catalogue { line, code } => {
                let thread = catalogue
                    .line_by_id(line)
                    .ok()
                    .and_then(|index| catalogue.find(index, code).ok())
                    .map(|found| catalogue.thread(found[0]));
                (
                    thread.map(|t| t.name.to_owned()).unwrap_or_default(),
                    thread.map(|t| t.rgb.to_hex()).unwrap_or_default(),
                )
            }
            ThreadSource::Custom { name, colour } => (name.clone(), colour.to_hex()),
        }
    }

    /// The entry as a draft again: what a form shows to edit it, and what export writes.
    pub fn to_draft(&self, catalogue: &Catalogue) -> ThreadDraft {
        let (line, code) = match &self.source {
            ThreadSource::Catalogue { line, code } => (line.clone(), code.clone()),
            ThreadSource::Custom { .. } => (String::new(), String::new()),
        };
        let (name, colour) = self.name_and_colour(catalogue);
        let optional = |amount: Option<Hundredths>| amount.map(|a| a.to_string()).unwrap_or_default();
        ThreadDraft {
            line,
            code,
            name,
            colour,
            quantity: self.quantity.to_string(),
            spool_length_m: self.spool_length_m.map(|m| m.to_string()).unwrap_or_default(),
            location: self.location.clone(),
            reorder_point: optional(self.reorder_point),
            cost_per_spool: optional(self.cost_per_spool),
            notes: self.notes.clone(),
        }
    }
}

fn amount(field: &'static str, raw: &str) -> Result<Hundredths, FieldProblem> {
    Hundredths::parse(raw).map_err(|error| {
        let message = match error {
            AmountError::NotANumber(text) => format!("\"{text}\" is not a number."),
            other => format!("The number {other}."),
        };
        FieldProblem::new(field, "bad_number", message)
    })
}

fn text(field: &'static str, raw: &str, max_chars: usize) -> Result<String, FieldProblem> {
    let value = raw.trim();
    if value.chars().count() > max_chars {
        return Err(FieldProblem::new(field, "too_long", format!("Use at most {max_chars} characters.")));
    }
    Ok(value.to_owned())
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(line: &str, code: &str, quantity: &str) -> ThreadDraft {
        ThreadDraft {
            line: line.into(),
            code: code.into(),
            quantity: quantity.into(),
            ..ThreadDraft::default()
        }
    }

    #[test]
    fn a_catalogue_thread_is_stored_by_line_id_and_printed_code() {
        let catalogue = Catalogue::builtin();
        let entry = draft("Madeira Polyneon", "1800", "2.5").parse(catalogue).unwrap();
        assert_eq!(
            entry.source,
            ThreadSource::Catalogue { line: "madeira-polyneon".into(), code: "1800".into() }
        );
        assert_eq!(entry.quantity.to_string(), "2.5");
        let same = draft("madeira-polyneon", "01800", "1").parse(catalogue).unwrap();
        assert_eq!(
            same.source.identity(),
            entry.source.identity(),
            "leading zeros do not make another thread"
        );
    }

    #[test]
    fn every_problem_of_a_draft_is_reported_by_field() {
        let catalogue = Catalogue::builtin();
        let bad = ThreadDraft {
            line: "madeira-polyneon".into(),
            code: "no-such-code".into(),
            quantity: "lots".into(),
            reorder_point: "-1".into(),
            spool_length_m: "0".into(),
            location: "x".repeat(101),
            ..ThreadDraft::default()
        };
        let problems = bad.parse(catalogue).unwrap_err();
        let fields: Vec<(&str, &str)> = problems.iter().map(|p| (p.field, p.code)).collect();
        assert_eq!(
            fields,
            [
                ("code", "unknown_code"),
                ("quantity", "bad_number"),
                ("reorder_point", "bad_number"),
                ("spool_length_m", "bad_number"),
                ("location", "too_long"),
            ]
        );
        assert_eq!(draft("no-such-line", "1", "1").parse(catalogue).unwrap_err()[0].code, "unknown_line");
        assert_eq!(draft("madeira-polyneon", "1800", "").parse(catalogue).unwrap_err()[0].code, "required");
    }

    #[test]
    fn a_custom_thread_needs_a_name_and_a_colour() {
        let catalogue = Catalogue::builtin();
        let custom = ThreadDraft {
            name: "Gold from the fair".into(),
            colour: "#c9a227".into(),
            quantity: "1".into(),
            ..ThreadDraft::default()
        };
        let entry = custom.parse(catalogue).unwrap();
        assert!(
            matches!(entry.source, ThreadSource::Custom { ref name, .. } if name == "Gold from the fair")
        );
        let no_colour = ThreadDraft { colour: "gold".into(), ..custom.clone() };
        assert_eq!(no_colour.parse(catalogue).unwrap_err()[0].code, "bad_colour");
        let nothing = ThreadDraft { quantity: "1".into(), ..ThreadDraft::default() };
        assert_eq!(nothing.parse(catalogue).unwrap_err()[0].field, "line");
    }

    /// An entry of `quantity` spools with its own reorder point `own` ("" for none).
    fn stock(quantity: &str, own: &str) -> ThreadEntry {
        ThreadDraft { reorder_point: own.into(), ..draft("madeira-polyneon", "1800", quantity) }
            .parse(Catalogue::builtin())
            .unwrap()
    }

    fn spools(text: &str) -> Hundredths {
        Hundredths::parse(text).unwrap()
    }

    #[test]
    fn an_entry_is_low_at_or_below_its_reorder_point() {
        assert!(stock("2", "2").is_low(None));
        assert!(!stock("2.01", "2").is_low(None));
        assert!(!stock("2", "").is_low(None), "no reorder point anywhere: low only at 0");
    }

    #[test]
    fn none_left_is_always_low() {
        assert!(stock("0", "").is_low(None), "without any reorder point");
        assert!(stock("0", "0").is_low(None));
        assert!(stock("0", "").is_low(Some(spools("0"))));
        assert!(!stock("0.01", "").is_low(None), "a part-used spool is still some");
    }

    #[test]
    fn the_team_default_applies_where_an_entry_has_no_reorder_point_of_its_own() {
        let team = Some(spools("3"));
        assert!(stock("3", "").is_low(team));
        assert!(!stock("3.5", "").is_low(team));
        assert_eq!(stock("3", "").reorder_point_or(team), team);
        // The entry's own point wins, lower or higher.
        assert!(!stock("2", "1").is_low(team));
        assert!(stock("4", "5").is_low(team));
        assert_eq!(stock("2", "1").reorder_point_or(team), Some(spools("1")));
    }

    #[test]
    fn what_to_buy_takes_the_quantity_above_the_reorder_point_in_whole_spools() {
        assert_eq!(stock("0", "").to_buy(None), 1, "none left, no point: one spool");
        assert_eq!(stock("2", "2").to_buy(None), 1, "at the point: one more takes it above");
        assert_eq!(stock("0", "3").to_buy(None), 4);
        assert_eq!(stock("0.5", "1").to_buy(None), 1, "1.5 is above 1");
        assert_eq!(stock("0.5", "2").to_buy(None), 2, "2.5 is above 2");
        assert_eq!(stock("1", "2.5").to_buy(None), 2, "3 is above 2.5");
        assert_eq!(stock("1", "").to_buy(Some(spools("4"))), 4, "the team default's point");
        assert_eq!(stock("5", "").to_buy(Some(spools("4"))), 0, "not low: nothing to buy");
        for (quantity, own, team) in
            [("0", "", None), ("1.25", "3", None), ("0", "", Some(spools("7"))), ("2", "", Some(spools("2")))]
        {
            let mut entry = stock(quantity, own);
            let bought = i64::try_from(entry.to_buy(team)).unwrap();
            entry.quantity = Hundredths::from_hundredths(entry.quantity.hundredths() + bought * 100).unwrap();
            assert!(!entry.is_low(team), "{quantity} {own} {team:?}: no longer low after buying");
            entry.quantity = Hundredths::from_hundredths(entry.quantity.hundredths() - 100).unwrap();
            assert!(entry.is_low(team), "{quantity} {own} {team:?}: one spool fewer would not do");
        }
    }

    #[test]
    fn an_entry_turned_back_into_a_draft_parses_to_itself() {
        let catalogue = Catalogue::builtin();
        let entry = ThreadDraft {
            location: "Drawer 3".into(),
            cost_per_spool: "4.5".into(),
            spool_length_m: "5000".into(),
            notes: "=ours".into(),
            ..draft("madeira-polyneon", "1800", "0.75")
        }
        .parse(catalogue)
        .unwrap();
        let again = entry.to_draft(catalogue).parse(catalogue).unwrap();
        assert_eq!(again, entry);
    }
}
