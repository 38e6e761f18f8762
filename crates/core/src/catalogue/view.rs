//! The catalogue as the API and the browser see it: plain serde values.

use serde::Serialize;

use super::{Catalogue, CodeIssue, Fibre, IssueKind, Line, LineIndex, LineKind, ThreadIndex};
use crate::colour::Rgb8;

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
