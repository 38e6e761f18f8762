//! The e-mailed flows: the verify link and code, recovery, magic links and resending.
//!
//! Every request that sends mail answers the same whether or not the address has an account
//! (and the per-address interval is counted either way), so none of them tells a stranger who
//! is registered.

use axum::{
    Json,
    extract::{Query, State},
    response::{IntoResponse, Response},
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, EntityTrait as _, IntoActiveModel as _,
    QueryFilter as _, QuerySelect as _,
};
use serde::Deserialize;
use serde_json::{Value, json};
use subtle::ConstantTimeEq as _;
use time::OffsetDateTime;

use super::{
    MAX_CODE_ATTEMPTS, PkceFields, TokenKind, TokenMail, email_clock, error_redirect, flow_for_link,
    issue_auth_code, mail_token, redirect_target, redirect_with, send_token_mail, session_redirect,
    store_token,
};
use crate::{
    auth::{
        error::{AuthError, AuthResult},
        extract::{AuthJson, Client},
        rate_limit, secret,
        session::{self, Method},
        user as account,
    },
    entity::{flow_state, one_time_token, user},
    state::AppState,
};

const LINK_INVALID: &str = "Email link is invalid or has expired";
const CODE_INVALID: &str = "Token has expired or is invalid";

/// The `type` of a verification, and the token kinds it may match.
fn kinds_for(kind: &str) -> AuthResult<&'static [TokenKind]> {
    Ok(match kind {
        "signup" => &[TokenKind::Confirmation],
        "recovery" => &[TokenKind::Recovery],
        "magiclink" => &[TokenKind::MagicLink],
        "email_change" => &[TokenKind::EmailChangeNew, TokenKind::EmailChangeCurrent],
        // The code of a sign-up or magic-link e-mail, typed in.
        "email" => &[TokenKind::MagicLink, TokenKind::Confirmation],
        "invite" => return Err(AuthError::validation("Invites are sent by teams, not by the auth service")),
        "sms" | "phone_change" => {
            return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
        }
        _ => {
            return Err(AuthError::validation(format!(
                "Verify requires a verification type, not \"{kind}\""
            )));
        }
    })
}

/// What a verified token did.
#[expect(clippy::large_enum_variant, reason = "one short-lived value per request")]
enum Verified {
    /// Sign the person in (and, for a PKCE flow, hand out an auth code instead).
    SignIn { user: user::Model, method: Method, flow: Option<flow_state::Model> },
    /// One of the two e-mail change links; the other is still to be opened.
    HalfOfEmailChange,
}

