//! The e-mailed links and codes (`one_time_tokens`), and what using one does to the account:
//! confirm the address, or complete a change of it. The link's token is stored as its SHA-256
//! hash, the code as the hash the caller gives (`Vault::code_hash`), so neither can be read
//! back from the database.
//!
//! Every token is single use, lives for its kind's [`TokenKind::lifetime`], and dies after
//! [`MAX_CODE_ATTEMPTS`] wrong codes for its address.

use crate::db::Database;
use crate::repo::RepoError;
use sea_orm::{
    ActiveModelTrait as _,
    ActiveValue::Set,
    ColumnTrait as _, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait as _, IntoActiveModel as _,
    QueryFilter as _, QueryOrder as _, QuerySelect as _, SqlErr,
    sea_query::{Expr, ExprTrait as _},
};
use subtle::ConstantTimeEq as _;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::{
    flow_states::{self, NewFlowState},
    identities, users,
};
pub use crate::entity::one_time_token::TokenKind;

use crate::{
    auth::secret,
    db::{begin_write, committed},
    entity::{flow_state, ids::UserId, one_time_token, user},
};

impl TokenKind {
    /// How long the e-mailed link and code stay valid.
    pub fn lifetime(self) -> Duration {
        match self {
            Self::Confirmation | Self::EmailChangeCurrent | Self::EmailChangeNew => Duration::hours(24),
            Self::Recovery | Self::MagicLink => Duration::hours(1),
        }
    }
}

/// Both halves of an e-mail change.
const EMAIL_CHANGE: [TokenKind; 2] = [TokenKind::EmailChangeCurrent, TokenKind::EmailChangeNew];

/// How many wrong codes an e-mailed token survives: the fifth voids it, and the person asks
/// for a new e-mail. Five guesses at a six-digit code succeed once in 200,000 tries.
pub const MAX_CODE_ATTEMPTS: i32 = 5;

/// Sign-ups of one unconfirmed address whose links stay usable at once (each with its own
/// password); a sixth replaces the oldest.
const PENDING_SIGNUPS: usize = 5;

/// A token to store.
#[derive(Debug, Clone)]
pub struct NewToken<'a> {
    pub kind: TokenKind,
    pub user_id: UserId,
    /// The address it is mailed to (for an e-mail change, the current or the new one).
    pub address: &'a str,
    /// The link's secret.
    pub token: &'a str,
    /// The code's stored form.
    pub code_hash: String,
    /// The PKCE flow the link ends, if the request started one.
    pub flow_state_id: Option<Uuid>,
    /// For a sign-up's confirmation: the hash of the password that sign-up chose. It becomes
    /// the account's password only when this token proves the address, so the person who
    /// proves they own the address decides the password (no pre-hijacking).
    pub password_hash: Option<String>,
}

/// Stores a new token. It replaces earlier tokens of the same kind, except sign-up
/// confirmations: each sign-up keeps its own link (and password), and the one that is used
/// decides.
///
/// # Errors
///
/// The database's.
pub async fn issue(db: &Database, token: NewToken<'_>) -> Result<(), DbErr> {
    committed(db, async |txn| insert(txn, token).await).await
}

/// [`issue`], inside a transaction of the caller's.
async fn insert(db: &impl ConnectionTrait, token: NewToken<'_>) -> Result<(), DbErr> {
    let earlier = one_time_token::Entity::find()
        .filter(one_time_token::Column::UserId.eq(token.user_id))
        .filter(one_time_token::Column::Kind.eq(token.kind))
        .order_by_desc(one_time_token::Column::CreatedAt)
        .all(db)
        .await?;
    let kept = if token.kind == TokenKind::Confirmation { PENDING_SIGNUPS - 1 } else { 0 };
    let replaced: Vec<Uuid> = earlier.iter().skip(kept).map(|row| row.id).collect();
    if !replaced.is_empty() {
        one_time_token::Entity::delete_many()
            .filter(one_time_token::Column::Id.is_in(replaced))
            .exec(db)
            .await?;
    }
    one_time_token::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(token.user_id),
        kind: Set(token.kind),
        token_hash: Set(secret::sha256_hex(token.token)),
        code_hash: Set(token.code_hash),
        relates_to: Set(token.address.to_owned()),
        flow_state_id: Set(token.flow_state_id),
        created_at: Set(OffsetDateTime::now_utc()),
        attempts: Set(0),
        password_hash: Set(token.password_hash),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Stores a sign-up confirmation that replaces every pending one (as in Supabase Auth). It
/// carries the password of the sign-up it stands for when exactly one is pending; with several,
/// someone may be squatting the address and it cannot tell whose this is, so it carries none
/// (the person confirms, is signed in, and chooses one). `token.password_hash` is ignored.
///
/// # Errors
///
/// The database's.
pub async fn reissue_confirmation(db: &Database, token: NewToken<'_>) -> Result<(), DbErr> {
    let txn = begin_write(db).await?;
    let pending = one_time_token::Entity::find()
        .filter(one_time_token::Column::UserId.eq(token.user_id))
        .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation))
        .all(&txn)
        .await?;
    let password_hash = match pending.as_slice() {
        [only] => only.password_hash.clone(),
        _ => None,
    };
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::UserId.eq(token.user_id))
        .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation))
        .exec(&txn)
        .await?;
    insert(&txn, NewToken { kind: TokenKind::Confirmation, password_hash, ..token }).await?;
    txn.commit().await?;
    Ok(())
}

