//! Sessions and their refresh tokens (`sessions`, `refresh_tokens`). A refresh token is stored
//! as its SHA-256 hash; the token itself leaves only in the answer of the function that made it.
//!
//! Rotation and reuse, as in Supabase Auth: using a refresh token revokes it and issues its
//! child. A revoked token used again within [`REUSE_INTERVAL`] of its revocation (two tabs
//! refreshing at once, or a retry after a lost answer) gets a fresh sibling in the same session;
//! used later, it is taken as a stolen token and the whole session (its token family) is ended.

use sea_orm::{
    ActiveModelTrait as _,
    ActiveValue::Set,
    ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait, FromQueryResult as _, IntoActiveModel as _,
    JoinType, QueryFilter as _, QueryOrder as _, QueryResult, QuerySelect as _, QueryTrait as _, SelectTwo,
    sea_query::{Expr, ExprTrait as _, Query},
};
use serde_json::Value;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::{
    auth::secret,
    db::{Database, begin_write},
    entity::{
        ids::UserId,
        mfa_factor::{self, FactorStatus},
        refresh_token,
        session::{self, Aal},
        user,
    },
};

/// How long a just-rotated refresh token stays usable, for tabs that refresh at the same moment.
pub const REUSE_INTERVAL: Duration = Duration::seconds(10);

/// The longest user agent a session records.
const USER_AGENT_CHARS: usize = 512;

/// A session to start.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub user_id: UserId,
    pub aal: Aal,
    /// The `amr` claim's entries, as JSON.
    pub amr: Value,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// Starts a session: the session, its first refresh token and the user's `last_sign_in_at`,
/// together. Answers the session and the refresh token.
///
/// # Errors
///
/// The database's.
pub async fn start(
    db: &Database,
    new: NewSession,
    now: OffsetDateTime,
) -> Result<(session::Model, String), DbErr> {
    let session = session::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(new.user_id),
        aal: Set(new.aal),
        not_after: Set(None),
        refreshed_at: Set(None),
        user_agent: Set(new.user_agent.map(|agent| agent.chars().take(USER_AGENT_CHARS).collect())),
        ip: Set(new.ip),
        amr: Set(Some(new.amr)),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let txn = begin_write(db).await?;
    let session = session.insert(&txn).await?;
    let token = new_refresh_token(&txn, session.id, None).await?;
    user::Entity::update(user::ActiveModel {
        id: Set(new.user_id),
        last_sign_in_at: Set(Some(now)),
        ..Default::default()
    })
    .exec(&txn)
    .await?;
    txn.commit().await?;
    Ok((session, token))
}

/// Raises `session` to `aal` with the `amr` entries given, and answers it with a new refresh
/// token. Its earlier refresh tokens are revoked: tokens issued at the lower level stay valid
/// for their session, but cannot be refreshed into new ones.
///
/// # Errors
///
/// The database's.
pub async fn step_up(
    db: &Database,
    session: session::Model,
    aal: Aal,
    amr: Value,
    now: OffsetDateTime,
) -> Result<(session::Model, String), DbErr> {
    let txn = begin_write(db).await?;
    let mut active = session.into_active_model();
    active.aal = Set(aal);
    active.amr = Set(Some(amr));
    active.updated_at = Set(now);
    let session = active.update(&txn).await?;
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::Revoked, true.into())
        .col_expr(refresh_token::Column::UpdatedAt, now.into())
        .filter(refresh_token::Column::SessionId.eq(session.id))
        .filter(refresh_token::Column::Revoked.eq(false))
        .exec(&txn)
        .await?;
    let token = new_refresh_token(&txn, session.id, None).await?;
    txn.commit().await?;
    Ok((session, token))
}

/// What presenting a refresh token came to.
#[derive(Debug)]
pub enum Refresh {
    /// The token was good: its session, refreshed, and the token's successor.
    Rotated { session: session::Model, refresh_token: String },
    /// No such token.
    UnknownToken,
    /// The token's session no longer exists.
    NoSession,
    /// The token's session has ended by itself; nothing was changed.
    Ended,
    /// The token was replaced longer than [`REUSE_INTERVAL`] ago: its session is now ended.
    ReusedLate { session_id: Uuid },
}

