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
    job::JobStatus,
    quote::QuoteStatus,
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

        impl std::str::FromStr for $name {
            type Err = NotAnId;

            fn from_str(text: &str) -> Result<Self, NotAnId> {
                Uuid::parse_str(text).map(Self).map_err(|_| NotAnId)
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
    /// A file in a team's bucket (the storage service area).
    ObjectId;
    /// A job.
    JobId;
    /// A change of the inventory's stock made by a job or an order.
    StockChangeId;
    /// One entry's part of a stock change.
    StockLineId;
    /// Spools ordered for the shopping list.
    OrderId;
    /// An earlier version of a quote.
    QuoteRevisionId;
    /// A line of a quote's history.
    QuoteEventId;
    /// A link to a quote sent to its customer.
    QuoteLinkId;
}

/// Declares a public id type: the 16 letters and digits (`repo::new_public_id`) that name a
/// record in paths and answers. Only a text of that shape parses into one, so a malformed id is
/// refused before any query, and a thread's id cannot be passed where a machine's is expected.
macro_rules! public_id_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = NotAnId;

            fn from_str(text: &str) -> Result<Self, NotAnId> {
                is_public_id(text).then(|| Self(text.to_owned())).ok_or(NotAnId)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

public_id_type! {
    /// The public id of an entry of a team's thread inventory.
    ThreadPublicId;
    /// The public id of a team's machine.
    MachinePublicId;
    /// The public id of an entry of a machine's maintenance log.
    LogPublicId;
    /// The public id of a saved quote.
    QuotePublicId;
    /// The public id of an invite.
    InvitePublicId;
    /// The public id of a job.
    JobPublicId;
    /// The public id of a stock change.
    StockChangePublicId;
    /// The public id of an order.
    OrderPublicId;
}

/// Whether `text` has the shape of a public id: 16 ASCII letters and digits.
fn is_public_id(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|byte| byte.is_ascii_alphanumeric())
}

/// A text that is not an id of the kind asked for.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("not an id")]
pub struct NotAnId;

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
    /// Where a job is.
    StoredJobStatus(JobStatus);
    /// Where a quote is (as stored: never `expired`, which follows from the date).
    StoredQuoteStatus(QuoteStatus);
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

    #[test]
    fn a_public_id_is_sixteen_letters_and_digits_and_nothing_else() {
        let made = crate::repo::new_public_id();
        assert_eq!(made.parse::<ThreadPublicId>().unwrap().as_str(), made);
        for malformed in [
            "",
            "abc",
            "AAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAA-",
            "AAAAAAAAAAAAAAAé",
            "' OR 1=1 --------",
        ] {
            assert!(malformed.parse::<MachinePublicId>().is_err(), "{malformed:?}");
        }
        assert!("not-a-uuid".parse::<UserId>().is_err());
        let user = UserId::new();
        assert_eq!(user.to_string().parse::<UserId>().unwrap(), user);
    }

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
