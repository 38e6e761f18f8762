//! Teams: the `teams` rows, and which of them a person belongs to.

use crate::db::Database;
use crate::repo::RepoError;
use bobbin_core::{
    inventory::Hundredths,
    team::{Role, TeamName},
};
use sea_orm::{
    ActiveModelTrait as _,
    ActiveValue::Set,
    ColumnTrait as _, Condition, ConnectionTrait, DbErr, EntityTrait, FromQueryResult, IdenStatic as _,
    Iterable as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QueryResult, QuerySelect as _,
    QueryTrait, SelectTwo,
    sea_query::{Alias, Expr, ExprTrait as _, Query, SelectStatement},
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{
    entity::{
        ids::{TeamId, UserId},
        inventory_thread, machine, quote, session, team, team_member, user,
    },
    repo::{
        auth::sessions::{self, SignedIn},
        members, new_public_id, settings,
        users::adopt_as_default_if_none,
    },
};

/// How many teams one person may own: enough for any shop, few enough that a script cannot
/// fill the database.
pub const MAX_OWNED_TEAMS: u64 = 50;

/// A team one person belongs to, with their role in it.
#[derive(Debug, Clone)]
pub struct Joined {
    pub team: team::Model,
    pub role: Role,
    pub member_count: u64,
}

impl Joined {
    /// A row's membership (its columns prefixed `member`), team (`team`) and `member_count`.
    fn of_row(row: &QueryResult, member: &str, team: &str) -> Result<Self, DbErr> {
        let role = team_member::Model::from_query_result(row, member)?.role.0;
        let count: i64 = row.try_get("", "member_count")?;
        Ok(Self {
            team: team::Model::from_query_result(row, team)?,
            role,
            member_count: u64::try_from(count).unwrap_or(0),
        })
    }
}

/// The teams `user_id` belongs to, with how many members each has, in no particular order, in one
/// query (an account's removal and the operator's commands; `GET /teams` reads them with the
/// sign-in check, in [`signed_in_teams`]).
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn of_user(db: &impl ConnectionTrait, user_id: UserId) -> Result<Vec<Joined>, RepoError> {
    // The columns of `find_also_related`: `A_` the membership's, `B_` the team's.
    let query = team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(user_id))
        .find_also_related(team::Entity)
        .expr_as(member_count(), "member_count")
        .build(db.get_database_backend());
    let rows = db.query_all_raw(query).await?;
    Ok(rows.into_iter().map(|row| Joined::of_row(&row, "A_", "B_")).collect::<Result<_, _>>()?)
}

/// How many members the team of the row's `team_members` entry has: a subquery.
fn member_count() -> Expr {
    let peers = Alias::new("peers");
    let count = Query::select()
        .expr(Expr::col((peers.clone(), team_member::Column::UserId)).count())
        .from_as(team_member::Entity, peers.clone())
        .and_where(
            Expr::col((peers, team_member::Column::TeamId))
                .equals((team_member::Entity, team_member::Column::TeamId)),
        )
        .to_owned();
    Expr::SubQuery(None, Box::new(count.into()))
}

/// A member's view of a team: what [`membership`] answers.
#[derive(Debug, Clone)]
pub struct Membership {
    pub team: team::Model,
    pub role: Role,
    /// The team's `default_reorder_point` setting, which every answer about its threads needs
    /// (docs/behaviour.md, "Low stock"): read in the same query, not in one of its own.
    pub default_reorder_point: Option<Hundredths>,
}

/// A row of [`membership`]: the columns of `find_also_related` (`A_` the team's, `B_` the
/// membership's) and the stored `default_reorder_point`.
struct MembershipRow(team::Model, team_member::Model, Option<String>);

impl FromQueryResult for MembershipRow {
    fn from_query_result(row: &QueryResult, _prefix: &str) -> Result<Self, DbErr> {
        Ok(Self(
            team::Model::from_query_result(row, "A_")?,
            team_member::Model::from_query_result(row, "B_")?,
            row.try_get("", "default_reorder_point")?,
        ))
    }
}

