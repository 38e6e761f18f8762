//! Embroidery machines and their maintenance: what a machine is (heads, needles, speed, hoops),
//! whether it runs, and when each kind of maintenance is next due.
//!
//! Next due comes from the machine's interval for each kind, in days and in stitches (the
//! machine's stitch counter), whichever comes first; either may be left out, and a kind with
//! neither is not scheduled. A schedule counts from the last time that kind was done, or from the
//! last service (which covers every kind), or else from the day the machine was added to Bobbin:
//! nothing is overdue on a machine's first day. The defaults follow common maker advice for
//! commercial machines, rounded to be easy to remember:
//!
//! | kind | every | or every |
//! |---|---|---|
//! | oiling | 7 days | 1,000,000 stitches |
//! | hook cleaning | 30 days | 5,000,000 stitches |
//! | needle change | 90 days | 10,000,000 stitches |
//! | service | 365 days | 100,000,000 stitches |
//! | other | never scheduled | |

use serde::{Deserialize, Serialize};
use time::{Date, Duration, Month};

/// The longest name, brand, model or serial number, in characters.
pub const TEXT_MAX_CHARS: usize = 100;
/// The longest note, in characters.
pub const NOTES_MAX_CHARS: usize = 2_000;
/// The most hoops or sewing fields one machine lists.
pub const MAX_HOOPS: usize = 30;
/// The largest stitch counter reading: 2^53 - 1, the largest whole number every JSON reader
/// (JavaScript's included) reads exactly, and far beyond any machine's lifetime of stitches
/// (3,000 a minute for a century is under 2^38). Larger readings are refused, not clipped.
pub const STITCH_COUNTER_MAX: u64 = (1 << 53) - 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MachineStatus {
    Active,
    /// Out of use until a repair or service is done.
    Maintenance,
    Retired,
}

impl MachineStatus {
    pub const ALL: [Self; 3] = [Self::Active, Self::Maintenance, Self::Retired];

    /// The status as the API and the database write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Maintenance => "maintenance",
            Self::Retired => "retired",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MaintenanceKind {
    Oiling,
    HookCleaning,
    NeedleChange,
    Service,
    Other,
}

impl MaintenanceKind {
    pub const ALL: [Self; 5] =
        [Self::Oiling, Self::HookCleaning, Self::NeedleChange, Self::Service, Self::Other];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Oiling => "oiling",
            Self::HookCleaning => "hook_cleaning",
            Self::NeedleChange => "needle_change",
            Self::Service => "service",
            Self::Other => "other",
        }
    }

    /// The kinds a machine has an interval for: all but `Other`.
    pub const SCHEDULED: [Self; 4] = [Self::Oiling, Self::HookCleaning, Self::NeedleChange, Self::Service];

    /// How often this kind is due on a machine nobody set otherwise. `None` for `Other`.
    pub fn default_interval(self) -> Option<Interval> {
        let (days, stitches) = match self {
            Self::Oiling => (7, 1_000_000),
            Self::HookCleaning => (30, 5_000_000),
            Self::NeedleChange => (90, 10_000_000),
            Self::Service => (365, 100_000_000),
            Self::Other => return None,
        };
        Some(Interval { kind: self, days: Some(days), stitches: Some(stitches) })
    }
}

/// The longest interval in days: ten years.
pub const INTERVAL_DAYS_MAX: u32 = 3_650;
/// The shortest interval in stitches: a few minutes of stitching.
pub const INTERVAL_STITCHES_MIN: u64 = 1_000;

/// How often one kind of maintenance is due on one machine: every `days`, or every `stitches` on
/// its counter, whichever comes first. With neither, that kind is not scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Interval {
    pub kind: MaintenanceKind,
    #[cfg_attr(feature = "openapi", schema(example = 7))]
    pub days: Option<u32>,
    #[cfg_attr(feature = "openapi", schema(example = 1_000_000))]
    pub stitches: Option<u64>,
}