/// Asks to move `user` to `new_email`: the address asked for, the flow the links end (if the
/// request started one; both tokens then name it, whatever `flow_state_id` they carry) and the
/// tokens of both halves (to the new address and to the current one), together. Tokens mailed
/// for an earlier request are deleted, so they can never complete a change to this address.
///
/// # Errors
///
/// The database's.
pub async fn request_email_change(
    db: &Database,
    user: user::Model,
    new_email: &str,
    flow: Option<NewFlowState>,
    halves: [NewToken<'_>; 2],
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    let txn = begin_write(db).await?;
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.is_in(EMAIL_CHANGE))
        .exec(&txn)
        .await?;
    let mut active = user.into_active_model();
    active.email_change = Set(Some(new_email.to_owned()));
    active.email_change_sent_at = Set(Some(now));
    active.updated_at = Set(now);
    let user = active.update(&txn).await?;
    let flow_state_id = match flow {
        Some(flow) => Some(flow_states::insert(&txn, flow).await?.id),
        None => None,
    };
    for half in halves {
        insert(&txn, NewToken { flow_state_id, ..half }).await?;
    }
    txn.commit().await?;
    Ok(user)
}

/// How a token is presented.
#[derive(Debug, Clone, Copy)]
pub enum Lookup<'a> {
    /// The token of an e-mailed link.
    Link(&'a str),
    /// A code typed in, as its stored form for `email`.
    Code { email: &'a str, code_hash: &'a str },
}

/// What using a token came to.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "one short-lived value per request")]
pub enum Consumed {
    /// No such token (or it expired, or was used up, or no longer fits the account).
    Invalid,
    /// One of the two e-mail change links; the other is still to be opened.
    HalfOfEmailChange,
    /// The token proved `user`'s address (or completed a change of it): sign them in; for a
    /// PKCE flow, through an auth code of `flow`.
    SignIn { user: user::Model, kind: TokenKind, flow: Option<flow_state::Model> },
}

/// Finds and spends the token of one of `kinds`, and applies it: confirms the address (see
/// [`prove_address`]), or completes an e-mail change once both halves are used. A wrong code
/// counts against every token mailed to that address.
///
/// # Errors
///
/// `email_exists` (422) when the new address of a change was taken meanwhile; the database's.
pub async fn consume(
    db: &Database,
    kinds: &[TokenKind],
    lookup: Lookup<'_>,
    now: OffsetDateTime,
) -> Result<Consumed, RepoError> {
    let of_kinds = one_time_token::Column::Kind.is_in(kinds.iter().copied());
    let txn = begin_write(db).await?;
    let row = match lookup {
        // A link's token has 256 random bits: looking up its hash leaks nothing worth timing.
        Lookup::Link(token) => {
            let found = one_time_token::Entity::find()
                .filter(of_kinds)
                .filter(one_time_token::Column::TokenHash.eq(secret::sha256_hex(token)))
                .one(&txn)
                .await?;
            let Some(row) = found else { return Ok(Consumed::Invalid) };
            row
        }
        Lookup::Code { email, code_hash } => {
            // Every token mailed to this address, compared in constant time with the code's
            // hash; a wrong code counts against each of them, and the fifth voids them.
            // Locked (PostgreSQL; SQLite's write transaction already excludes every other writer),
            // so guesses sent at once are counted one after the other, not all against 0.
            let candidates = one_time_token::Entity::find()
                .filter(of_kinds)
                .filter(one_time_token::Column::RelatesTo.eq(email))
                .lock_exclusive()
                .all(&txn)
                .await?;
            let matched = candidates
                .iter()
                .filter(|row| bool::from(row.code_hash.as_bytes().ct_eq(code_hash.as_bytes())))
                .max_by_key(|row| row.created_at)
                .cloned();
            let Some(row) = matched else {
                count_wrong_code(&txn, &candidates).await?;
                txn.commit().await?;
                return Ok(Consumed::Invalid);
            };
            row
        }
    };
    // Spent whatever happens next; deleting by id makes two concurrent uses yield one winner.
    let deleted = one_time_token::Entity::delete_by_id(row.id).exec(&txn).await?;
    if deleted.rows_affected != 1 {
        return Ok(Consumed::Invalid);
    }
    let Some(kind) = kinds.iter().copied().find(|kind| *kind == row.kind) else {
        return Ok(Consumed::Invalid);
    };
    if now - row.created_at > kind.lifetime() {
        txn.commit().await?;
        return Ok(Consumed::Invalid);
    }
    let Some(user) = users::by_id(&txn, row.user_id).await? else { return Ok(Consumed::Invalid) };
    let user = match kind {
        TokenKind::Confirmation | TokenKind::MagicLink | TokenKind::Recovery => {
            prove_address(&txn, user, &row, kind, now).await?
        }
        TokenKind::EmailChangeCurrent | TokenKind::EmailChangeNew => {
            // Each half must still be about the change asked for now: its address, the new one
            // or the current one as they are.
            let expected = if kind == TokenKind::EmailChangeNew {
                user.email_change.as_deref()
            } else {
                Some(user.email.as_str())
            };
            if user.email_change.is_none() || expected != Some(row.relates_to.as_str()) {
                txn.commit().await?;
                return Ok(Consumed::Invalid);
            }
            let Some(user) = complete_email_change(&txn, user, now).await? else {
                txn.commit().await?;
                return Ok(Consumed::HalfOfEmailChange);
            };
            user
        }
    };
    let flow = match row.flow_state_id {
        Some(id) => flow_states::by_id(&txn, id).await?,
        None => None,
    };
    txn.commit().await?;
    Ok(Consumed::SignIn { user, kind, flow })
}