impl Membership {
    /// The membership a row shows: `team`, `member`'s role and the `stored` default reorder point.
    fn of_row(team: team::Model, member: &team_member::Model, stored: Option<&str>) -> Self {
        // Every request to the team reads it: a stored value that is not JSON (only a hand edit of
        // the database makes one) is logged and left out, not a 500 on every page of the team.
        let default_reorder_point = settings::default_reorder_point_of(stored).unwrap_or_else(|error| {
            tracing::warn!(team = %team.public_id, %error, "the stored default_reorder_point cannot be read");
            None
        });
        Self { team, role: member.role.0, default_reorder_point }
    }
}

/// How a request names a team: by its `public_id` or its `id`. Answers carry a team's `id` as
/// well as its `public_id`, so either names it: a client that kept the `id` would otherwise get a
/// 404 for a team it is in. The two cannot be confused: a public id is 16 letters and digits,
/// never a UUID.
#[derive(Debug, Clone, Copy)]
enum TeamRef<'a> {
    Id(Uuid),
    Public(&'a str),
}

impl<'a> TeamRef<'a> {
    fn of(team_id: &'a str) -> Self {
        Uuid::parse_str(team_id).map_or(Self::Public(team_id), Self::Id)
    }

    /// The condition on `teams` that finds the team.
    fn condition(self) -> Expr {
        match self {
            Self::Id(id) => team::Column::Id.eq(id),
            Self::Public(public_id) => team::Column::PublicId.eq(public_id),
        }
    }
}

/// The team `team_id` names ([`TeamRef`]).
fn named(team_id: &str) -> Expr {
    TeamRef::of(team_id).condition()
}

/// The team `team_id` names ([`named`]) and `user_id`'s role in it, if they are its member, in
/// one query.
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn membership(
    db: &impl ConnectionTrait,
    team_id: &str,
    user_id: UserId,
) -> Result<Option<Membership>, RepoError> {
    let default = settings::default_reorder_point_of_team_row();
    let query = team::Entity::find()
        .filter(named(team_id))
        .find_also_related(team_member::Entity)
        .filter(team_member::Column::UserId.eq(user_id))
        .expr_as(Expr::SubQuery(None, Box::new(default.into())), "default_reorder_point")
        .build(db.get_database_backend());
    let row = MembershipRow::find_by_statement(query).one(db).await?;
    Ok(row.map(|MembershipRow(team, member, stored)| Membership::of_row(team, &member, stored.as_deref())))
}

/// A row of [`signed_in_member`]: the columns of [`SignedIn`], the team's (`C_`) and the
/// membership's (`D_`), null where the team or the membership was not found, and the stored
/// `default_reorder_point`.
fn signed_in_member_of_row(row: &QueryResult) -> Result<(SignedIn, Option<Membership>), DbErr> {
    // A membership's team id is null only where the join found none: a row that is there but
    // cannot be read is an error, not "no such team".
    let in_team: Option<TeamId> = row.try_get("", &format!("D_{}", team_member::Column::TeamId.as_str()))?;
    let membership = match in_team {
        Some(_) => {
            let stored: Option<String> = row.try_get("", "default_reorder_point")?;
            let member = team_member::Model::from_query_result(row, "D_")?;
            Some(Membership::of_row(team::Model::from_query_result(row, "C_")?, &member, stored.as_deref()))
        }
        None => None,
    };
    Ok((SignedIn::of_row(row)?, membership))
}

/// What the team extractors read before every team handler, in one query: the sign-in check of
/// [`sessions::signed_in`] (the session `session_id` of `user_id`, and its person) and that
/// person's membership of the team `team_id` names, as [`membership`] reads it. `None` when
/// there is no such session; a membership of `None` when there is no such team or the person is
/// not in it. Each of the two was a round trip to the database of its own, and every request to
/// a team made both.
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn signed_in_member(
    db: &impl ConnectionTrait,
    session_id: Uuid,
    user_id: UserId,
    team_id: &str,
) -> Result<Option<(SignedIn, Option<Membership>)>, DbErr> {
    let query =
        signed_in_member_query(session_id, user_id, TeamRef::of(team_id)).build(db.get_database_backend());
    db.query_one_raw(query).await?.as_ref().map(signed_in_member_of_row).transpose()
}

