//! Invites to a team: the `team_invites` rows. The e-mailed token is kept only as its SHA-256
//! (the caller hashes it); an invite's status follows from its times
//! ([`InviteStatus::of`]): accepted and revoked are final, a pending one expires on its own.

use crate::db::{Database, committed};
use crate::entity::ids::InvitePublicId;
use crate::repo::RepoError;
use bobbin_core::{
    email::EmailAddress,
    team::{INVITE_LIFETIME_SECONDS, InviteStatus, Role},
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    sea_query::Expr,
};
use time::{Duration, OffsetDateTime};

use crate::{
    entity::{
        ids::{InviteId, StoredRole, TeamId, UserId},
        team, team_invite, team_member, user,
    },
    repo::{
        members, new_public_id,
        users::{adopt_as_default_if_none, people_of},
    },
};

/// How many invites a team may send in an hour: a shop inviting its staff needs a few; more
/// would be someone using Bobbin to send e-mail.
pub const INVITES_PER_HOUR: u64 = 30;
/// How many invites one person may send in a day, across all their teams.
pub const INVITES_PER_INVITER_PER_DAY: u64 = 60;
/// How many invites a list holds (newest first).
const LIST_LIMIT: u64 = 200;

/// An invite, with the address of whoever sent it.
#[derive(Debug, Clone)]
pub struct Invite {
    pub id: InviteId,
    pub public_id: String,
    /// Lower-cased.
    pub email: String,
    pub role: Role,
    /// `None` once the inviter's account is gone.
    pub invited_by_email: Option<String>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    accepted_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
}

impl Invite {
    /// Whether the invite is pending, accepted, revoked or expired, now.
    pub fn status_now(&self) -> InviteStatus {
        status_now(self.accepted_at, self.revoked_at, self.expires_at)
    }
}

pub(crate) fn status_now(
    accepted_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    expires_at: OffsetDateTime,
) -> InviteStatus {
    InviteStatus::of(
        accepted_at.map(OffsetDateTime::unix_timestamp),
        revoked_at.map(OffsetDateTime::unix_timestamp),
        expires_at.unix_timestamp(),
        OffsetDateTime::now_utc().unix_timestamp(),
    )
}

/// What an invite that is not there, or not the caller's to see, answers.
pub const NOT_FOUND: &str = "There is no such invite, or it is not yours to see.";

