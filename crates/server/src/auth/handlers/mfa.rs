//! TOTP second factors: enrol (secret, `otpauth://` URI and QR code as SVG), challenge, verify
//! (raises the session to `aal2`) and unenrol.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, Condition, EntityTrait as _, QueryFilter as _,
};
use serde::Deserialize;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::{
    auth::{
        error::{AuthError, AuthResult},
        extract::{AuthJson, Client, CurrentSession},
        rate_limit, session, totp,
        vault::factor_place,
    },
    entity::{mfa_challenge, mfa_factor},
    state::AppState,
};

/// Most factors an account may have (verified and not).
const MAX_FACTORS: u64 = 10;
/// Codes one account may try in 5 minutes: a person mistyping twice is never stopped; someone
/// with a stolen password, trying without pause, has about one chance in 230 a day (three codes
/// are valid at any moment: the current step and one either side).
const CODE_TRIES_PER_WINDOW: u32 = 5;
/// How long a challenge may be answered.
const CHALLENGE_EXPIRY: Duration = Duration::minutes(5);

#[derive(Debug, Deserialize)]
pub struct EnrollBody {
    #[serde(default)]
    factor_type: String,
    friendly_name: Option<String>,
    issuer: Option<String>,
}

/// `POST /factors`.
pub async fn enroll(
    State(state): State<AppState>,
    current: CurrentSession,
    AuthJson(body): AuthJson<EnrollBody>,
) -> AuthResult<Json<Value>> {
    match body.factor_type.as_str() {
        "totp" => {}
        "phone" => {
            return Err(AuthError::unprocessable(
                "mfa_phone_enroll_not_enabled",
                "MFA enroll is disabled for Phone",
            ));
        }
        "webauthn" => {
            return Err(AuthError::unprocessable(
                "mfa_webauthn_enroll_not_enabled",
                "MFA enroll is disabled for WebAuthn",
            ));
        }
        other => return Err(AuthError::validation(format!("Invalid factor type: {other:?}; use totp"))),
    }
    let friendly_name = body.friendly_name.map(|name| name.trim().to_owned()).filter(|name| !name.is_empty());
    if friendly_name.as_ref().is_some_and(|name| name.chars().count() > 100) {
        return Err(AuthError::validation("A factor's friendly name must be at most 100 characters"));
    }
    let user = &current.user;
    let factors =
        mfa_factor::Entity::find().filter(mfa_factor::Column::UserId.eq(user.id)).all(&state.db).await?;
    if factors.iter().any(|factor| factor.status == "verified") && !current.is_aal2() {
        return Err(AuthError::new(
            StatusCode::UNAUTHORIZED,
            "insufficient_aal",
            "AAL2 required to enroll a new factor",
        ));
    }
    if factors.len() as u64 >= MAX_FACTORS {
        return Err(AuthError::unprocessable(
            "too_many_enrolled_mfa_factors",
            "Maximum number of verified factors reached, unenroll to continue",
        ));
    }
    if let Some(name) = &friendly_name
        && factors.iter().any(|factor| factor.friendly_name.as_ref() == Some(name))
    {
        return Err(AuthError::unprocessable(
            "mfa_factor_name_conflict",
            format!("A factor with the friendly name \"{name}\" for this user already exists"),
        ));
    }
    // The name authenticator apps show. A colon would break the otpauth label (an IPv6 host has
    // colons), so those fall back to the product name.
    let issuer = body
        .issuer
        .map(|issuer| issuer.trim().to_owned())
        .filter(|issuer| !issuer.is_empty())
        .or_else(|| {
            state.auth.config.site_url.host_str().filter(|host| !host.contains(':')).map(str::to_owned)
        })
        .unwrap_or_else(|| "Bobbin".to_owned());
    // The client turns `qr_code` into a data URL itself (auth-js `mfa.enroll`): plain SVG here.
    let enrolment =
        totp::enrol(&issuer, &user.email).map_err(|error| AuthError::validation(error.to_string()))?;
    let now = OffsetDateTime::now_utc();
    let factor_id = Uuid::new_v4();
    let factor = mfa_factor::ActiveModel {
        id: Set(factor_id),
        user_id: Set(user.id),
        friendly_name: Set(friendly_name.clone()),
        factor_type: Set("totp".to_owned()),
        status: Set("unverified".to_owned()),
        secret: Set(state.auth.vault.seal(&enrolment.secret, &factor_place(factor_id))?),
        last_used_step: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let factor = crate::db::committed(&state.db, async |txn| factor.insert(txn).await).await?;
    Ok(Json(json!({
        "id": factor.id,
        "type": "totp",
        "friendly_name": friendly_name.unwrap_or_default(),
        "totp": { "qr_code": enrolment.qr_code, "secret": enrolment.secret, "uri": enrolment.uri },
    })))
}

async fn own_factor(state: &AppState, current: &CurrentSession, id: &str) -> AuthResult<mfa_factor::Model> {
    let not_found = || AuthError::not_found("mfa_factor_not_found", "Factor not found");
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    mfa_factor::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .filter(|factor| factor.user_id == current.user.id)
        .ok_or_else(not_found)
}

/// `POST /factors/{id}/challenge`.
pub async fn challenge(
    State(state): State<AppState>,
    client: Client,
    current: CurrentSession,
    Path(id): Path<String>,
) -> AuthResult<Json<Value>> {
    let factor = own_factor(&state, &current, &id).await?;
    // Old challenges of this factor are of no further use.
    mfa_challenge::Entity::delete_many()
        .filter(mfa_challenge::Column::FactorId.eq(factor.id))
        .exec(&state.db)
        .await?;
    let now = OffsetDateTime::now_utc();
    let challenge = mfa_challenge::ActiveModel {
        id: Set(Uuid::new_v4()),
        factor_id: Set(factor.id),
        ip: Set(client.0.ip.clone()),
        created_at: Set(now),
        verified_at: Set(None),
    };
    let challenge = crate::db::committed(&state.db, async |txn| challenge.insert(txn).await).await?;
    Ok(Json(json!({
        "id": challenge.id,
        "type": "totp",
        "expires_at": (now + CHALLENGE_EXPIRY).unix_timestamp(),
    })))
}

#[derive(Debug, Deserialize)]
pub struct VerifyBody {
    #[serde(default)]
    challenge_id: String,
    #[serde(default)]
    code: String,
}

/// `POST /factors/{id}/verify`: answers new tokens at `aal2`, and marks a new factor verified.
pub async fn verify(
    State(state): State<AppState>,
    client: Client,
    current: CurrentSession,
    Path(id): Path<String>,
    AuthJson(body): AuthJson<VerifyBody>,
) -> AuthResult<Json<session::TokenResponse>> {
    // Six digits are guessable without a limit; counted per account, not only per address, and
    // tighter than other limits: whoever asks already holds the password.
    rate_limit::per_account(&state.db, "mfa", &current.user.id.to_string(), CODE_TRIES_PER_WINDOW).await?;
    rate_limit::per_client(&state.db, "mfa", &client, state.auth.config.rate_limit).await?;
    let factor = own_factor(&state, &current, &id).await?;
    let challenge_not_found = || {
        AuthError::not_found("mfa_factor_not_found", "MFA factor with the provided challenge ID not found")
    };
    let challenge_id = Uuid::parse_str(&body.challenge_id).map_err(|_| challenge_not_found())?;
    let challenge = mfa_challenge::Entity::find_by_id(challenge_id)
        .one(&state.db)
        .await?
        .filter(|challenge| challenge.factor_id == factor.id)
        .ok_or_else(challenge_not_found)?;
    let now = OffsetDateTime::now_utc();
    if now - challenge.created_at > CHALLENGE_EXPIRY {
        mfa_challenge::Entity::delete_by_id(challenge.id).exec(&state.db).await?;
        return Err(AuthError::unprocessable(
            "mfa_challenge_expired",
            format!(
                "MFA challenge {} has expired, verify against another challenge or create a new challenge.",
                challenge.id
            ),
        ));
    }
    let last_used = factor.last_used_step.and_then(|step| u64::try_from(step).ok());
    let unix_time = u64::try_from(now.unix_timestamp()).unwrap_or_default();
    let secret = state.auth.vault.open(&factor.secret, &factor_place(factor.id))?;
    let Some(step) = totp::verify(&secret, body.code.trim(), unix_time, last_used) else {
        return Err(AuthError::unprocessable("mfa_verification_failed", "Invalid TOTP code entered"));
    };
    let step = i64::try_from(step).map_err(AuthError::internal)?;
    let txn = crate::db::begin_write(&state.db).await?;
    // Record the step only if no other request recorded it (or a later one) meanwhile: the
    // same code can never be accepted twice, even by two requests at once.
    let updated = mfa_factor::Entity::update_many()
        .col_expr(mfa_factor::Column::LastUsedStep, step.into())
        .col_expr(mfa_factor::Column::Status, "verified".into())
        .col_expr(mfa_factor::Column::UpdatedAt, now.into())
        .filter(mfa_factor::Column::Id.eq(factor.id))
        .filter(
            Condition::any()
                .add(mfa_factor::Column::LastUsedStep.is_null())
                .add(mfa_factor::Column::LastUsedStep.lt(step)),
        )
        .exec(&txn)
        .await?;
    mfa_challenge::Entity::delete_by_id(challenge.id).exec(&txn).await?;
    txn.commit().await?;
    if updated.rows_affected != 1 {
        return Err(AuthError::unprocessable("mfa_verification_failed", "Invalid TOTP code entered"));
    }
    Ok(Json(session::step_up(&state.auth, &state.db, current.session).await?))
}

/// `DELETE /factors/{id}`: a verified factor only from an `aal2` session.
pub async fn unenroll(
    State(state): State<AppState>,
    current: CurrentSession,
    Path(id): Path<String>,
) -> AuthResult<Json<Value>> {
    let factor = own_factor(&state, &current, &id).await?;
    if factor.status == "verified" && !current.is_aal2() {
        return Err(AuthError::new(
            StatusCode::UNAUTHORIZED,
            "insufficient_aal",
            "AAL2 required to unenroll verified factor",
        ));
    }
    mfa_factor::Entity::delete_by_id(factor.id).exec(&state.db).await?;
    Ok(Json(json!({ "id": factor.id })))
}
