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
use utoipa::ToSchema;
use uuid::Uuid;

/// Declares an id type: a `Uuid` column, serialised (and described in the OpenAPI document) as
/// the `Uuid`.
macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, DeriveValueType, Serialize, Deserialize, ToSchema,
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

#[cfg(test)]
mod tests {
    use sea_orm::{ActiveEnum as _, sea_query::ValueType as _};

    use super::*;
    use crate::entity::{mfa_factor::FactorStatus, one_time_token::TokenKind, session::Aal};

    /// Databases already hold these texts (migrations/ made the columns strings): a renamed
    /// variant must not change what is written or stop old rows from reading.
    #[test]
    fn enum_columns_keep_the_texts_databases_hold() {
        let roles = Role::ALL.map(|role| stored_text(&StoredRole(role)));
        assert_eq!(roles, ["owner", "admin", "member", "viewer"]);
        let statuses = MachineStatus::ALL.map(|status| stored_text(&StoredMachineStatus(status)));
        assert_eq!(statuses, ["active", "maintenance", "retired"]);
        let kinds = MaintenanceKind::ALL.map(|kind| stored_text(&StoredMaintenanceKind(kind)));
        assert_eq!(kinds, ["oiling", "hook_cleaning", "needle_change", "service", "other"]);
        let tokens = [
            TokenKind::Confirmation,
            TokenKind::Recovery,
            TokenKind::MagicLink,
            TokenKind::EmailChangeCurrent,
            TokenKind::EmailChangeNew,
        ]
        .map(|kind| kind.to_value());
        assert_eq!(
            tokens,
            ["confirmation", "recovery", "magiclink", "email_change_current", "email_change_new"]
        );
        assert_eq!([Aal::Aal1, Aal::Aal2].map(|aal| aal.to_value()), ["aal1", "aal2"]);
        let factors = [FactorStatus::Unverified, FactorStatus::Verified].map(|status| status.to_value());
        assert_eq!(factors, ["unverified", "verified"]);
    }

    #[test]
    fn every_stored_text_reads_back_and_a_foreign_one_is_an_error() {
        for role in Role::ALL {
            let read: StoredRole = parse_stored(stored_text(&StoredRole(role))).unwrap();
            assert_eq!(read.0, role);
        }
        for status in MachineStatus::ALL {
            let read: StoredMachineStatus = parse_stored(status.as_str()).unwrap();
            assert_eq!(read.0, status);
        }
        assert!(parse_stored::<StoredRole>("superuser").is_err());
        assert!(parse_stored::<StoredMaintenanceKind>("").is_err());
        // The value type a column of ids declares is the Uuid's.
        assert_eq!(TeamId::column_type(), Uuid::column_type());
    }
}