/// Which invite: the one whose token hashes to this, or the one with this public id.
#[derive(Debug, Clone, Copy)]
pub enum Key<'a> {
    TokenHash(&'a str),
    PublicId(&'a InvitePublicId),
}

/// The team's invites, newest first ([`LIST_LIMIT`] at most).
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn of_team(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Vec<Invite>, RepoError> {
    let rows = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(team_id))
        .order_by_desc(team_invite::Column::CreatedAt)
        .limit(LIST_LIMIT)
        .all(db)
        .await?;
    with_inviters(db, rows).await
}

/// The pending invites addressed to `email`, newest first ([`LIST_LIMIT`] at most), each with
/// its team.
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn pending_for(
    db: &impl ConnectionTrait,
    email: &str,
) -> Result<Vec<(Invite, team::Model)>, RepoError> {
    let rows = team_invite::Entity::find()
        .filter(team_invite::Column::Email.eq(email))
        .filter(team_invite::Column::AcceptedAt.is_null())
        .filter(team_invite::Column::RevokedAt.is_null())
        .filter(team_invite::Column::ExpiresAt.gt(OffsetDateTime::now_utc()))
        .find_also_related(team::Entity)
        .order_by_desc(team_invite::Column::CreatedAt)
        .limit(LIST_LIMIT)
        .all(db)
        .await?;
    let (invites, teams): (Vec<_>, Vec<_>) = rows.into_iter().unzip();
    let teams = teams
        .into_iter()
        .map(|team| team.ok_or_else(|| RepoError::Broken(anyhow::anyhow!("an invite without its team"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(with_inviters(db, invites).await?.into_iter().zip(teams).collect())
}

/// An invite to write: who sends it, to which address, with which role.
#[derive(Debug)]
pub struct NewInvite<'a> {
    pub team_id: TeamId,
    pub inviter: UserId,
    pub email: &'a EmailAddress,
    pub role: Role,
    /// The SHA-256 of the token the e-mail will carry.
    pub token_hash: String,
}

/// Why [`create`] wrote no invite.
#[derive(Debug)]
pub enum CreateRefusal {
    /// The team has sent [`INVITES_PER_HOUR`] in the last hour.
    TeamHourlyLimit,
    /// The inviter has sent [`INVITES_PER_INVITER_PER_DAY`] in the last 24 hours, across teams.
    InviterDailyLimit,
    /// The address is already a member's.
    AlreadyMember,
    /// The address already has a pending invite to the team.
    Pending,
}

/// Writes a pending invite that lasts [`INVITE_LIFETIME_SECONDS`], unless one of the limits or
/// the address's membership or pending invite is in the way.
///
/// # Errors
///
/// The database's; a refusal is the inner `Err`.
pub async fn create(db: &Database, new: NewInvite<'_>) -> Result<Result<Invite, CreateRefusal>, RepoError> {
    let now = OffsetDateTime::now_utc();
    let txn = crate::db::begin_write(db).await?;
    // The inviter's row, locked (PostgreSQL; SQLite's write transaction already is): two invites
    // sent at once are counted one after the other against the daily cap.
    user::Entity::find_by_id(new.inviter).lock_exclusive().one(&txn).await?;
    let recent = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(new.team_id))
        .filter(team_invite::Column::CreatedAt.gt(now - Duration::hours(1)))
        .count(&txn)
        .await?;
    if recent >= INVITES_PER_HOUR {
        return Ok(Err(CreateRefusal::TeamHourlyLimit));
    }
    // Across all of the inviter's teams: making teams is free, e-mail to strangers is not.
    let sent_today = team_invite::Entity::find()
        .filter(team_invite::Column::InvitedBy.eq(new.inviter))
        .filter(team_invite::Column::CreatedAt.gt(now - Duration::days(1)))
        .count(&txn)
        .await?;
    if sent_today >= INVITES_PER_INVITER_PER_DAY {
        return Ok(Err(CreateRefusal::InviterDailyLimit));
    }
    let already_member = team_member::Entity::find()
        .inner_join(user::Entity)
        .filter(team_member::Column::TeamId.eq(new.team_id))
        .filter(user::Column::Email.eq(new.email.as_str()))
        .count(&txn)
        .await?
        > 0;
    if already_member {
        return Ok(Err(CreateRefusal::AlreadyMember));
    }
    let pending = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(new.team_id))
        .filter(team_invite::Column::Email.eq(new.email.as_str()))
        .filter(team_invite::Column::AcceptedAt.is_null())
        .filter(team_invite::Column::RevokedAt.is_null())
        .filter(team_invite::Column::ExpiresAt.gt(now))
        .count(&txn)
        .await?
        > 0;
    if pending {
        return Ok(Err(CreateRefusal::Pending));
    }
    let row = team_invite::ActiveModel {
        id: Set(InviteId::new()),
        public_id: Set(new_public_id()),
        team_id: Set(new.team_id),
        email: Set(new.email.as_str().to_owned()),
        role: Set(StoredRole(new.role)),
        token_hash: Set(new.token_hash),
        invited_by: Set(Some(new.inviter)),
        created_at: Set(now),
        expires_at: Set(now + Duration::seconds(INVITE_LIFETIME_SECONDS)),
        accepted_at: Set(None),
        accepted_by: Set(None),
        revoked_at: Set(None),
    }
    .insert(&txn)
    .await?;
    let invite = with_inviter(&txn, row).await?;
    txn.commit().await?;
    Ok(Ok(invite))
}

/// Deletes an invite (one whose e-mail could not go out).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &impl ConnectionTrait, id: InviteId) -> Result<(), RepoError> {
    team_invite::Entity::delete_by_id(id).exec(db).await?;
    Ok(())
}

/// Why [`revoke`] changed nothing.
#[derive(Debug)]
pub enum RevokeRefusal {
    /// No such invite, or not the caller's to revoke.
    NotFound,
    /// The invite was accepted: that is final.
    Accepted,
}

/// Revokes the invite `public_id` if `may_revoke` allows it, given the invite and the caller's
/// role in its team (`None`: not a member); answers it with its team. Revoking a revoked invite
/// changes nothing.
///
/// # Errors
///
/// The database's, or a broken row's; a refusal is the inner `Err`.
pub async fn revoke(
    db: &Database,
    public_id: &InvitePublicId,
    user_id: UserId,
    may_revoke: impl FnOnce(&Invite, Option<Role>) -> bool,
) -> Result<Result<(Invite, team::Model), RevokeRefusal>, RepoError> {
    let txn = crate::db::begin_write(db).await?;
    let Some((row, team)) = find(&txn, Key::PublicId(public_id)).await? else {
        return Ok(Err(RevokeRefusal::NotFound));
    };
    let invite = with_inviter(&txn, row).await?;
    if !may_revoke(&invite, members::role_in(&txn, team.id, user_id).await?) {
        return Ok(Err(RevokeRefusal::NotFound));
    }
    let invite = match invite.status_now() {
        InviteStatus::Accepted => return Ok(Err(RevokeRefusal::Accepted)),
        InviteStatus::Revoked => invite,
        InviteStatus::Pending | InviteStatus::Expired => {
            let row = team_invite::ActiveModel {
                id: Set(invite.id),
                revoked_at: Set(Some(OffsetDateTime::now_utc())),
                ..Default::default()
            }
            .update(&txn)
            .await?;
            Invite { revoked_at: row.revoked_at, ..invite }
        }
    };
    txn.commit().await?;
    Ok(Ok((invite, team)))
}

/// Why [`accept`] changed nothing.
#[derive(Debug)]
pub enum AcceptRefusal {
    /// No such invite, or not the caller's to accept.
    NotFound,
    Accepted,
    Revoked,
    Expired,
    /// Its sender is no longer a member whose role may grant the invite's role (or their account
    /// is gone): the invite carries no more than its sender could give now.
    Void {
        role: Role,
    },
    /// The caller is already a member of the invite's team.
    AlreadyMember {
        team_name: String,
    },
}

/// A just accepted invite, the team it led into and how many members that team has now.
#[derive(Debug)]
pub struct Accepted {
    pub invite: Invite,
    pub team: team::Model,
    pub member_count: u64,
}

/// Accepts the invite `key` names for `user`, if `may_accept` allows them and its sender may
/// still grant its role ([`Role::may_grant`]): they join its team with its role, and the team
/// becomes their default (someone who just accepted an invite wants to see that team).
///
/// The team's row is locked before the invite and its sender's role are read, as a change of
/// role or a removal locks it ([`members::put`], [`members::remove`]): one that commits first is
/// seen here, and one that comes later waits for this acceptance.
///
/// # Errors
///
/// The database's, or a broken row's; a refusal is the inner `Err`.
pub async fn accept(
    db: &Database,
    key: Key<'_>,
    user_id: UserId,
    may_accept: impl FnOnce(&Invite) -> bool,
) -> Result<Result<Accepted, AcceptRefusal>, RepoError> {
    committed(db, async |txn| {
        let Some((_, team)) = find(txn, key).await? else {
            return Ok(Err(AcceptRefusal::NotFound));
        };
        members::lock_team(txn, team.id).await?;
        // Read again under the lock: a revocation may have committed while this waited for it.
        let Some((row, team)) = find(txn, key).await? else {
            return Ok(Err(AcceptRefusal::NotFound));
        };
        let sender = row.invited_by;
        let invite = with_inviter(txn, row).await?;
        if !may_accept(&invite) {
            return Ok(Err(AcceptRefusal::NotFound));
        }
        match invite.status_now() {
            InviteStatus::Pending => {}
            InviteStatus::Accepted => return Ok(Err(AcceptRefusal::Accepted)),
            InviteStatus::Revoked => return Ok(Err(AcceptRefusal::Revoked)),
            InviteStatus::Expired => return Ok(Err(AcceptRefusal::Expired)),
        }
        if !sender_may_grant(txn, team.id, sender, invite.role).await? {
            return Ok(Err(AcceptRefusal::Void { role: invite.role }));
        }
        if members::role_in(txn, team.id, user_id).await?.is_some() {
            return Ok(Err(AcceptRefusal::AlreadyMember { team_name: team.name }));
        }
        members::insert(txn, team.id, user_id, invite.role).await?;
        let row = team_invite::ActiveModel {
            id: Set(invite.id),
            accepted_at: Set(Some(OffsetDateTime::now_utc())),
            accepted_by: Set(Some(user_id)),
            ..Default::default()
        }
        .update(txn)
        .await?;
        let invite = Invite { accepted_at: row.accepted_at, ..invite };
        user::Entity::update(user::ActiveModel {
            id: Set(user_id),
            default_team_id: Set(Some(team.id)),
            ..Default::default()
        })
        .exec(txn)
        .await?;
        adopt_as_default_if_none(txn, user_id, team.id).await?;
        let member_count = members::count(txn, team.id).await?;
        Ok(Ok(Accepted { invite, team, member_count }))
    })
    .await
}

/// Whether `sender` (`None`: their account is gone) is a member of the team whose role may
/// grant `role` now.
async fn sender_may_grant(
    db: &impl ConnectionTrait,
    team_id: TeamId,
    sender: Option<UserId>,
    role: Role,
) -> Result<bool, RepoError> {
    let Some(sender) = sender else {
        return Ok(false);
    };
    Ok(members::role_in(db, team_id, sender).await?.is_some_and(|theirs| theirs.may_grant(role)))
}

/// Revokes the pending invites `sender` sent to the team whose role their role now (`None`: no
/// longer a member) may not grant ([`Role::may_grant`]), in the caller's transaction: the one
/// that changes their role or removes them. Expired and answered invites stay as they are.
/// Deleting an account removes its person's unanswered invites instead
/// ([`crate::repo::account::delete`]).
pub(crate) async fn revoke_beyond(
    txn: &DatabaseTransaction,
    team_id: TeamId,
    sender: UserId,
    role: Option<Role>,
) -> Result<(), RepoError> {
    let beyond: Vec<StoredRole> = Role::ALL
        .into_iter()
        .filter(|invited| !role.is_some_and(|role| role.may_grant(*invited)))
        .map(StoredRole)
        .collect();
    if beyond.is_empty() {
        return Ok(());
    }
    let now = OffsetDateTime::now_utc();
    team_invite::Entity::update_many()
        .col_expr(team_invite::Column::RevokedAt, Expr::value(now))
        .filter(team_invite::Column::TeamId.eq(team_id))
        .filter(team_invite::Column::InvitedBy.eq(sender))
        .filter(team_invite::Column::Role.is_in(beyond))
        .filter(team_invite::Column::AcceptedAt.is_null())
        .filter(team_invite::Column::RevokedAt.is_null())
        .filter(team_invite::Column::ExpiresAt.gt(now))
        .exec(txn)
        .await?;
    Ok(())
}

/// What an invite's link shows before anyone signs in: the team's name, who sent it (`None`
/// once their account is gone) and whether it is still pending.
#[derive(Debug)]
pub struct Preview {
    pub team_name: String,
    pub inviter: Option<user::Model>,
    pub status: InviteStatus,
    pub role: Role,
    /// Whether its sender may still grant its role ([`accept`] refuses it otherwise).
    pub sender_may_grant: bool,
}

/// The invite whose token hashes to `token_hash`, as its link shows it before a sign-in.
///
/// # Errors
///
/// The database's.
pub async fn preview(db: &impl ConnectionTrait, token_hash: &str) -> Result<Option<Preview>, RepoError> {
    let Some((row, team)) = find(db, Key::TokenHash(token_hash)).await? else {
        return Ok(None);
    };
    let inviter = match row.invited_by {
        Some(id) => user::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    let status = status_now(row.accepted_at, row.revoked_at, row.expires_at);
    let sender_may_grant = sender_may_grant(db, team.id, row.invited_by, row.role.0).await?;
    Ok(Some(Preview { team_name: team.name, inviter, status, role: row.role.0, sender_may_grant }))
}

async fn find(
    db: &impl ConnectionTrait,
    key: Key<'_>,
) -> Result<Option<(team_invite::Model, team::Model)>, RepoError> {
    let which = match key {
        Key::TokenHash(hash) => team_invite::Column::TokenHash.eq(hash),
        Key::PublicId(public_id) => team_invite::Column::PublicId.eq(public_id.as_str()),
    };
    let found = team_invite::Entity::find().filter(which).find_also_related(team::Entity).one(db).await?;
    Ok(match found {
        Some((invite, Some(team))) => Some((invite, team)),
        _ => None,
    })
}

async fn with_inviter(db: &impl ConnectionTrait, row: team_invite::Model) -> Result<Invite, RepoError> {
    let mut invites = with_inviters(db, vec![row]).await?;
    invites.pop().ok_or_else(|| RepoError::Broken(anyhow::anyhow!("an invite lost on the way")))
}

/// The rows as invites, their inviters' addresses read in one query.
async fn with_inviters(
    db: &impl ConnectionTrait,
    rows: Vec<team_invite::Model>,
) -> Result<Vec<Invite>, RepoError> {
    let inviters = people_of(db, rows.iter().filter_map(|row| row.invited_by)).await?;
    rows.into_iter()
        .map(|row| {
            Ok(Invite {
                role: row.role.0,
                invited_by_email: row
                    .invited_by
                    .and_then(|id| inviters.get(&id))
                    .map(|person| person.email.clone()),
                id: row.id,
                public_id: row.public_id,
                email: row.email,
                created_at: row.created_at,
                expires_at: row.expires_at,
                accepted_at: row.accepted_at,
                revoked_at: row.revoked_at,
            })
        })
        .collect()
}