/// Finds and spends the one-time token, and applies it (confirm the address, change it...).
async fn consume(state: &AppState, kinds: &[TokenKind], token: Lookup<'_>) -> AuthResult<Verified> {
    let invalid = || {
        AuthError::forbidden(
            "otp_expired",
            if matches!(token, Lookup::Link(_)) { LINK_INVALID } else { CODE_INVALID },
        )
    };
    let of_kinds = one_time_token::Column::Kind.is_in(kinds.iter().map(|kind| kind.as_str()));
    let txn = crate::db::begin_write(&state.db).await?;
    let row = match token {
        // A link's token has 256 random bits: looking up its hash leaks nothing worth timing.
        Lookup::Link(token) => one_time_token::Entity::find()
            .filter(of_kinds)
            .filter(one_time_token::Column::TokenHash.eq(secret::sha256_hex(token)))
            .one(&txn)
            .await?
            .ok_or_else(invalid)?,
        Lookup::Code { email, code } => {
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
            let presented = state.auth.vault.code_hash(email, code);
            let matched = candidates
                .iter()
                .filter(|row| bool::from(row.code_hash.as_bytes().ct_eq(presented.as_bytes())))
                .max_by_key(|row| row.created_at)
                .cloned();
            let Some(row) = matched else {
                count_wrong_code(&txn, &candidates).await?;
                txn.commit().await?;
                return Err(invalid());
            };
            row
        }
    };
    // Spent whatever happens next; deleting by id makes two concurrent uses yield one winner.
    let deleted = one_time_token::Entity::delete_by_id(row.id).exec(&txn).await?;
    if deleted.rows_affected != 1 {
        return Err(invalid());
    }
    let kind = kinds.iter().copied().find(|kind| kind.as_str() == row.kind).ok_or_else(invalid)?;
    if OffsetDateTime::now_utc() - row.created_at > kind.lifetime() {
        txn.commit().await?;
        return Err(invalid());
    }
    let user = user::Entity::find_by_id(row.user_id).one(&txn).await?.ok_or_else(invalid)?;
    let now = OffsetDateTime::now_utc();
    let (user, method) = match kind {
        TokenKind::Confirmation | TokenKind::MagicLink | TokenKind::Recovery => {
            let method = match kind {
                TokenKind::Confirmation => Method::EmailSignup,
                TokenKind::MagicLink => Method::MagicLink,
                _ => Method::Recovery,
            };
            (prove_address(&txn, user, &row, kind, now).await?, method)
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
                return Err(invalid());
            }
            let Some(user) = complete_email_change(&txn, user, now).await? else {
                txn.commit().await?;
                return Ok(Verified::HalfOfEmailChange);
            };
            (user, Method::EmailChange)
        }
    };
    let flow = match row.flow_state_id {
        Some(id) => flow_state::Entity::find_by_id(id).one(&txn).await?,
        None => None,
    };
    txn.commit().await?;
    Ok(Verified::SignIn { user, method, flow })
}

/// The second half of an address change: `user` with the new address, or `None` while the
/// other half's link is still unopened.
async fn complete_email_change(
    txn: &sea_orm::DatabaseTransaction,
    user: user::Model,
    now: OffsetDateTime,
) -> AuthResult<Option<user::Model>> {
    let other = one_time_token::Entity::find()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(
            one_time_token::Column::Kind
                .is_in([TokenKind::EmailChangeCurrent.as_str(), TokenKind::EmailChangeNew.as_str()]),
        )
        .one(txn)
        .await?;
    let Some(new_email) = user.email_change.clone().filter(|_| other.is_none()) else { return Ok(None) };
    let mut active = user.into_active_model();
    active.email = Set(new_email.clone());
    active.email_change = Set(None);
    active.email_change_sent_at = Set(None);
    active.updated_at = Set(now);
    let user = active.update(txn).await.map_err(|error| match error.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => AuthError::unprocessable(
            "email_exists",
            "A user with this email address has already been registered",
        ),
        _ => error.into(),
    })?;
    crate::entity::identity::Entity::update_many()
        .col_expr(crate::entity::identity::Column::Email, new_email.into())
        .filter(crate::entity::identity::Column::UserId.eq(user.id))
        .filter(crate::entity::identity::Column::Provider.eq("email"))
        .exec(txn)
        .await?;
    Ok(Some(user))
}

/// `user`'s address proven by the token `row` of `kind` (opening any e-mailed link proves it).
/// Until now anyone could have signed up with the address, so the password becomes the one of
/// the sign-up whose link this is, and none at all when the proof came another way (a magic
/// link, a recovery): a password chosen before the address was proven may be a stranger's.
async fn prove_address(
    txn: &sea_orm::DatabaseTransaction,
    user: user::Model,
    row: &one_time_token::Model,
    kind: TokenKind,
    now: OffsetDateTime,
) -> AuthResult<user::Model> {
    if user.email_confirmed_at.is_some() {
        return Ok(user);
    }
    let password = if kind == TokenKind::Confirmation { row.password_hash.clone() } else { None };
    // The other sign-ups' links carry their passwords: they must never apply now.
    one_time_token::Entity::delete_many()
        .filter(one_time_token::Column::UserId.eq(user.id))
        .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation.as_str()))
        .exec(txn)
        .await?;
    let mut active = user.into_active_model();
    active.email_confirmed_at = Set(Some(now));
    active.encrypted_password = Set(password);
    active.updated_at = Set(now);
    Ok(active.update(txn).await?)
}

