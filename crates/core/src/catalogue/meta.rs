//! What the catalogue says about a line as a whole. Shared with `build.rs`, which rejects values
//! the app would not understand. (Their OpenAPI schemas are in `view.rs`: the build script has no
//! `utoipa`.)

use serde::{Deserialize, Serialize};

/// What a line's thread is made of, where the maker says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fibre {
    Polyester,
    /// Rayon and viscose: the same regenerated cellulose under two names.
    Rayon,
    Cotton,
    WoolBlend,
    Nylon,
    Metallic,
    Acrylic,
    Other,
}

impl Fibre {
    pub const ALL: [Fibre; 8] = [
        Fibre::Polyester,
        Fibre::Rayon,
        Fibre::Cotton,
        Fibre::WoolBlend,
        Fibre::Nylon,
        Fibre::Metallic,
        Fibre::Acrylic,
        Fibre::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Fibre::Polyester => "polyester",
            Fibre::Rayon => "rayon",
            Fibre::Cotton => "cotton",
            Fibre::WoolBlend => "wool-blend",
            Fibre::Nylon => "nylon",
            Fibre::Metallic => "metallic",
            Fibre::Acrylic => "acrylic",
            Fibre::Other => "other",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|fibre| fibre.as_str() == text)
    }
}

/// Whether a line is thread one can buy, or a colour standard (Pantone, RAL) that customers quote
/// and that is converted *from* but is not stocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    Thread,
    Reference,
}

impl LineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Thread => "thread",
            LineKind::Reference => "reference",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [LineKind::Thread, LineKind::Reference].into_iter().find(|kind| kind.as_str() == text)
    }
}