/// The second half of an address change: `user` with the new address, or `None` while the
/// other half's link is still unopened.
async fn complete_email_change(
    txn: &DatabaseTransaction,
    user: user::Model,
    now: OffsetDateTime,
) -> Result<Option<user::Model>, RepoError> {
    let other = one_time_token::Entity::find()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.is_in(EMAIL_CHANGE))
        .one(txn)
        .await?;
    let Some(new_email) = user.email_change.clone().filter(|_| other.is_none()) else { return Ok(None) };
    let mut active = user.into_active_model();
    active.email = Set(new_email.clone());
    active.email_change = Set(None);
    active.email_change_sent_at = Set(None);
    active.updated_at = Set(now);
    let user = active.update(txn).await.map_err(|error| match error.sql_err() {
        Some(SqlErr::UniqueConstraintViolation(_)) => {
            RepoError::conflict("email_exists", "A user with this email address has already been registered")
        }
        _ => error.into(),
    })?;
    identities::set_email_address(txn, user.id, new_email).await?;
    Ok(Some(user))
}

/// `user`'s address proven by the token `row` of `kind` (opening any e-mailed link proves it).
/// Until now anyone could have signed up with the address, so the password becomes the one of
/// the sign-up whose link this is, and none at all when the proof came another way (a magic
/// link, a recovery): a password chosen before the address was proven may be a stranger's.
async fn prove_address(
    txn: &DatabaseTransaction,
    user: user::Model,
    row: &one_time_token::Model,
    kind: TokenKind,
    now: OffsetDateTime,
) -> Result<user::Model, DbErr> {
    if user.email_confirmed_at.is_some() {
        return Ok(user);
    }
    let password = if kind == TokenKind::Confirmation { row.password_hash.clone() } else { None };
    // The other sign-ups' links carry their passwords: they must never apply now.
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation))
        .exec(txn)
        .await?;
    let mut active = user.into_active_model();
    active.email_confirmed_at = Set(Some(now));
    active.encrypted_password = Set(password);
    active.updated_at = Set(now);
    active.update(txn).await
}

/// A wrong code for these tokens' address: each counts one more attempt, and those that
/// reach [`MAX_CODE_ATTEMPTS`] are void (the person asks for a new e-mail).
async fn count_wrong_code(
    txn: &DatabaseTransaction,
    candidates: &[one_time_token::Model],
) -> Result<(), DbErr> {
    if candidates.is_empty() {
        return Ok(());
    }
    let ids = || candidates.iter().map(|row| row.id);
    one_time_token::Entity::update_many()
        .col_expr(one_time_token::Column::Attempts, Expr::col(one_time_token::Column::Attempts).add(1))
        .filter(one_time_token::Column::Id.is_in(ids()))
        .exec(txn)
        .await?;
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::Id.is_in(ids()))
        .filter(one_time_token::Column::Attempts.gte(MAX_CODE_ATTEMPTS))
        .exec(txn)
        .await?;
    Ok(())
}