/// The query of [`signed_in_member`].
fn signed_in_member_query(
    session_id: Uuid,
    user_id: UserId,
    team: TeamRef<'_>,
) -> SelectTwo<session::Entity, user::Entity> {
    let mut select = sessions::signed_in_query(session_id, user_id);
    let in_team = Condition::all()
        .add(
            Expr::col((team_member::Entity, team_member::Column::TeamId))
                .equals((team::Entity, team::Column::Id)),
        )
        .add(
            Expr::col((team_member::Entity, team_member::Column::UserId))
                .equals((session::Entity, session::Column::UserId)),
        );
    let default = settings::default_reorder_point_of_team_row();
    let statement = QueryTrait::query(&mut select)
        .left_join(team::Entity, team.condition())
        .left_join(team_member::Entity, in_team)
        .expr_as(Expr::SubQuery(None, Box::new(default.into())), "default_reorder_point");
    select_prefixed::<team::Entity>(statement, "C_");
    select_prefixed::<team_member::Entity>(statement, "D_");
    select
}

/// The team of a row of [`signed_in_teams`] (`C_`) and the membership (`D_`), as in
/// [`signed_in_member`]; `None` where the person is in no team.
fn joined_of_row(row: &QueryResult, team_id: &str) -> Result<Option<Joined>, DbErr> {
    // As in `signed_in_member`: null only where the join found no membership.
    let in_team: Option<TeamId> = row.try_get("", team_id)?;
    in_team.map(|_| Joined::of_row(row, "D_", "C_")).transpose()
}

/// What `GET /teams` reads, in one query: the sign-in check of [`sessions::signed_in`] and the
/// teams that person belongs to, as [`of_user`] reads them (a row for each, the sign-in's
/// columns repeated; one row with no team for a person in none). `None` when there is no such
/// session. The app asks for the teams on every page load, and the two were a round trip each.
/// A team row that cannot be read fails the sign-in check with it (a 500), as in
/// [`signed_in_member`].
///
/// # Errors
///
/// The database's, or a broken row's.
pub async fn signed_in_teams(
    db: &impl ConnectionTrait,
    session_id: Uuid,
    user_id: UserId,
) -> Result<Option<(SignedIn, Vec<Joined>)>, DbErr> {
    let query = signed_in_teams_query(session_id, user_id).build(db.get_database_backend());
    let rows = db.query_all_raw(query).await?;
    // Every row repeats the sign-in's columns: they are read from the first.
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let signed_in = SignedIn::of_row(first)?;
    let team_id = format!("D_{}", team_member::Column::TeamId.as_str());
    let teams =
        rows.iter().filter_map(|row| joined_of_row(row, &team_id).transpose()).collect::<Result<_, _>>()?;
    Ok(Some((signed_in, teams)))
}

/// The query of [`signed_in_teams`].
fn signed_in_teams_query(session_id: Uuid, user_id: UserId) -> SelectTwo<session::Entity, user::Entity> {
    let mut select = sessions::signed_in_query(session_id, user_id);
    let statement = QueryTrait::query(&mut select)
        .left_join(
            team_member::Entity,
            Expr::col((team_member::Entity, team_member::Column::UserId))
                .equals((session::Entity, session::Column::UserId)),
        )
        .left_join(
            team::Entity,
            Expr::col((team::Entity, team::Column::Id))
                .equals((team_member::Entity, team_member::Column::TeamId)),
        )
        .expr_as(member_count(), "member_count");
    select_prefixed::<team::Entity>(statement, "C_");
    select_prefixed::<team_member::Entity>(statement, "D_");
    select
}

/// Adds every column of `E` to `statement` as `{prefix}{column}`, as sea-orm's `select_also`
/// names (and casts) them, which its `from_query_result(row, prefix)` reads: for a row of more
/// entities than sea-orm's relation joins reach.
fn select_prefixed<E: EntityTrait>(statement: &mut SelectStatement, prefix: &str) {
    for column in E::Column::iter() {
        statement.expr_as(
            column.select_as(column.into_expr()),
            Alias::new(format!("{prefix}{}", column.as_str())),
        );
    }
}

