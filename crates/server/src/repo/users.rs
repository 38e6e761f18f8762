//! People as the product API shows them: who changed an entry, who saved a quote.

use crate::db::Database;
use crate::repo::RepoError;
use std::collections::HashMap;

use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, Condition, ConnectionTrait, DbErr,
    EntityTrait as _, QueryFilter as _, QueryTrait, SelectTwo, prelude::Expr, sea_query::ExprTrait as _,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{
    auth::user::full_name,
    entity::{
        ids::{TeamId, UserId},
        session, team, team_member, user,
    },
    repo::auth::sessions::{self, SignedIn},
};

/// Someone named in an answer: their address, and their full name where they gave one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Person {
    pub email: String,
    pub name: Option<String>,
}

impl Person {
    /// The person as answers name them.
    pub fn of(user: &user::Model) -> Self {
        Self { email: user.email.clone(), name: full_name(user) }
    }

    /// About how many bytes the person takes in memory beyond their own size: their texts.
    pub fn weight(&self) -> usize {
        self.email.len() + self.name.as_ref().map_or(0, String::len)
    }

    /// The map that [`people_of`] answers, holding only `user`: for an answer about a change
    /// `user` has just made, so that it reads nobody from the database.
    pub fn only(user: &user::Model) -> HashMap<UserId, Self> {
        HashMap::from([(user.id, Self::of(user))])
    }
}

/// Each of these users (who changed an entry, who saved a quote), read in one query.
pub async fn people_of(
    db: &impl ConnectionTrait,
    ids: impl Iterator<Item = UserId>,
) -> Result<HashMap<UserId, Person>, DbErr> {
    let mut ids: Vec<UserId> = ids.collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let users = user::Entity::find().filter(user::Column::Id.is_in(ids)).all(db).await?;
    Ok(users.into_iter().map(|user| (user.id, Person::of(&user))).collect())
}

/// The public id of the person's default team, while they are still its member (`None` once they
/// have left it, or while they have none).
///
/// # Errors
///
/// The database's.
pub async fn default_team_public_id(
    db: &impl ConnectionTrait,
    user: &user::Model,
) -> Result<Option<String>, RepoError> {
    let Some(team_id) = user.default_team_id else { return Ok(None) };
    if team_member::Entity::find_by_id((team_id, user.id)).one(db).await?.is_none() {
        return Ok(None);
    }
    Ok(team::Entity::find_by_id(team_id).one(db).await?.map(|team| team.public_id))
}

/// What the profile (`GET /users/me`) reads, in one query: the sign-in check of
/// [`sessions::signed_in`] and the public id of the person's default team, as
/// [`default_team_public_id`] reads it (null while they have none, or once they have left it).
/// `None` when there is no such session. The app asks for the profile on every page load, and it
/// was three round trips: the sign-in check, the membership, the team.
///
/// # Errors
///
/// The database's.
pub async fn signed_in_profile(
    db: &impl ConnectionTrait,
    session_id: Uuid,
    user_id: UserId,
) -> Result<Option<(SignedIn, Option<String>)>, DbErr> {
    let query = signed_in_profile_query(session_id, user_id).build(db.get_database_backend());
    let Some(row) = db.query_one_raw(query).await? else {
        return Ok(None);
    };
    Ok(Some((SignedIn::of_row(&row)?, row.try_get("", "default_team_pid")?)))
}

/// The query of [`signed_in_profile`].
fn signed_in_profile_query(session_id: Uuid, user_id: UserId) -> SelectTwo<session::Entity, user::Entity> {
    let mut select = sessions::signed_in_query(session_id, user_id);
    let in_default_team = Condition::all()
        .add(
            Expr::col((team_member::Entity, team_member::Column::TeamId))
                .equals((user::Entity, user::Column::DefaultTeamId)),
        )
        .add(
            Expr::col((team_member::Entity, team_member::Column::UserId))
                .equals((user::Entity, user::Column::Id)),
        );
    QueryTrait::query(&mut select)
        .left_join(team_member::Entity, in_default_team)
        .left_join(
            team::Entity,
            Expr::col((team::Entity, team::Column::Id))
                .equals((team_member::Entity, team_member::Column::TeamId)),
        )
        .expr_as(Expr::col((team::Entity, team::Column::PublicId)), "default_team_pid");
    select
}

/// Makes `team_id` the person's default team; answers them as they are now. The caller has
/// checked that they are its member.
///
/// # Errors
///
/// The database's.
pub async fn set_default_team(
    db: &Database,
    user_id: UserId,
    team_id: TeamId,
) -> Result<user::Model, RepoError> {
    let chosen = user::ActiveModel {
        id: Set(user_id),
        default_team_id: Set(Some(team_id)),
        updated_at: Set(OffsetDateTime::now_utc()),
        ..Default::default()
    };
    Ok(crate::db::committed(db, async |txn| chosen.update(txn).await).await?)
}

/// Makes `team_id` the person's default team if they have none yet: the first team someone
/// creates or joins is the one the app opens.
///
/// # Errors
///
/// The database's.
pub(crate) async fn adopt_as_default_if_none(
    db: &impl ConnectionTrait,
    user_id: UserId,
    team_id: TeamId,
) -> Result<(), RepoError> {
    user::Entity::update_many()
        .col_expr(user::Column::DefaultTeamId, Expr::value(team_id))
        .filter(user::Column::Id.eq(user_id))
        .filter(user::Column::DefaultTeamId.is_null())
        .exec(db)
        .await?;
    Ok(())
}
