//! Typed ids and enum columns.
//!
//! Every table's id is its own type, so a team's id cannot be passed where a user's is expected;
//! the compiler checks what a `Uuid` everywhere could not. Columns that hold one of the core's
//! enums (a role, a machine's status, a maintenance kind) are read into that enum by the entity
//! layer, once, instead of as strings every handler parses.
//!
//! The enum columns wrap the core's enums in a local type (`StoredRole` and the like) because the core stays
//! free of sea-orm and Rust's orphan rule forbids implementing sea-orm's traits for the core's
//! types here; sea-orm's `DeriveActiveEnum` would need a second copy of each enum's variants.

use std::fmt;

use bobbin_core::{
    inventory::machine::{MachineStatus, MaintenanceKind},
    team::Role,
};
use sea_orm::{DbErr, DeriveValueType, TryFromU64};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Declares an id type: a `Uuid` column, serialised as the `Uuid`.
macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, DeriveValueType, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A new random id (version 4).
            pub fn new() -> Self {
                Self(Uuid::new_v4())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$name> for Uuid {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        // A primary key must say whether an auto-increment number can be one: never, ids are
        // random.
        impl TryFromU64 for $name {
            fn try_from_u64(_: u64) -> Result<Self, DbErr> {
                Err(DbErr::ConvertFromU64(stringify!($name)))
            }
        }
    )*};
}

id_type! {
    /// A team.
    TeamId;
    /// A person (the auth service's user).
    UserId;
    /// An entry of a team's thread inventory.
    ThreadId;
    /// A machine of a team.
    MachineId;
    /// An entry of a machine's maintenance log.
    LogId;
    /// A saved quote.
    QuoteId;
    /// An invite to a team.
    InviteId;
}

/// Declares a column type holding one of the core's enums as its `as_str` text.
macro_rules! stored_enum {
    ($($(#[$doc:meta])* $name:ident($inner:ty);)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, DeriveValueType)]
        #[sea_orm(value_type = "String", from_str = "parse_stored", to_str = "stored_text")]
        pub struct $name(pub $inner);

        impl StoredText for $name {
            fn parse(text: &str) -> Option<Self> {
                <$inner>::ALL.into_iter().find(|value| value.as_str() == text).map(Self)
            }

            fn text(&self) -> &'static str {
                self.0.as_str()
            }
        }

        impl From<$inner> for $name {
            fn from(value: $inner) -> Self {
                Self(value)
            }
        }
    )*};
}

stored_enum! {
    /// A member's or an invite's role.
    StoredRole(Role);
    /// A machine's status.
    StoredMachineStatus(MachineStatus);
    /// What a maintenance log entry did.
    StoredMaintenanceKind(MaintenanceKind);
}

/// What `DeriveValueType` needs of an enum column: its text, and the variant of a text.
trait StoredText: Sized {
    fn parse(text: &str) -> Option<Self>;
    fn text(&self) -> &'static str;
}

fn parse_stored<T: StoredText>(text: &str) -> Result<T, UnknownValue> {
    T::parse(text).ok_or_else(|| UnknownValue(text.to_owned()))
}

fn stored_text<T: StoredText>(value: &T) -> &'static str {
    value.text()
}

/// A column held a text no variant has: a broken row (or a newer server's value).
#[derive(Debug, thiserror::Error)]
#[error("\"{0}\" is not a stored value of this column")]
pub struct UnknownValue(String);