impl Interval {
    /// When this kind is next due, counted from `from` (when it was last done, or the machine's
    /// start) and the stitch counter then, if it was read. `None` when nothing marks it: no
    /// interval, or one in stitches alone with no counter reading to count from.
    pub fn next_due(&self, from: Date, counter_then: Option<u64>) -> Option<Due> {
        let date = self.days.map(|days| from.checked_add(Duration::days(days.into())).unwrap_or(Date::MAX));
        let at_stitches = self.stitches.zip(counter_then).map(|(every, then)| then.saturating_add(every));
        (date.is_some() || at_stitches.is_some()).then_some(Due { kind: self.kind, date, at_stitches })
    }
}

/// One interval for each scheduled kind: the ones given, the defaults for the others.
pub fn with_defaults(given: &[Interval]) -> Vec<Interval> {
    MaintenanceKind::SCHEDULED
        .into_iter()
        .filter_map(|kind| {
            given.iter().find(|set| set.kind == kind).copied().or_else(|| kind.default_interval())
        })
        .collect()
}

/// When maintenance of one kind is next due: by `date`, or once the stitch counter passes
/// `at_stitches`, whichever comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Due {
    pub kind: MaintenanceKind,
    /// `YYYY-MM-DD`; none for an interval in stitches alone.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date))]
    #[serde(with = "iso_date::option")]
    pub date: Option<Date>,
    pub at_stitches: Option<u64>,
}

impl Due {
    /// Whether it is due now: the date is reached, or the counter is past its mark.
    pub fn is_due(&self, today: Date, counter_now: Option<u64>) -> bool {
        self.date.is_some_and(|date| today >= date)
            || matches!((self.at_stitches, counter_now), (Some(mark), Some(now)) if now >= mark)
    }
}

/// The last time one kind of maintenance was done on a machine: when, and its counter then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastDone {
    pub kind: MaintenanceKind,
    pub on: Date,
    pub counter: Option<u64>,
}

/// One line of a machine's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheduled {
    pub due: Due,
    /// Reached by date or by the stitch counter.
    pub overdue: bool,
    /// Never done, nor a service since the machine was added: counted from when it was added.
    pub never_done: bool,
}

/// What is due on a machine with `intervals`, added to Bobbin on `added`, whose log's latest
/// entry of each kind is `last`, with its counter at `counter_now`: soonest first. Each kind
/// counts from whichever is latest of its own last entry, the last service, and `added`.
pub fn schedule(
    intervals: &[Interval],
    added: Date,
    last: &[LastDone],
    counter_now: Option<u64>,
    today: Date,
) -> Vec<Scheduled> {
    let service = last.iter().find(|done| done.kind == MaintenanceKind::Service);
    let mut due: Vec<Scheduled> = intervals
        .iter()
        .filter_map(|interval| {
            let own = last.iter().find(|done| done.kind == interval.kind);
            let latest = [own, service].into_iter().flatten().max_by_key(|done| done.on);
            let (from, counter_then) = match latest {
                Some(done) if done.on >= added => (done.on, done.counter),
                // Logged with an earlier date than the machine was added (a history typed in).
                Some(done) => (added, done.counter),
                None => (added, None),
            };
            let due = interval.next_due(from, counter_then)?;
            Some(Scheduled { overdue: due.is_due(today, counter_now), never_done: latest.is_none(), due })
        })
        .collect();
    due.sort_by_key(|line| (line.due.date.is_none(), line.due.date));
    due
}

/// A hoop or sewing field, in millimetres.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hoop {
    #[serde(default)]
    pub name: String,
    pub width_mm: u32,
    pub height_mm: u32,
}

/// A machine as typed in, before it is checked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MachineDraft {
    #[cfg_attr(feature = "openapi", schema(example = "Tajima 6-head"))]
    pub name: String,
    #[serde(default)]
    pub brand: String,
    #[serde(default)]
    pub model: String,
    #[serde(default)]
    pub serial_number: String,
    #[serde(default = "one")]
    pub heads: u32,
    #[serde(default = "one")]
    pub needles_per_head: u32,
    pub max_spm: Option<u32>,
    /// What it really runs at; often about half of the rated maximum.
    pub typical_spm: Option<u32>,
    #[serde(default)]
    pub hoops: Vec<Hoop>,
    #[serde(default = "active")]
    pub status: MachineStatus,
    /// `YYYY-MM-DD`.
    #[cfg_attr(feature = "openapi", schema(example = "2025-06-01"))]
    pub purchase_date: Option<String>,
    #[serde(default)]
    pub notes: String,
    /// The maintenance schedule: an interval per kind, the default for each kind left out.
    #[serde(default)]
    pub intervals: Vec<Interval>,
}

