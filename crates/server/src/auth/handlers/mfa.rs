//! TOTP second factors: enrol (secret, `otpauth://` URI and QR code as SVG), challenge, verify
//! (raises the session to `aal2`) and unenrol.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
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
    entity::mfa_factor::{self, FactorStatus},
    repo::auth::{
        challenges,
        factors::{self, NewFactor},
    },
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
    let factors = factors::of_user(&state.db, user.id).await?;
    if factors.iter().any(|factor| factor.status == FactorStatus::Verified) && !current.is_aal2() {
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
    let factor_id = Uuid::new_v4();
    let new = NewFactor {
        id: factor_id,
        user_id: user.id,
        friendly_name: friendly_name.clone(),
        sealed_secret: state.auth.vault.seal(&enrolment.secret, &factor_place(factor_id))?,
    };
    let factor = factors::create(&state.db, new).await?;
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
    factors::by_id(&state.db, id)
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
    let now = OffsetDateTime::now_utc();
    let challenge = challenges::replace(&state.db, factor.id, client.0.ip.clone(), now).await?;
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
    let challenge = challenges::by_id(&state.db, challenge_id)
        .await?
        .filter(|challenge| challenge.factor_id == factor.id)
        .ok_or_else(challenge_not_found)?;
    let now = OffsetDateTime::now_utc();
    if now - challenge.created_at > CHALLENGE_EXPIRY {
        challenges::delete(&state.db, challenge.id).await?;
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
    // Refused when this code's step (or a later one) was accepted meanwhile, even by a request
    // running at the same moment.
    let recorded = factors::record_step(&state.db, factor.id, challenge.id, step, now).await?;
    if !recorded {
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
    if factor.status == FactorStatus::Verified && !current.is_aal2() {
        return Err(AuthError::new(
            StatusCode::UNAUTHORIZED,
            "insufficient_aal",
            "AAL2 required to unenroll verified factor",
        ));
    }
    factors::delete(&state.db, factor.id).await?;
    Ok(Json(json!({ "id": factor.id })))
}