/// Rotates the refresh token `presented`: revokes it and issues its child, unless the session
/// has `ended` (a check of the session's limits at `now`) or the token was replaced before.
///
/// # Errors
///
/// The database's.
pub async fn refresh(
    db: &Database,
    presented: &str,
    now: OffsetDateTime,
    ended: impl FnOnce(&session::Model) -> bool,
) -> Result<Refresh, DbErr> {
    let txn = begin_write(db).await?;
    let Some(token) = refresh_token::Entity::find()
        .filter(refresh_token::Column::TokenHash.eq(secret::sha256_hex(presented)))
        .one(&txn)
        .await?
    else {
        return Ok(Refresh::UnknownToken);
    };
    let Some(session) = session::Entity::find_by_id(token.session_id).one(&txn).await? else {
        return Ok(Refresh::NoSession);
    };
    if ended(&session) {
        return Ok(Refresh::Ended);
    }
    if token.revoked && now - token.updated_at > REUSE_INTERVAL {
        // Outside the reuse interval (within it, two tabs refreshing at once, or a client
        // retrying an answer it lost, both get a token and keep it). Supabase Auth also accepts
        // a token whose child is still unused at any later time; Bobbin does not: a stolen
        // token replayed days later would otherwise work for as long as its owner stays away.
        session::Entity::delete_by_id(session.id).exec(&txn).await?;
        txn.commit().await?;
        return Ok(Refresh::ReusedLate { session_id: session.id });
    } else if !token.revoked {
        // Revoke only if still unrevoked: of two concurrent refreshes, one flips the flag and
        // the other sees zero rows and is treated as a reuse within the interval.
        refresh_token::Entity::update_many()
            .col_expr(refresh_token::Column::Revoked, true.into())
            .col_expr(refresh_token::Column::UpdatedAt, now.into())
            .filter(refresh_token::Column::Id.eq(token.id))
            .filter(refresh_token::Column::Revoked.eq(false))
            .exec(&txn)
            .await?;
    }
    let refresh_token = new_refresh_token(&txn, session.id, Some(token.id)).await?;
    let mut active = session.into_active_model();
    active.refreshed_at = Set(Some(now));
    active.updated_at = Set(now);
    let session = active.update(&txn).await?;
    txn.commit().await?;
    Ok(Refresh::Rotated { session, refresh_token })
}

/// Which of a user's sessions to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    All,
    Only(Uuid),
    AllBut(Uuid),
}

/// Ends sessions of `user_id` (their refresh tokens go with them).
///
/// # Errors
///
/// The database's.
pub async fn end(db: &impl ConnectionTrait, user_id: UserId, which: Ending) -> Result<(), DbErr> {
    let delete = session::Entity::delete_many().filter(session::Column::UserId.eq(user_id));
    let delete = match which {
        Ending::All => delete,
        Ending::Only(id) => delete.filter(session::Column::Id.eq(id)),
        Ending::AllBut(id) => delete.filter(session::Column::Id.ne(id)),
    };
    delete.exec(db).await?;
    Ok(())
}

/// The sessions of `user_id`, newest first.
///
/// # Errors
///
/// The database's.
pub async fn of_user(db: &impl ConnectionTrait, user_id: UserId) -> Result<Vec<session::Model>, DbErr> {
    session::Entity::find()
        .filter(session::Column::UserId.eq(user_id))
        .order_by_desc(session::Column::CreatedAt)
        .all(db)
        .await
}

/// A session, its person and whether they have a verified second factor (so that the session
/// needs `aal2`): what every signed-in request checks.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub session: session::Model,
    pub user: user::Model,
    pub has_verified_factor: bool,
}

impl SignedIn {
    /// A row's session (its columns prefixed `A_`), person (`B_`) and `has_verified_factor`.
    ///
    /// # Errors
    ///
    /// A column missing or not of its type.
    pub fn of_row(row: &QueryResult) -> Result<Self, DbErr> {
        Ok(Self {
            session: session::Model::from_query_result(row, "A_")?,
            user: user::Model::from_query_result(row, "B_")?,
            has_verified_factor: row.try_get("", "has_verified_factor")?,
        })
    }
}

/// The session `id` of `user_id` with its person, in one query by the session's key (a
/// request's sign-in check runs before every handler, so it is one round trip to the database,
/// not three).
///
/// # Errors
///
/// The database's.
pub async fn signed_in(
    db: &impl ConnectionTrait,
    id: Uuid,
    user_id: UserId,
) -> Result<Option<SignedIn>, DbErr> {
    let query = signed_in_query(id, user_id).build(db.get_database_backend());
    db.query_one_raw(query).await?.as_ref().map(SignedIn::of_row).transpose()
}

/// The query of [`signed_in`], whose rows [`SignedIn`] reads, for the queries that read more
/// beside it (`repo::teams::signed_in_member` and `signed_in_teams`,
/// `repo::users::signed_in_profile`).
pub fn signed_in_query(id: Uuid, user_id: UserId) -> SelectTwo<session::Entity, user::Entity> {
    let verified_factor = Query::select()
        .column((mfa_factor::Entity, mfa_factor::Column::Id))
        .from(mfa_factor::Entity)
        .and_where(
            Expr::col((mfa_factor::Entity, mfa_factor::Column::UserId))
                .equals((session::Entity, session::Column::UserId)),
        )
        .and_where(mfa_factor::Column::Status.eq(FactorStatus::Verified))
        .to_owned();
    session::Entity::find_by_id(id)
        .filter(session::Column::UserId.eq(user_id))
        .join(
            JoinType::InnerJoin,
            session::Entity::belongs_to(user::Entity)
                .from(session::Column::UserId)
                .to(user::Column::Id)
                .into(),
        )
        .select_also(user::Entity)
        .expr_as(Expr::exists(verified_factor), "has_verified_factor")
}

/// Stores a new refresh token of `session_id` (the child of `parent`, if any), and answers it.
async fn new_refresh_token(
    db: &impl ConnectionTrait,
    session_id: Uuid,
    parent: Option<Uuid>,
) -> Result<String, DbErr> {
    let token = secret::refresh_token();
    let now = OffsetDateTime::now_utc();
    refresh_token::ActiveModel {
        id: Set(Uuid::new_v4()),
        session_id: Set(session_id),
        token_hash: Set(secret::sha256_hex(&token)),
        parent_id: Set(parent),
        revoked: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(token)
}