/// A wrong code for these tokens' address: each counts one more attempt, and those that
/// reach [`MAX_CODE_ATTEMPTS`] are void (the person asks for a new e-mail).
async fn count_wrong_code(
    txn: &sea_orm::DatabaseTransaction,
    candidates: &[one_time_token::Model],
) -> AuthResult<()> {
    use sea_orm::sea_query::{Expr, ExprTrait as _};
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

#[derive(Clone, Copy)]
enum Lookup<'a> {
    Link(&'a str),
    Code { email: &'a str, code: &'a str },
}

#[derive(Debug, Deserialize)]
pub struct VerifyLinkQuery {
    #[serde(default)]
    token: String,
    #[serde(rename = "type", default)]
    kind: String,
    redirect_to: Option<String>,
}

/// `GET /verify`: the link in the e-mail. Redirects to `redirect_to` with, for a PKCE flow,
/// `?code=` to exchange, else the session in the fragment (the implicit flow); errors as
/// `error`, `error_code` and `error_description` in the query.
pub async fn verify_link(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<VerifyLinkQuery>,
) -> Response {
    let target = redirect_target(&state.auth, query.redirect_to.as_deref());
    let outcome = async {
        rate_limit::per_client(&state.db, "verify", &client, state.auth.config.rate_limit).await?;
        let kinds = kinds_for(&query.kind)?;
        consume(&state, kinds, Lookup::Link(&query.token)).await
    }
    .await;
    match outcome {
        Ok(Verified::HalfOfEmailChange) => {
            let message =
                "Confirmation link accepted. Please proceed to confirm link sent to the other email";
            redirect_with(&target, false, &[("message", message)])
        }
        Ok(Verified::SignIn { user, flow: Some(flow), .. }) => {
            // The method travels in the flow state, to the code exchange.
            let target = flow
                .redirect_to
                .as_deref()
                .map_or(target.clone(), |to| redirect_target(&state.auth, Some(to)));
            match crate::db::committed(&state.db, async |txn| issue_auth_code(txn, flow, user.id).await).await
            {
                Ok(code) => redirect_with(&target, true, &[("code", &code)]),
                Err(error) => error_redirect(&target, &error),
            }
        }
        Ok(Verified::SignIn { user, method, flow: None }) => {
            match session::start(&state.auth, &state.db, &user, method, &client.0).await {
                Ok(tokens) => session_redirect(&target, &tokens, Some(&query.kind)),
                Err(error) => error_redirect(&target, &error),
            }
        }
        Err(error) => error_redirect(&target, &error),
    }
}

#[derive(Debug, Deserialize)]
pub struct VerifyBody {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    token_hash: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    redirect_to: Option<String>,
}

/// `POST /verify`: a code typed in (`email` + `token`) or a link's token (`token_hash`). Answers
/// a session.
pub async fn verify(
    State(state): State<AppState>,
    client: Client,
    AuthJson(body): AuthJson<VerifyBody>,
) -> AuthResult<Response> {
    rate_limit::per_client(&state.db, "verify", &client, state.auth.config.rate_limit).await?;
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    let kinds = kinds_for(&body.kind)?;
    let _ = body.redirect_to;
    let verified = if body.token_hash.is_empty() {
        if body.token.is_empty() || body.email.is_empty() {
            return Err(AuthError::validation(
                "Verify requires either a token and an email, or a token hash",
            ));
        }
        let email = account::parse_email(&body.email)?;
        // Counted per address as well as per client: guesses spread over many clients still
        // meet one limit.
        rate_limit::per_account(&state.db, "verify", &email, state.auth.config.rate_limit).await?;
        consume(&state, kinds, Lookup::Code { email: &email, code: body.token.trim() }).await?
    } else {
        consume(&state, kinds, Lookup::Link(&body.token_hash)).await?
    };
    match verified {
        Verified::HalfOfEmailChange => Ok(Json(json!({
            "msg": "Confirmation link accepted. Please proceed to confirm link sent to the other email",
            "code": 200,
        }))
        .into_response()),
        Verified::SignIn { user, method, flow } => {
            if let Some(flow) = flow {
                // A typed code ends the PKCE flow as well; its state is no longer needed.
                flow_state::Entity::delete_by_id(flow.id).exec(&state.db).await?;
            }
            Ok(Json(session::start(&state.auth, &state.db, &user, method, &client.0).await?).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct RecoverBody {
    #[serde(default)]
    email: String,
    #[serde(flatten)]
    pkce: PkceFields,
}

#[derive(Debug, Deserialize)]
pub struct RedirectQuery {
    redirect_to: Option<String>,
}

/// `POST /recover`: a password-reset link, if the address has an account. Answers `{}` either way.
pub async fn recover(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<RecoverBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "recover", &client, auth.config.rate_limit).await?;
    let email = account::parse_email(&body.email)?;
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    let Some(user) = account::find_by_email(&state.db, &email).await? else {
        email_clock(auth, &state.db, TokenKind::Recovery, &email).await?;
        return Ok(Json(json!({})));
    };
    let flow = crate::db::committed(&state.db, async |txn| {
        flow_for_link(txn, pkce, user.id, "recovery", "recovery", &redirect).await
    })
    .await?;
    let mail = TokenMail::new(TokenKind::Recovery, &email, &redirect, flow);
    send_token_mail(auth, &state.db, &user, mail).await?;
    let mut active = user.into_active_model();
    active.recovery_sent_at = Set(Some(OffsetDateTime::now_utc()));
    crate::db::committed(&state.db, async |txn| active.update(txn).await).await?;
    Ok(Json(json!({})))
}

#[derive(Debug, Deserialize)]
pub struct OtpBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone: String,
    data: Option<Value>,
    create_user: Option<bool>,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `POST /otp` (and the older `/magiclink`): a magic link and code. A new address gets an
/// account (unless `create_user` is false) and a confirmation e-mail instead.
pub async fn otp(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<OtpBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "otp", &client, auth.config.rate_limit).await?;
    if !body.phone.is_empty() {
        return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
    }
    let email = account::parse_email(&body.email)?;
    let metadata = account::parse_metadata(body.data)?;
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    // One clock for every answer, whether the address has an account, gets one now, or gets
    // nothing: a second request within the interval is refused the same way for all of them.
    email_clock(auth, &state.db, TokenKind::MagicLink, &email).await?;
    let (user, kind) = match account::find_by_email(&state.db, &email).await? {
        Some(user) => (user, TokenKind::MagicLink),
        None if body.create_user.unwrap_or(true) => (
            crate::db::committed(&state.db, async |txn| {
                account::create(txn, &email, None, metadata, "email", None, false).await
            })
            .await?,
            TokenKind::Confirmation,
        ),
        // Supabase Auth answers `otp_disabled` here, which tells who is registered; we answer
        // as if a link went out.
        None => return Ok(Json(json!({}))),
    };
    let authentication_method = if kind == TokenKind::Confirmation { "email/signup" } else { "magiclink" };
    let flow = crate::db::committed(&state.db, async |txn| {
        flow_for_link(txn, pkce, user.id, "email", authentication_method, &redirect).await
    })
    .await?;
    let mail = TokenMail::new(kind, &email, &redirect, flow);
    let issued =
        crate::db::committed(&state.db, async |txn| store_token(txn, &auth.vault, &user, &mail).await)
            .await?;
    mail_token(auth, &state.db, &user, &mail, &issued).await?;
    Ok(Json(json!({})))
}

#[derive(Debug, Deserialize)]
pub struct ResendBody {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    email: String,
    #[serde(flatten)]
    pkce: PkceFields,
}

/// `POST /resend`: the sign-up confirmation or the e-mail change links again.
pub async fn resend(
    State(state): State<AppState>,
    client: Client,
    Query(query): Query<RedirectQuery>,
    AuthJson(body): AuthJson<ResendBody>,
) -> AuthResult<Json<Value>> {
    let auth = &state.auth;
    rate_limit::per_client(&state.db, "otp", &client, auth.config.rate_limit).await?;
    let email = account::parse_email(&body.email)?;
    // A PKCE client resends with a new challenge: the new link then ends in an auth code too.
    let pkce = body.pkce.parse()?;
    let redirect = redirect_target(auth, query.redirect_to.as_deref());
    let user = account::find_by_email(&state.db, &email).await?;
    match (body.kind.as_str(), user) {
        ("signup", Some(user)) if user.email_confirmed_at.is_none() => {
            email_clock(auth, &state.db, TokenKind::Confirmation, &email).await?;
            let flow = crate::db::committed(&state.db, async |txn| {
                flow_for_link(txn, pkce, user.id, "email", "email/signup", &redirect).await
            })
            .await?;
            // The new link replaces the pending ones (as in Supabase Auth). It carries the
            // password of the sign-up it stands for when there is exactly one; with several
            // sign-ups pending, someone may be squatting the address and it cannot tell whose
            // this is, so it carries none (the person confirms, is signed in, and chooses one).
            let pending = one_time_token::Entity::find()
                .filter(one_time_token::Column::UserId.eq(user.id))
                .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation.as_str()))
                .all(&state.db)
                .await?;
            let password_hash = match pending.as_slice() {
                [only] => only.password_hash.clone(),
                _ => None,
            };
            one_time_token::Entity::delete_many()
                .filter(one_time_token::Column::UserId.eq(user.id))
                .filter(one_time_token::Column::Kind.eq(TokenKind::Confirmation.as_str()))
                .exec(&state.db)
                .await?;
            let mail = TokenMail {
                password_hash,
                ..TokenMail::new(TokenKind::Confirmation, &email, &redirect, flow)
            };
            let issued = crate::db::committed(&state.db, async |txn| {
                store_token(txn, &auth.vault, &user, &mail).await
            })
            .await?;
            mail_token(auth, &state.db, &user, &mail, &issued).await?;
        }
        ("email_change", Some(user)) if user.email_change.is_some() => {
            let new_email = user.email_change.clone().unwrap_or_default();
            if account::find_by_email(&state.db, &new_email).await?.is_some() {
                // The address belongs to someone else (see `PUT /user`): its owner hears of
                // it again, and gets no link.
                email_clock(auth, &state.db, TokenKind::EmailChangeNew, &new_email).await?;
                super::account::tell_owner_address_taken(auth, &state.db, &new_email).await?;
                return Ok(Json(json!({ "message_id": null })));
            }
            let flow = crate::db::committed(&state.db, async |txn| {
                flow_for_link(txn, pkce, user.id, "email", "email_change", &redirect).await
            })
            .await?;
            let mail = TokenMail::new(TokenKind::EmailChangeNew, &new_email, &redirect, flow);
            send_token_mail(auth, &state.db, &user, mail).await?;
        }
        ("signup" | "email_change", _) => {
            let kind =
                if body.kind == "signup" { TokenKind::Confirmation } else { TokenKind::EmailChangeNew };
            email_clock(auth, &state.db, kind, &email).await?;
        }
        ("sms" | "phone_change", _) => {
            return Err(AuthError::bad_request("phone_provider_disabled", "Phone logins are disabled"));
        }
        _ => {
            return Err(AuthError::validation(
                "Missing one of these types: signup, email_change, sms, phone_change",
            ));
        }
    }
    Ok(Json(json!({ "message_id": null })))
}
