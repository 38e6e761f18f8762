//! Who is in which team with which role: the `team_members` rows.
//!
//! A change that counts owners ([`put`], [`remove`]) locks the team's row first, so two owners
//! demoting each other at the same moment cannot leave a team without one: the core's rules
//! (`bobbin_core::team`) decide on the roles and the owner count read under that lock, in the
//! change's own transaction.
//!
//! A role is read from its row as a [`Role`] by the entity layer ([`StoredRole`]), so no one
//! here parses role names.

use crate::db::{Database, committed};
use crate::repo::RepoError;
use bobbin_core::team::{self as rules, MembershipError, Role};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QuerySelect as _,
};
use time::OffsetDateTime;

use crate::{
    entity::{
        ids::{StoredRole, TeamId, UserId},
        team, team_member, user,
    },
    repo::{invites, users::adopt_as_default_if_none},
};

/// What a person who is not a member of the team answers.
pub const NOT_A_MEMBER: &str = "That person is not a member of this team.";

/// A member of a team: the person, their role and when they joined.
#[derive(Debug, Clone)]
pub struct Member {
    pub user: user::Model,
    pub role: Role,
    pub joined_at: OffsetDateTime,
}

/// The team's members, in no particular order.
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn of_team(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Member>, RepoError> {
    team_member::Entity::find()
        .filter(team_member::Column::TeamId.eq(team_id))
        .find_also_related(user::Entity)
        .all(db)
        .await?
        .into_iter()
        .map(|(membership, person)| {
            let person =
                person.ok_or_else(|| RepoError::Broken(anyhow::anyhow!("a membership without its user")))?;
            Ok(member(&membership, person))
        })
        .collect()
}

/// How many members the team has.
///
/// # Errors
///
/// The database's.
pub async fn count(db: &impl ConnectionTrait, team_id: TeamId) -> Result<u64, RepoError> {
    Ok(team_member::Entity::find().filter(team_member::Column::TeamId.eq(team_id)).count(db).await?)
}

/// `user_id`'s role in the team, if they are a member.
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn role_in(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    user_id: UserId,
) -> Result<Option<Role>, RepoError> {
    Ok(find(db, team_id, user_id).await?.map(|row| row.role.0))
}

/// Why [`put`] changed nothing.
#[derive(Debug)]
pub enum PutRefusal {
    /// The actor is no longer a member of the team.
    ActorLeft,
    /// The actor's role does not allow the change, or it would leave the team without an owner.
    Rule(MembershipError),
    /// The person to add shares no team with the actor.
    NotTeammate,
}

/// What [`put`] did.
#[derive(Debug)]
pub enum Placed {
    Added(Member),
    Changed(Member),
}

/// Adds `user_id` to the team with `role`, or changes their role to it, as `actor` asks: the
/// core decides whether the actor may ([`rules::check_role_change`]). Only someone who already
/// shares a team with the actor can be added, so nobody is put into a stranger's team. Someone
/// added who had no default team gets this one. A member whose role changes loses, in the same
/// transaction, the pending invites they sent that the new role could not send
/// ([`invites::revoke_beyond`]).
///
/// # Errors
///
/// The database's, or a broken row's; a refusal is the inner `Err`.
pub async fn put(
    db: &Database,
    team_id: TeamId,
    actor: UserId,
    user_id: UserId,
    role: Role,
) -> Result<Result<Placed, PutRefusal>, RepoError> {
    committed(db, async |txn| {
        let Some(actor_role) = lock_for(txn, team_id, actor).await? else {
            return Ok(Err(PutRefusal::ActorLeft));
        };
        let current = role_in(txn, team_id, user_id).await?;
        if let Err(error) =
            rules::check_role_change(actor_role, current, role, owner_count(txn, team_id).await?)
        {
            return Ok(Err(PutRefusal::Rule(error)));
        }
        let added = current.is_none();
        if added {
            if !shares_a_team(txn, actor, user_id).await? {
                return Ok(Err(PutRefusal::NotTeammate));
            }
            insert(txn, team_id, user_id, role).await?;
            adopt_as_default_if_none(txn, user_id, team_id).await?;
        } else {
            team_member::ActiveModel {
                team_id: Set(team_id),
                user_id: Set(user_id),
                role: Set(StoredRole(role)),
                updated_at: Set(OffsetDateTime::now_utc()),
                ..Default::default()
            }
            .update(txn)
            .await?;
            invites::revoke_beyond(txn, team_id, user_id, Some(role)).await?;
        }
        let membership = find(txn, team_id, user_id)
            .await?
            .ok_or_else(|| RepoError::Broken(anyhow::anyhow!("the membership just written is gone")))?;
        let person = user::Entity::find_by_id(user_id)
            .one(txn)
            .await?
            .ok_or_else(|| RepoError::Broken(anyhow::anyhow!("a member without an account")))?;
        let member = member(&membership, person);
        Ok(Ok(if added { Placed::Added(member) } else { Placed::Changed(member) }))
    })
    .await
}

/// Why [`remove`] changed nothing.
#[derive(Debug)]
pub enum RemoveRefusal {
    /// The actor is no longer a member of the team.
    ActorLeft,
    /// `user_id` is not a member of the team.
    NotAMember,
    /// The actor's role does not allow it, or the team would be left without an owner.
    Rule(MembershipError),
}

/// Removes `user_id` from the team as `actor` asks (the same person: they leave); the core
/// decides whether the actor may ([`rules::check_removal`]). Their settings in the team go with
/// the membership (foreign keys cascade); the pending invites they sent to it are revoked in the
/// same transaction ([`invites::revoke_beyond`]).
///
/// # Errors
///
/// The database's, or a broken row's; a refusal is the inner `Err`.
pub async fn remove(
    db: &Database,
    team_id: TeamId,
    actor: UserId,
    user_id: UserId,
) -> Result<Result<(), RemoveRefusal>, RepoError> {
    committed(db, async |txn| {
        let Some(actor_role) = lock_for(txn, team_id, actor).await? else {
            return Ok(Err(RemoveRefusal::ActorLeft));
        };
        let Some(target_role) = role_in(txn, team_id, user_id).await? else {
            return Ok(Err(RemoveRefusal::NotAMember));
        };
        let leaving = user_id == actor;
        if let Err(error) =
            rules::check_removal(actor_role, target_role, leaving, owner_count(txn, team_id).await?)
        {
            return Ok(Err(RemoveRefusal::Rule(error)));
        }
        team_member::Entity::delete_by_id((team_id, user_id)).exec(txn).await?;
        invites::revoke_beyond(txn, team_id, user_id, None).await?;
        Ok(Ok(()))
    })
    .await
}

/// Makes `user_id` a member of the team with `role`; the caller's transaction checks first.
pub(crate) async fn insert(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    user_id: UserId,
    role: Role,
) -> Result<(), RepoError> {
    let now = OffsetDateTime::now_utc();
    team_member::ActiveModel {
        team_id: Set(team_id),
        user_id: Set(user_id),
        role: Set(StoredRole(role)),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// How many teams `user_id` owns.
pub(crate) async fn owned_by(db: &impl ConnectionTrait, user_id: UserId) -> Result<u64, RepoError> {
    Ok(team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(user_id))
        .filter(team_member::Column::Role.eq(StoredRole(Role::Owner)))
        .count(db)
        .await?)
}

async fn find(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    user_id: UserId,
) -> Result<Option<team_member::Model>, RepoError> {
    Ok(team_member::Entity::find_by_id((team_id, user_id)).one(db).await?)
}

fn member(membership: &team_member::Model, person: user::Model) -> Member {
    Member { role: membership.role.0, joined_at: membership.created_at, user: person }
}

pub(crate) async fn owner_count(db: &impl ConnectionTrait, team_id: TeamId) -> Result<usize, RepoError> {
    let owners = team_member::Entity::find()
        .filter(team_member::Column::TeamId.eq(team_id))
        .filter(team_member::Column::Role.eq(StoredRole(Role::Owner)))
        .count(db)
        .await?;
    Ok(usize::try_from(owners).unwrap_or(usize::MAX))
}

/// Holds the team's row until the transaction ends (PostgreSQL; SQLite's write transactions
/// already run one at a time), so roles and owner counts cannot change underneath: every change
/// of a member's role, a removal and an acceptance of an invite take it first.
pub(crate) async fn lock_team(txn: &DatabaseTransaction, team_id: TeamId) -> Result<(), RepoError> {
    team::Entity::find_by_id(team_id).lock_exclusive().one(txn).await?;
    Ok(())
}

/// [`lock_team`], then the actor's role as it is now (`None`: no longer a member): the one the
/// extractor read may have changed since.
async fn lock_for(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    actor: UserId,
) -> Result<Option<Role>, RepoError> {
    lock_team(txn, team_id).await?;
    role_in(txn, team_id, actor).await
}

async fn shares_a_team(db: &impl ConnectionTrait, actor: UserId, other: UserId) -> Result<bool, RepoError> {
    let actor_teams: Vec<TeamId> = team_member::Entity::find()
        .select_only()
        .column(team_member::Column::TeamId)
        .filter(team_member::Column::UserId.eq(actor))
        .into_tuple()
        .all(db)
        .await?;
    let shared = team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(other))
        .filter(team_member::Column::TeamId.is_in(actor_teams))
        .count(db)
        .await?;
    Ok(shared > 0)
}