/// Every team, oldest first (the operator's `bobbin teams list`).
///
/// # Errors
///
/// The database's.
pub async fn all(db: &impl ConnectionTrait) -> Result<Vec<team::Model>, RepoError> {
    Ok(team::Entity::find()
        .order_by_asc(team::Column::CreatedAt)
        .order_by_asc(team::Column::Name)
        .all(db)
        .await?)
}

/// The team named by its `public_id` or its `id`, whoever asks (the operator's commands; requests
/// go through [`membership`]).
///
/// # Errors
///
/// The database's.
pub async fn by_public_or_id(
    db: &impl ConnectionTrait,
    team_id: &str,
) -> Result<Option<team::Model>, RepoError> {
    Ok(team::Entity::find().filter(named(team_id)).one(db).await?)
}

/// How much a team holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Holdings {
    pub threads: u64,
    pub machines: u64,
    pub quotes: u64,
}

/// How many threads, machines and quotes the team has.
///
/// # Errors
///
/// The database's.
pub async fn holdings(db: &impl ConnectionTrait, team_id: TeamId) -> Result<Holdings, RepoError> {
    Ok(Holdings {
        threads: inventory_thread::Entity::find()
            .filter(inventory_thread::Column::TeamId.eq(team_id))
            .count(db)
            .await?,
        machines: machine::Entity::find().filter(machine::Column::TeamId.eq(team_id)).count(db).await?,
        quotes: quote::Entity::find().filter(quote::Column::TeamId.eq(team_id)).count(db).await?,
    })
}

/// Why [`create`] made no team: its owner already owns [`MAX_OWNED_TEAMS`].
#[derive(Debug)]
pub struct TooManyTeams;

/// Creates a team named `name` with `owner` as its owner; it becomes their default team if they
/// have none yet.
///
/// # Errors
///
/// The database's; a refusal is the inner `Err`.
pub async fn create(
    db: &Database,
    owner: UserId,
    name: TeamName,
) -> Result<Result<team::Model, TooManyTeams>, RepoError> {
    let txn = crate::db::begin_write(db).await?;
    // The owner's row, locked (PostgreSQL): two teams created at once are counted one after the
    // other, and none appears while the owner's account is being deleted (`repo::account`).
    user::Entity::find_by_id(owner).lock_exclusive().one(&txn).await?;
    if members::owned_by(&txn, owner).await? >= MAX_OWNED_TEAMS {
        return Ok(Err(TooManyTeams));
    }
    let now = OffsetDateTime::now_utc();
    let team = team::ActiveModel {
        id: Set(TeamId::new()),
        public_id: Set(new_public_id()),
        name: Set(name.into_string()),
        created_at: Set(now),
        updated_at: Set(now),
        threads_revision: Set(0),
    }
    .insert(&txn)
    .await?;
    members::insert(&txn, team.id, owner, Role::Owner).await?;
    adopt_as_default_if_none(&txn, owner, team.id).await?;
    txn.commit().await?;
    Ok(Ok(team))
}

/// Renames the team; answers it as it is now.
///
/// # Errors
///
/// The database's.
pub async fn rename(db: &Database, team_id: TeamId, name: TeamName) -> Result<team::Model, RepoError> {
    let renamed = team::ActiveModel {
        id: Set(team_id),
        name: Set(name.into_string()),
        updated_at: Set(OffsetDateTime::now_utc()),
        ..Default::default()
    };
    Ok(crate::db::committed(db, async |txn| renamed.update(txn).await).await?)
}

/// Deletes the team; its members, invites, settings, inventories and quotes go with it (foreign
/// keys cascade).
///
/// # Errors
///
/// The database's.
pub async fn delete(db: &impl ConnectionTrait, team_id: TeamId) -> Result<(), RepoError> {
    team::Entity::delete_by_id(team_id).exec(db).await?;
    Ok(())
}
