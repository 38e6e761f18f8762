//! A person's own account: what deleting it takes with it, and what their data download holds
//! (docs/behaviour.md, "Your account and your data").

use crate::db::Database;
use crate::repo::RepoError;
use bobbin_core::team::Role;
use sea_orm::{
    ColumnTrait as _, Condition, ConnectionTrait, EntityTrait as _, QueryFilter as _, QueryOrder as _,
    QuerySelect as _, sea_query::Query,
};
use serde_json::Value;
use std::collections::BTreeMap;

use crate::{
    db::committed,
    entity::{identity, ids::UserId, inventory_thread, mfa_factor, session, team, team_invite, user},
    repo::{
        auth::{factors, identities},
        members,
        settings::{self, Scope},
        teams::{self, Joined},
    },
};

/// What deleting an account does to the teams its person owns.
#[derive(Debug, Default)]
pub struct Deletion {
    /// Teams they are the only owner of that have other members: to be handed over (someone
    /// else made owner) or deleted before the account can go. By name.
    pub blocking: Vec<Joined>,
    /// Teams they are the only member of: deleted with the account, with everything in them.
    /// By name.
    pub going: Vec<Joined>,
}

/// What deleting `user_id`'s account would do to their teams, as things are now. Teams with
/// another owner are left out: the person only leaves them.
///
/// # Errors
///
/// The database's.
pub async fn deletion(db: &impl ConnectionTrait, user_id: UserId) -> Result<Deletion, RepoError> {
    let mut plan = Deletion::default();
    for joined in teams::of_user(db, user_id).await? {
        if joined.role != Role::Owner || members::owner_count(db, joined.team.id).await? > 1 {
            continue;
        }
        if joined.member_count > 1 {
            plan.blocking.push(joined);
        } else {
            plan.going.push(joined);
        }
    }
    for teams in [&mut plan.blocking, &mut plan.going] {
        teams.sort_by_cached_key(|joined| (joined.team.name.to_lowercase(), joined.team.public_id.clone()));
    }
    Ok(plan)
}

/// Deletes `user_id`'s account, unless a team they alone own has other members (the inner
/// `Err`, those teams by name). In one transaction:
///
/// - the teams they are the only member of, with everything in them;
/// - the invites they sent that were never answered, pending or expired (an accepted or
///   revoked one stays in its team's list, its sender shown as gone);
/// - the user row, and with it, through the foreign keys, their identities, sessions and
///   refresh tokens, factors and challenges, one-time tokens and sign-in flows, memberships and
///   their own settings in each team. What they wrote in teams that stay (threads, machines and
///   their logs, quotes) stays, no longer pointing at anyone (`updated_by`, `recorded_by`,
///   `created_by` become null: the app shows "A former member").
///
/// The person's owned teams are locked first (PostgreSQL), so nobody joins a team of theirs
/// between the count of its members and its deletion; so are the teams with an entry they
/// changed last (see below).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &Database, user_id: UserId) -> Result<Result<(), Vec<Joined>>, RepoError> {
    committed(db, async |txn| {
        // The person's row first (PostgreSQL; SQLite's write transaction already is locked), as
        // `teams::create` does: no team of theirs appears between this read and the deletion.
        user::Entity::find_by_id(user_id).lock_exclusive().one(txn).await?;
        let owned: Vec<_> = teams::of_user(txn, user_id)
            .await?
            .into_iter()
            .filter(|joined| joined.role == Role::Owner)
            .map(|joined| joined.team.id)
            .collect();
        // With them, the teams holding an entry the person changed last, whose thread revision
        // their removal changes (migration 10, through the entries' `updated_by`) at the commit:
        // locked now, in one order, so two co-owners deleting their accounts at once cannot
        // deadlock.
        let changed_last = Query::select()
            .column(inventory_thread::Column::TeamId)
            .from(inventory_thread::Entity)
            .and_where(inventory_thread::Column::UpdatedBy.eq(user_id))
            .to_owned();
        team::Entity::find()
            .filter(
                Condition::any()
                    .add(team::Column::Id.is_in(owned))
                    .add(team::Column::Id.in_subquery(changed_last)),
            )
            .order_by_asc(team::Column::Id)
            .lock_exclusive()
            .all(txn)
            .await?;
        let plan = deletion(txn, user_id).await?;
        if !plan.blocking.is_empty() {
            return Ok(Err(plan.blocking));
        }
        for joined in &plan.going {
            teams::delete(txn, joined.team.id).await?;
        }
        team_invite::Entity::delete_many()
            .filter(team_invite::Column::InvitedBy.eq(user_id))
            .filter(team_invite::Column::AcceptedAt.is_null())
            .filter(team_invite::Column::RevokedAt.is_null())
            .exec(txn)
            .await?;
        user::Entity::delete_by_id(user_id).exec(txn).await?;
        Ok(Ok(()))
    })
    .await
}

/// A team the person belongs to, with their own settings in it.
#[derive(Debug)]
pub struct Membership {
    pub joined: Joined,
    pub settings: BTreeMap<String, Value>,
}

/// Everything stored about one person, for their data download.
#[derive(Debug)]
pub struct PersonalData {
    pub identities: Vec<identity::Model>,
    pub factors: Vec<mfa_factor::Model>,
    pub sessions: Vec<session::Model>,
    pub memberships: Vec<Membership>,
    /// Invites they sent, newest first, each with its team.
    pub invites_sent: Vec<(team_invite::Model, Option<team::Model>)>,
    /// Invites addressed to their address, newest first, each with its team.
    pub invites_received: Vec<(team_invite::Model, Option<team::Model>)>,
}

/// Everything stored about `person` besides their user row.
///
/// # Errors
///
/// The database's, or a stored setting's that is not JSON.
pub async fn personal_data(
    db: &impl ConnectionTrait,
    person: &user::Model,
) -> Result<PersonalData, RepoError> {
    let mut memberships = Vec::new();
    for joined in teams::of_user(db, person.id).await? {
        let scope = Scope::Member { team_id: joined.team.id, user_id: person.id };
        memberships.push(Membership { settings: settings::all(db, scope).await?, joined });
    }
    memberships.sort_by_cached_key(|membership| membership.joined.team.name.to_lowercase());
    let sessions = session::Entity::find()
        .filter(session::Column::UserId.eq(person.id))
        .order_by_desc(session::Column::CreatedAt)
        .all(db)
        .await?;
    let sent = team_invite::Column::InvitedBy.eq(person.id);
    let received = team_invite::Column::Email.eq(person.email.to_lowercase());
    let mut found = Vec::new();
    for which in [sent, received] {
        found.push(
            team_invite::Entity::find()
                .filter(which)
                .find_also_related(team::Entity)
                .order_by_desc(team_invite::Column::CreatedAt)
                .all(db)
                .await?,
        );
    }
    let invites_received = found.pop().unwrap_or_default();
    let invites_sent = found.pop().unwrap_or_default();
    Ok(PersonalData {
        identities: identities::of_user(db, person.id).await?,
        factors: factors::of_user(db, person.id).await?,
        sessions,
        memberships,
        invites_sent,
        invites_received,
    })
}
