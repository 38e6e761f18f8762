//! What a team owns: threads (with quantities, where they are, when to buy more) and
//! embroidery machines with their maintenance.

pub mod amount;
pub mod csv;
pub mod machine;
pub mod search;
pub mod thread;

pub use amount::{AmountError, Hundredths};
pub use thread::{FieldProblem, ThreadDraft, ThreadEntry, ThreadSource};