fn one() -> u32 {
    1
}

fn active() -> MachineStatus {
    MachineStatus::Active
}

/// A valid machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    pub name: String,
    pub brand: String,
    pub model: String,
    pub serial_number: String,
    pub heads: u32,
    pub needles_per_head: u32,
    pub max_spm: Option<u32>,
    pub typical_spm: Option<u32>,
    pub hoops: Vec<Hoop>,
    pub status: MachineStatus,
    pub purchase_date: Option<Date>,
    pub notes: String,
    /// One for each scheduled kind ([`with_defaults`]).
    pub intervals: Vec<Interval>,
}

/// One problem with one field; `field` is the draft's field name (`hoops[2].width_mm` for a hoop).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineProblem {
    pub field: String,
    pub code: &'static str,
    pub message: String,
}

impl MachineDraft {
    /// Checks every field and answers the machine, or every problem found.
    ///
    /// # Errors
    ///
    /// The problems, each naming its field.
    pub fn parse(self) -> Result<Machine, Vec<MachineProblem>> {
        let mut problems = Vec::new();
        let mut problem = |field: &str, code: &'static str, message: String| {
            problems.push(MachineProblem { field: field.to_owned(), code, message });
        };
        let name = self.name.trim().to_owned();
        if name.is_empty() {
            problem("name", "required", "Give the machine a name, e.g. \"Tajima 6-head\".".to_owned());
        }
        for (field, value) in [
            ("name", &name),
            ("brand", &self.brand),
            ("model", &self.model),
            ("serial_number", &self.serial_number),
        ] {
            if value.trim().chars().count() > TEXT_MAX_CHARS {
                problem(field, "too_long", format!("Use at most {TEXT_MAX_CHARS} characters."));
            }
        }
        if !(1..=100).contains(&self.heads) {
            problem("heads", "out_of_range", "A machine has 1 to 100 heads.".to_owned());
        }
        if !(1..=30).contains(&self.needles_per_head) {
            problem("needles_per_head", "out_of_range", "A head has 1 to 30 needles.".to_owned());
        }
        for (field, speed) in [("max_spm", self.max_spm), ("typical_spm", self.typical_spm)] {
            if speed.is_some_and(|spm| !(50..=3_000).contains(&spm)) {
                problem(field, "out_of_range", "Stitches per minute are between 50 and 3,000.".to_owned());
            }
        }
        if let (Some(max), Some(typical)) = (self.max_spm, self.typical_spm)
            && typical > max
        {
            problem("typical_spm", "above_max", "The typical speed cannot be above the maximum.".to_owned());
        }
        if self.hoops.len() > MAX_HOOPS {
            problem("hoops", "too_many", format!("List at most {MAX_HOOPS} hoops."));
        }
        for (index, hoop) in self.hoops.iter().enumerate() {
            for (field, size) in [("width_mm", hoop.width_mm), ("height_mm", hoop.height_mm)] {
                if !(10..=2_000).contains(&size) {
                    problem(
                        &format!("hoops[{index}].{field}"),
                        "out_of_range",
                        "Hoop sides are 10 to 2,000 mm.".to_owned(),
                    );
                }
            }
            if hoop.name.trim().chars().count() > TEXT_MAX_CHARS {
                problem(
                    &format!("hoops[{index}].name"),
                    "too_long",
                    format!("Use at most {TEXT_MAX_CHARS} characters."),
                );
            }
        }
        let purchase_date = match self.purchase_date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            None => None,
            Some(raw) => {
                parse_date(raw).map_err(|message| problem("purchase_date", "bad_date", message)).ok()
            }
        };
        if self.notes.trim().chars().count() > NOTES_MAX_CHARS {
            problem("notes", "too_long", format!("Use at most {NOTES_MAX_CHARS} characters."));
        }
        check_intervals(&self.intervals, &mut problem);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Machine {
            name,
            brand: self.brand.trim().to_owned(),
            model: self.model.trim().to_owned(),
            serial_number: self.serial_number.trim().to_owned(),
            heads: self.heads,
            needles_per_head: self.needles_per_head,
            max_spm: self.max_spm,
            typical_spm: self.typical_spm,
            hoops: self
                .hoops
                .into_iter()
                .map(|hoop| Hoop { name: hoop.name.trim().to_owned(), ..hoop })
                .collect(),
            status: self.status,
            purchase_date,
            notes: self.notes.trim().to_owned(),
            intervals: with_defaults(&self.intervals),
        })
    }
}

