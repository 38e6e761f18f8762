//! The catalogue as the API and the browser see it: plain serde values.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Catalogue, CodeIssue, Fibre, IssueKind, Line, LineIndex, LineKind, Thread, ThreadIndex};
use crate::colour::Rgb8;
use crate::colour_words::Family;

/// A line without its threads, for lists and pickers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineSummary {
    pub id: &'static str,
    pub brand: &'static str,
    pub name: &'static str,
    /// Brand and name together, e.g. "Madeira Polyneon".
    pub display_name: String,
    pub fibre: Option<Fibre>,
    pub weight: Option<u16>,
    pub kind: LineKind,
    pub source: &'static str,
    pub thread_count: usize,
    /// Codes the chart lists more than once with the same colour.
    pub duplicate_codes: usize,
    /// Codes the chart lists with more than one colour.
    pub conflicting_codes: usize,
}

/// A line with its threads and the codes its chart repeats.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineDetail {
    #[serde(flatten)]
    pub summary: LineSummary,
    pub threads: Vec<ThreadView>,
    pub issues: Vec<CodeIssue>,
}

/// One thread, with enough about its line to show it anywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThreadView {
    pub line: &'static str,
    pub line_name: String,
    pub code: &'static str,
    pub name: &'static str,
    pub hex: Rgb8,
    /// The chart gives this code more than one colour; this is one of them.
    pub conflict: bool,
    /// Why this thread's charted colour may be wrong, if it may: a match to or from it is never
    /// labelled better than `similar`.
    pub doubt: Option<Doubt>,
}

/// Why a thread's charted colour is in doubt (docs/behaviour.md, "Catalogue and converter").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Doubt {
    /// The chart gives the code more than one colour.
    SourcesDisagree,
    /// The name says a colour the chart's is far from ("Dark Kelly Green" charted near-black).
    NameDisagrees,
    /// Charted pure white or pure black while its name says neither: a chart's placeholder
    /// ("Oyster" charted #FFFFFF).
    Placeholder,
}

impl Doubt {
    /// Why `thread`'s colour is in doubt, if it is.
    pub fn of(thread: &Thread) -> Option<Self> {
        if thread.conflict {
            return Some(Self::SourcesDisagree);
        }
        // "Black" or "White" before another word is a shade, not the colour: "Black Cherry".
        let last_word =
            thread.name.split(|c: char| !c.is_alphabetic()).rfind(|word| !word.is_empty()).unwrap_or("");
        let mut named = Family::in_name(thread.name);
        named.retain(|family| {
            !matches!(family, Family::Black | Family::White) || Family::from_word(last_word) == Some(*family)
        });
        let (charted, chroma) = (Family::of(thread.rgb), Family::chroma(thread.rgb));
        // Every colour the name says is far from the chart's ("Blue / Green" charted either is fine).
        if !named.is_empty() && named.iter().all(|family| family.disagrees(charted, chroma)) {
            return Some(Self::NameDisagrees);
        }
        let pure = [Rgb8::new(255, 255, 255), Rgb8::new(0, 0, 0)].contains(&thread.rgb);
        let says_it = named.iter().any(|family| [Family::White, Family::Black].contains(family));
        (pure && !thread.name.is_empty() && !says_it).then_some(Self::Placeholder)
    }

    /// What it means, for a person.
    pub fn explanation(self) -> &'static str {
        match self {
            Self::SourcesDisagree => "the chart gives this code more than one colour",
            Self::NameDisagrees => "its name says another colour than its chart",
            Self::Placeholder => "its chart gives pure white or black, which its name does not say",
        }
    }
}

impl Catalogue {
    pub fn summary(&self, index: LineIndex) -> LineSummary {
        summarise(self.line(index))
    }

    pub fn detail(&self, index: LineIndex) -> LineDetail {
        LineDetail {
            summary: self.summary(index),
            threads: self.threads_of(index).map(|(thread_index, _)| self.view(thread_index)).collect(),
            issues: self.line(index).issues.clone(),
        }
    }

    /// The data report (`docs/catalogue-report.md`): every thread whose charted colour is in
    /// doubt, line by line, with the reason. `cargo run -p bobbin-core --example catalogue-report`
    /// writes it; `crates/core/tests/catalogue.rs` checks the file is current.
    pub fn doubt_report(&self) -> String {
        let mut report = String::from(
            "# Thread catalogue: colours in doubt\n\n\
             Made from `crates/core/data/threads/` by `cargo run -p bobbin-core --example catalogue-report`.\n\
             A thread listed here is marked in the converter, and no match to or from it is labelled\n\
             better than *similar* (docs/behaviour.md, \"Catalogue and converter\").\n",
        );
        let mut total = 0;
        for index in self.line_indices() {
            let line = self.line(index);
            let doubtful: Vec<_> = self
                .threads_of(index)
                .filter_map(|(thread_index, thread)| Doubt::of(thread).map(|doubt| (thread_index, doubt)))
                .collect();
            if doubtful.is_empty() {
                continue;
            }
            total += doubtful.len();
            let _ = write!(
                report,
                "\n## {} ({})\n\n| Code | Name | Chart | Why |\n|---|---|---|---|\n",
                line.display_name(),
                doubtful.len()
            );
            for (thread_index, doubt) in doubtful {
                let thread = self.thread(thread_index);
                let _ = writeln!(
                    report,
                    "| {} | {} | {} | {} |",
                    thread.code,
                    thread.name.replace('|', "\\|"),
                    thread.rgb,
                    doubt.explanation()
                );
            }
        }
        let _ = write!(report, "\n{total} threads in all.\n");
        report
    }

    pub fn summaries(&self) -> Vec<LineSummary> {
        self.lines().iter().map(summarise).collect()
    }

    pub fn view(&self, index: ThreadIndex) -> ThreadView {
        let thread = self.thread(index);
        let line = self.line(thread.line);
        ThreadView {
            line: line.id,
            line_name: line.display_name(),
            code: thread.code,
            name: thread.name,
            hex: thread.rgb,
            conflict: thread.conflict,
            doubt: Doubt::of(thread),
        }
    }
}

fn summarise(line: &Line) -> LineSummary {
    let count = |kind| line.issues.iter().filter(|issue| issue.kind == kind).count();
    LineSummary {
        id: line.id,
        brand: line.brand,
        name: line.name,
        display_name: line.display_name(),
        fibre: line.fibre,
        weight: line.weight,
        kind: line.kind,
        source: line.source,
        thread_count: line.thread_count(),
        duplicate_codes: count(IssueKind::Duplicate),
        conflicting_codes: count(IssueKind::Conflict),
    }
}

/// OpenAPI schemas of the two enums shared with `build.rs` (which cannot derive them).
#[cfg(feature = "openapi")]
mod schemas {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

    use super::{Fibre, LineKind};

    fn string_enum(values: impl IntoIterator<Item = &'static str>, description: &str) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values))
            .description(Some(description))
            .into()
    }

    impl utoipa::PartialSchema for Fibre {
        fn schema() -> RefOr<Schema> {
            string_enum(Fibre::ALL.map(Fibre::as_str), "What a line's thread is made of.")
        }
    }
    impl utoipa::ToSchema for Fibre {}

    impl utoipa::PartialSchema for LineKind {
        fn schema() -> RefOr<Schema> {
            string_enum(
                [LineKind::Thread, LineKind::Reference].map(LineKind::as_str),
                "A thread line, or a colour standard such as Pantone or RAL.",
            )
        }
    }
    impl utoipa::ToSchema for LineKind {}
}
