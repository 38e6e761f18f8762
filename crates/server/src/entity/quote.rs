use sea_orm::entity::prelude::*;
use time::{Date, OffsetDateTime};

use super::ids::{JobId, ObjectId, QuoteId, StoredQuoteStatus, TeamId, UserId};

/// A quote (`crate::routes::quotes`): what the calculator priced (migration 5), the design of the
/// library it was priced from (migration 17), and the document its customer sees (migration 19).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quotes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: QuoteId,
    pub public_id: String,
    pub team_id: TeamId,
    pub name: String,
    pub currency: String,
    /// The quantity of the option shown in the list: the one chosen once approved, else the first.
    pub quantity: i32,
    /// That option's price a piece before tax, decimal text, e.g. `"7.12"`.
    pub per_piece: String,
    /// That option's total with tax.
    pub total: String,
    /// JSON text: `{ rates, job, design }`.
    pub input: String,
    /// JSON text: the core's `Quote`, as the calculator showed it.
    pub result: String,
    pub created_by: Option<UserId>,
    pub created_at: OffsetDateTime,
    /// The design of the team's library it was priced from (`storage_objects.id`), if any; it
    /// may since have been removed (migration 17).
    pub design_id: Option<ObjectId>,
    /// 1, 2, ... in the team: shown as `Q-0001`.
    pub number: i32,
    pub status: StoredQuoteStatus,
    /// The version: 1, raised by each change the shop makes.
    pub revision: i32,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_company: String,
    /// JSON text: the core's `quote::Terms`.
    pub terms: String,
    /// JSON text: the core's `quote::OptionPrice` for each quantity offered.
    pub offer: String,
    /// The last day it may be approved.
    pub valid_until: Date,
    /// The day its latest version was made.
    pub issued_on: Date,
    /// Who last sent it: the team member told of the customer's answers.
    pub sent_by: Option<UserId>,
    /// JSON text: the customer's answer (`repo::quotes::Answer`), once given.
    pub answer: Option<String>,
    /// The job made from it, once approved.
    pub job_id: Option<JobId>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