/// Each interval's problems: `Other` has none, each kind one, days and stitches in range.
fn check_intervals(intervals: &[Interval], problem: &mut impl FnMut(&str, &'static str, String)) {
    for (index, interval) in intervals.iter().enumerate() {
        let field = |name: &str| format!("intervals[{index}].{name}");
        if interval.kind == MaintenanceKind::Other {
            problem(&field("kind"), "not_scheduled", "\"Other\" maintenance has no interval.".to_owned());
        } else if intervals[..index].iter().any(|before| before.kind == interval.kind) {
            problem(&field("kind"), "repeated", "Give each kind of maintenance one interval.".to_owned());
        }
        if interval.days.is_some_and(|days| !(1..=INTERVAL_DAYS_MAX).contains(&days)) {
            problem(&field("days"), "out_of_range", format!("Use 1 to {INTERVAL_DAYS_MAX} days."));
        }
        if interval.stitches.is_some_and(|n| !(INTERVAL_STITCHES_MIN..=STITCH_COUNTER_MAX).contains(&n)) {
            problem(
                &field("stitches"),
                "out_of_range",
                format!("Use at least {INTERVAL_STITCHES_MIN} stitches."),
            );
        }
    }
}

/// Reads `YYYY-MM-DD`.
///
/// # Errors
///
/// A message saying what to write instead.
pub fn parse_date(raw: &str) -> Result<Date, String> {
    let bad = || {
        format!(
            "\"{}\" is not a date: write it as YYYY-MM-DD, e.g. 2026-03-31.",
            raw.chars().take(20).collect::<String>()
        )
    };
    let mut parts = raw.trim().splitn(3, '-');
    let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    if year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return Err(bad());
    }
    let year: i32 = year.parse().map_err(|_| bad())?;
    let month: u8 = month.parse().map_err(|_| bad())?;
    let day: u8 = day.parse().map_err(|_| bad())?;
    let month = Month::try_from(month).map_err(|_| bad())?;
    Date::from_calendar_date(year, month, day).map_err(|_| bad())
}

