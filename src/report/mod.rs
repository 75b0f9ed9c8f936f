//! Outcomes to formats: console table, JSON, JUnit XML and SARIF 2.1.0
//! (`shared/design/report.md`). Reports read a [`RunOutcome`] only; they never evaluate.

pub mod console;
pub mod json;
pub mod junit;
pub mod sarif;

use crate::outcome::RunOutcome;

/// The report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Console,
    Json,
    Junit,
    Sarif,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Console, Format::Json, Format::Junit, Format::Sarif];

    pub fn name(self) -> &'static str {
        match self {
            Format::Console => "console",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Sarif => "sarif",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// ANSI colours (console only): on a terminal and without `NO_COLOR`.
    pub color: bool,
}

/// Renders `outcome` in `format`.
pub fn render(format: Format, outcome: &RunOutcome, options: &RenderOptions) -> String {
    match format {
        Format::Console => console::render(outcome, options),
        Format::Json => json::render(outcome),
        Format::Junit => junit::render(outcome),
        Format::Sarif => sarif::render(outcome),
    }
}