/// Writes `YYYY-MM-DD`, as [`parse_date`] reads it.
pub fn format_date(date: Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// Dates as `YYYY-MM-DD` in JSON.
pub mod iso_date {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use time::Date;

    /// # Errors
    ///
    /// Never, in practice: writing to a serializer.
    pub fn serialize<S: Serializer>(date: &Date, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&super::format_date(*date))
    }

    /// # Errors
    ///
    /// When the text is not a `YYYY-MM-DD` date.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Date, D::Error> {
        let raw = String::deserialize(deserializer)?;
        super::parse_date(&raw).map_err(D::Error::custom)
    }

    /// Optional dates: `null` for none.
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer, de::Error};
        use time::Date;

        /// # Errors
        ///
        /// Never, in practice: writing to a serializer.
        pub fn serialize<S: Serializer>(date: &Option<Date>, serializer: S) -> Result<S::Ok, S::Error> {
            match date {
                Some(date) => super::serialize(date, serializer),
                None => serializer.serialize_none(),
            }
        }

        /// # Errors
        ///
        /// When the text is not a `YYYY-MM-DD` date.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Date>, D::Error> {
            Option::<String>::deserialize(deserializer)?
                .map(|raw| super::super::parse_date(&raw).map_err(D::Error::custom))
                .transpose()
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn draft() -> MachineDraft {
        serde_json::from_value(
            serde_json::json!({ "name": "Tajima TMEZ", "max_spm": 1000, "typical_spm": 600 }),
        )
        .unwrap()
    }

    #[test]
    fn statuses_and_kinds_are_written_as_their_json_names() {
        for status in MachineStatus::ALL {
            assert_eq!(serde_json::to_value(status).unwrap(), status.as_str());
        }
        for kind in MaintenanceKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
    }

    #[test]
    fn a_machine_needs_only_a_name_and_gets_sensible_defaults() {
        let machine = draft().parse().unwrap();
        assert_eq!(machine.heads, 1);
        assert_eq!(machine.needles_per_head, 1);
        assert_eq!(machine.status, MachineStatus::Active);
        assert_eq!(machine.typical_spm, Some(600));
    }

    #[test]
    fn every_bad_field_is_named() {
        let bad = MachineDraft {
            name: " ".into(),
            heads: 0,
            typical_spm: Some(1200),
            hoops: vec![Hoop { name: "Cap".into(), width_mm: 5, height_mm: 60 }],
            purchase_date: Some("31/03/2026".into()),
            ..draft()
        };
        let fields: Vec<(String, &str)> =
            bad.parse().unwrap_err().into_iter().map(|p| (p.field, p.code)).collect();
        assert_eq!(
            fields,
            [
                ("name".to_owned(), "required"),
                ("heads".to_owned(), "out_of_range"),
                ("typical_spm".to_owned(), "above_max"),
                ("hoops[0].width_mm".to_owned(), "out_of_range"),
                ("purchase_date".to_owned(), "bad_date"),
            ]
        );
    }

    #[test]
    fn dates_are_read_strictly() {
        assert_eq!(parse_date("2026-03-31"), Ok(date!(2026 - 03 - 31)));
        for bad in ["2026-02-30", "2026-3-1", "26-03-31", "2026-03-31T00:00", ""] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }

    fn oiling() -> Interval {
        MaintenanceKind::Oiling.default_interval().unwrap()
    }

    #[test]
    fn maintenance_is_due_by_date_or_by_stitches_whichever_first() {
        let due = oiling().next_due(date!(2026 - 01 - 01), Some(2_000_000)).unwrap();
        assert_eq!(due.date, Some(date!(2026 - 01 - 08)));
        assert_eq!(due.at_stitches, Some(3_000_000));
        assert!(!due.is_due(date!(2026 - 01 - 07), Some(2_999_999)));
        assert!(due.is_due(date!(2026 - 01 - 08), None), "the date came");
        assert!(due.is_due(date!(2026 - 01 - 02), Some(3_000_000)), "the stitches came first");
        let service = MaintenanceKind::Service.default_interval().unwrap();
        let service = service.next_due(date!(2026 - 01 - 01), None).unwrap();
        assert_eq!(service.date, Some(date!(2027 - 01 - 01)));
        assert_eq!(service.at_stitches, None);
        assert!(MaintenanceKind::Other.default_interval().is_none());
    }

    #[test]
    fn an_interval_may_be_days_or_stitches_alone_or_neither() {
        let stitches_only = Interval { days: None, ..oiling() };
        assert_eq!(
            stitches_only.next_due(date!(2026 - 01 - 01), None),
            None,
            "no counter read to count from"
        );
        assert_eq!(
            stitches_only.next_due(date!(2026 - 01 - 01), Some(10)).map(|due| (due.date, due.at_stitches)),
            Some((None, Some(1_000_010)))
        );
        let off = Interval { days: None, stitches: None, ..oiling() };
        assert_eq!(off.next_due(date!(2026 - 01 - 01), Some(10)), None);
    }

    // Issue 52: "A machine entered a minute ago shows 'Hook cleaning, Needle change, Service ...
    // overdue', counted from its purchase date ... A schedule counts from when the machine was
    // added or last serviced, so nothing is overdue on day one."
    #[test]
    fn nothing_is_overdue_on_a_machine_added_today_whatever_its_purchase_date() {
        let today = date!(2026 - 12 - 07);
        let schedule = schedule(&with_defaults(&[]), today, &[], None, today);
        assert_eq!(schedule.len(), 4);
        assert!(schedule.iter().all(|line| !line.overdue && line.never_done));
        assert_eq!(schedule[0].due.kind, MaintenanceKind::Oiling);
        assert_eq!(schedule[0].due.date, Some(date!(2026 - 12 - 14)));
        assert_eq!(schedule[3].due.date, Some(date!(2027 - 12 - 07)));
    }

    #[test]
    fn a_service_restarts_every_schedule_and_each_kind_counts_from_its_own_last_entry() {
        let added = date!(2026 - 01 - 01);
        let today = date!(2026 - 06 - 01);
        let last = [
            LastDone { kind: MaintenanceKind::Oiling, on: date!(2026 - 05 - 30), counter: Some(9_000_000) },
            LastDone { kind: MaintenanceKind::Service, on: date!(2026 - 05 - 20), counter: Some(8_000_000) },
            LastDone { kind: MaintenanceKind::NeedleChange, on: date!(2026 - 01 - 10), counter: None },
        ];
        let lines = schedule(&with_defaults(&[]), added, &last, Some(9_100_000), today);
        let line = |kind| *lines.iter().find(|line| line.due.kind == kind).unwrap();
        // Oiled two days ago: its own entry is later than the service.
        assert_eq!(line(MaintenanceKind::Oiling).due.date, Some(date!(2026 - 06 - 06)));
        assert_eq!(line(MaintenanceKind::Oiling).due.at_stitches, Some(10_000_000));
        // Needles were changed in January, but the service in May covered them.
        assert_eq!(line(MaintenanceKind::NeedleChange).due.date, Some(date!(2026 - 08 - 18)));
        assert!(!line(MaintenanceKind::NeedleChange).overdue);
        // Never logged on its own, but the service counts.
        assert!(!line(MaintenanceKind::HookCleaning).never_done);
        assert_eq!(line(MaintenanceKind::HookCleaning).due.at_stitches, Some(13_000_000));
        assert!(lines.iter().all(|line| !line.overdue));
        // The counter past hook cleaning's mark makes it overdue before its date.
        let lines = schedule(&with_defaults(&[]), added, &last, Some(13_000_000), today);
        assert!(lines.iter().any(|line| line.due.kind == MaintenanceKind::HookCleaning && line.overdue));
    }

    #[test]
    fn a_machine_keeps_its_own_intervals_and_the_defaults_for_the_kinds_left_out() {
        let mut typed = draft();
        typed.intervals = vec![Interval { kind: MaintenanceKind::Oiling, days: Some(1), stitches: None }];
        let machine = typed.parse().unwrap();
        assert_eq!(machine.intervals.len(), 4);
        assert_eq!(
            machine.intervals[0],
            Interval { kind: MaintenanceKind::Oiling, days: Some(1), stitches: None }
        );
        assert_eq!(machine.intervals[1], MaintenanceKind::HookCleaning.default_interval().unwrap());
    }

    #[test]
    fn a_bad_interval_is_named_by_its_place() {
        let mut typed = draft();
        typed.intervals = vec![
            Interval { kind: MaintenanceKind::Oiling, days: Some(0), stitches: Some(10) },
            Interval { kind: MaintenanceKind::Oiling, days: None, stitches: None },
            Interval { kind: MaintenanceKind::Other, days: Some(5), stitches: None },
        ];
        let fields: Vec<(String, &str)> =
            typed.parse().unwrap_err().into_iter().map(|p| (p.field, p.code)).collect();
        assert_eq!(
            fields,
            [
                ("intervals[0].days".to_owned(), "out_of_range"),
                ("intervals[0].stitches".to_owned(), "out_of_range"),
                ("intervals[1].kind".to_owned(), "repeated"),
                ("intervals[2].kind".to_owned(), "not_scheduled"),
            ]
        );
    }
}
