//! Every route of the server, in one place. Each feature module exports its handlers; this file
//! decides where they live and which layers wrap them.

mod account;
mod catalog;
mod contact;
pub(crate) mod cross_site;
mod designs;
mod embedded;
pub(crate) mod health;
mod icons;
pub(crate) mod inventory;
mod jobs;
mod meta;
mod metrics;
mod openapi;
mod quote_links;
mod quotes;
mod teams;
mod users;
mod web;

use std::time::Duration;

use axum::{
    Router,
    body::Bytes,
    extract::{DefaultBodyLimit, Request},
    http::{HeaderName, HeaderValue, StatusCode, header},
    middleware,
    response::{IntoResponse, Response},
    routing::{any, get},
};
use tower::ServiceBuilder;
use tower_http::{
    catch_panic::CatchPanicLayer,
    compression::{
        CompressionLayer,
        predicate::{DefaultPredicate, NotForContentType, Predicate as _},
    },
    limit::RequestBodyLimitLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    set_header::SetResponseHeaderLayer,
    timeout::TimeoutLayer,
    trace::TraceLayer,
};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth,
    config::Environment,
    error::{AppError, BODY_LIMIT, ErrorBody, FieldError, json_errors, status_error},
    extract::AUTH_COOKIE,
    limits, mail,
    state::AppState,
    telemetry::RequestLine,
};

/// Largest request body the auth service reads: credentials and a little metadata.
const AUTH_BODY_LIMIT: usize = 64 * 1024;

/// The longest path and query string served: far above anything Bobbin's pages and API use,
/// and below hyper's own limit of 64 KiB (past which `crate::listener` shapes hyper's answer),
/// so an oversized address is refused before tracing, routing and query parsing read it.
const MAX_URI_BYTES: usize = 16 * 1024;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The `Cache-Control` of every answer that depends on who asks (the product API's per-person
/// routes, the auth service): no cache, shared or the browser's own, keeps it, so a later
/// visitor on the same computer or behind the same proxy is never handed someone else's data.
/// `private` says the same to a cache that does not know `no-store`. Rejected: `no-cache` with
/// `Vary: Authorization, Cookie`, which would let caches keep copies that nothing reads again
/// (the API has no `ETag` to revalidate them by).
const PER_PERSON: HeaderValue = HeaderValue::from_static("private, no-store");

/// [`PER_PERSON`] on every answer of the routes it wraps, unless the handler set its own.
fn per_person() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, PER_PERSON)
}

/// Scripts only from our origin (plus WebAssembly compilation); inline styles are allowed because
/// React components and the toast library set `style` attributes. Images and fetches from our
/// origin, and from the public icon API when `--icon-fallback-url` names one (`icons`: the app
/// fetches its icons, and follows the redirect to the API for one the embedded set lacks).
fn content_security_policy(icon_fallback: Option<&url::Url>) -> HeaderValue {
    let icon_api =
        icon_fallback.map(|url| format!(" {}", url.origin().ascii_serialization())).unwrap_or_default();
    let policy = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:{icon_api}; connect-src 'self'{icon_api}; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    );
    HeaderValue::from_str(&policy).expect("an origin is a valid header value")
}

/// The browser features Bobbin never uses, turned off for its pages and anything they embed.
const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), camera=(), display-capture=(), \
     geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     publickey-credentials-get=(), serial=(), usb=(), xr-spatial-tracking=()";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Bobbin API",
        description = "Thread and machine inventory, pricing and thread conversion for embroidery teams. \
                       Every error answers with `ErrorBody`."
    ),
    components(schemas(ErrorBody, FieldError)),
    modifiers(&SecuritySchemes),
    tags(
        (name = "meta", description = "Health and version of the service"),
        (name = "catalog", description = "The thread catalogue and the thread converter (public)"),
        (name = "users", description = "The signed-in person"),
        (name = "teams", description = "Teams and their members; roles owner, admin, member, viewer"),
        (name = "invites", description = "Invites to join a team, by e-mail"),
        (name = "settings", description = "Team settings, and each member's own settings in a team"),
        (name = "inventory", description = "The team's threads and machines: members write, viewers read"),
        (name = "quotes", description = "Saved quotes of the pricing calculator, priced again by the server: members save, viewers read"),
        (name = "jobs", description = "Jobs: a design of the library run on a machine, its colour plan, needles and stock check; the inventory's history of what jobs took. Members change, viewers read"),
        (name = "designs", description = "The team's design library, whose files are in the storage service area (`/storage/v1`): any member reads"),
    )
)]
struct ApiDoc;

/// The two ways to present the session: the access token from `/auth/v1/token` as a bearer
/// token, or the browser client's auth cookie.
struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build(),
            ),
        );
        components.add_security_scheme(
            "cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                AUTH_COOKIE,
                "The session as the browser client stores it (chunked as `.0`, `.1`, ... when long)",
            ))),
        );
    }
}

/// The OpenAPI document of every route, as `/api/v2/openapi.json` serves it and `bobbin openapi`
/// prints it (the browser's API types are generated from it: `scripts/api-types.sh`).
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut openapi) = documented(api_v2()).split_for_parts();
    // After the routes are in: `ApiDoc`'s own modifiers run before there is any operation.
    openapi::TeamPaths.modify(&mut openapi);
    openapi::CommonErrors.modify(&mut openapi);
    openapi::AnswersAsSent.modify(&mut openapi);
    openapi
}

/// The documented routes: the health and readiness checks, the metrics, and `v2` under `/api/v2`.
fn documented(v2: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(metrics::metrics))
        .nest("/api/v2", v2)
}

/// The router of `--metrics-bind`'s own address.
pub fn metrics_router(metrics: std::sync::Arc<crate::metrics::Metrics>) -> Router {
    metrics::separate_router(metrics)
}

/// The whole application.
pub fn router(state: AppState, request_timeout: Duration) -> Router {
    // Only the product API counts against `--max-requests-in-flight`: the health check must
    // answer under load, and the auth service has its own limits.
    let (api, _) = documented(
        api_v2().layer(middleware::from_fn_with_state(state.in_flight.clone(), limits::shed_load)),
    )
    .split_for_parts();
    let api = api
        .route("/api/v2/openapi.json", openapi_json())
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        // One stack, outermost first (see the layers of every answer below).
        .layer(
            ServiceBuilder::new()
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request_timeout))
                .layer(DefaultBodyLimit::max(BODY_LIMIT))
                .layer(middleware::from_fn_with_state(state.clone(), cross_site::refuse_cross_site)),
        )
        // A layer of its own: it changes the body's type, which the one inside reads as axum's.
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        // Outermost, so it also shapes the 408 and 413 answers of the layers above.
        .layer(middleware::map_response(json_errors));

    let auth = Router::new()
        .nest("/auth/v1", auth::routes::router())
        // Answers carry tokens and users: no cache, shared or private, may keep them (the JWKS
        // sets its own, public, lifetime; `/settings` and `/health` are the same for all, and
        // kept by none all the same).
        .layer(
            ServiceBuilder::new()
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request_timeout))
                .layer(DefaultBodyLimit::max(AUTH_BODY_LIMIT))
                .layer(per_person()),
        );

    // The storage service area's own layers (its timeout and body limit, the cross-site check,
    // errors in Storage's shape) are in its router; no cache keeps its answers but those it
    // allows (a download's `private` lifetime).
    let storage = Router::new().nest("/storage/v1", crate::storage::router(&state)).layer(per_person());

    let mut app = Router::new()
        .merge(api)
        .merge(auth)
        .merge(storage)
        .route("/icons/{prefix}/{file}", get(icons::icon))
        // A customer's quote link: the app's page, or a plain 404 or 410 (routes/quote_links.rs).
        .route("/q/{token}", get(quote_links::page))
        .layer(middleware::from_fn_with_state(state.clone(), health::watch_storage));
    // The outbox holds everyone's sign-in links and codes: development only.
    if state.environment == Environment::Development {
        app = app.merge(mail::mailbox::router());
    }

    // Only where people reach Bobbin over https: over plain http the header is ignored anyway,
    // and on a laptop it would pin `localhost` to https for a year.
    let hsts = (state.auth.config.site_url.scheme() == "https").then(|| {
        SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        )
    });
    let request_log = TraceLayer::new_for_http()
        .make_span_with(|request: &Request| {
            let request_id =
                request.headers().get(&REQUEST_ID).and_then(|value| value.to_str().ok()).unwrap_or_default();
            // The path only: query strings can carry tokens.
            tracing::info_span!("request", method = %request.method(), path = request.uri().path(), request_id)
        })
        .on_request(())
        .on_response(RequestLine)
        // One line per request: failures are already in the response line (and 5xx causes are
        // logged by `AppError`).
        .on_failure(());
    // The layers of every answer, as one stack, outermost first. axum boxes a route's service
    // again at each `Router::layer`, and every request clones each box: added one by one, these
    // thirteen were thirteen boxes a request. The route is known here already (axum routes before
    // it runs a router's layers).
    let layers = ServiceBuilder::new()
        // Outermost, so that every answer counts, the 414 below included.
        .option_layer(
            state
                .metrics
                .clone()
                .map(|metrics| middleware::from_fn_with_state(metrics, crate::metrics::track)),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        // Outside the request log, which would otherwise write the whole address.
        .layer(middleware::from_fn(refuse_long_uris))
        .layer(request_log)
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(CatchPanicLayer::custom(|_panic| {
            tracing::error!("a request handler panicked");
            status_error(StatusCode::INTERNAL_SERVER_ERROR)
        }))
        // Embedded files arrive compressed already (routes/embedded.rs); this compresses the rest.
        // A zip (a team's archive) is compressed already: compressed again, it would cost the
        // threads that serve requests CPU for nothing.
        .layer(
            CompressionLayer::new()
                .compress_when(DefaultPredicate::new().and(NotForContentType::const_new("application/zip"))),
        )
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // No window Bobbin opens (or that opens Bobbin) can reach into the other.
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static(PERMISSIONS_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            content_security_policy(state.icon_fallback.as_ref()),
        ))
        .option_layer(hsts);
    app.merge(web::router(state.environment)).layer(layers).with_state(state)
}

/// `/api/v2/openapi.json`, written at its first request rather than at start, which it would
/// slow by milliseconds.
fn openapi_json() -> axum::routing::MethodRouter<AppState> {
    let written = std::sync::Arc::new(std::sync::OnceLock::<Bytes>::new());
    get(move || {
        let json = written
            .get_or_init(|| Bytes::from(openapi().to_json().expect("the OpenAPI document serialises")))
            .clone();
        async move { ([(header::CONTENT_TYPE, "application/json")], json) }
    })
}

/// Every route under `/api/v2`, with its OpenAPI description: those whose answer is the same
/// whoever asks (the service's versions, the thread catalogue and the converter), then those
/// that depend on who asks, which no cache may keep ([`PER_PERSON`]). The first keep the
/// caching they had: no `Cache-Control` of their own, and no session read.
fn api_v2() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(meta::meta))
        .routes(routes!(catalog::lines))
        .routes(routes!(catalog::line))
        .routes(routes!(catalog::thread))
        .routes(routes!(catalog::search))
        .routes(routes!(catalog::convert))
        .routes(routes!(catalog::convert_bulk))
        .merge(per_person_v2().layer(per_person()))
}

/// The routes under `/api/v2` whose answer depends on who asks: the signed-in person's, their
/// teams', and an invite's (its token is a secret).
fn per_person_v2() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(users::me, account::delete))
        .routes(routes!(account::deletion))
        .routes(routes!(account::export))
        .routes(routes!(users::set_default_team))
        .routes(routes!(contact::info, contact::send))
        .routes(routes!(teams::list, teams::create))
        .routes(routes!(teams::get, teams::rename, teams::delete))
        .routes(routes!(teams::members, teams::put_member))
        .routes(routes!(teams::remove_member))
        .routes(routes!(teams::export::export))
        .routes(routes!(designs::list))
        .routes(routes!(designs::get))
        .routes(routes!(designs::preview))
        .routes(routes!(teams::invites::list, teams::invites::create))
        .routes(routes!(teams::invites::mine))
        .routes(routes!(teams::invites::revoke))
        .routes(routes!(teams::invites::accept_by_token))
        .routes(routes!(teams::invites::preview))
        .routes(routes!(teams::invites::accept_by_public_id))
        .routes(routes!(teams::settings::team_all, teams::settings::team_patch))
        .routes(routes!(teams::settings::team_one, teams::settings::team_set))
        .routes(routes!(teams::settings::member_all, teams::settings::member_patch))
        .routes(routes!(teams::settings::member_one, teams::settings::member_set))
        .routes(routes!(
            inventory::threads::list,
            inventory::threads::create,
            inventory::threads::change_many
        ))
        .routes(routes!(inventory::threads::get, inventory::threads::update, inventory::threads::delete))
        .routes(routes!(inventory::threads::adjust))
        .routes(routes!(inventory::threads::set_quantity))
        .routes(routes!(inventory::threads::bulk))
        .routes(routes!(inventory::threads::owned))
        .routes(routes!(inventory::threads::closest))
        .routes(routes!(inventory::threads::export))
        .routes(routes!(inventory::threads::import))
        .routes(routes!(inventory::machines::list, inventory::machines::create))
        .routes(routes!(inventory::machines::get, inventory::machines::update, inventory::machines::delete))
        .routes(routes!(inventory::machines::log))
        .routes(routes!(inventory::machines::unlog))
        .routes(routes!(quotes::list, quotes::create))
        .routes(routes!(quotes::get, quotes::update, quotes::delete))
        .routes(routes!(quotes::duplicate))
        .routes(routes!(quotes::events))
        .routes(routes!(quotes::document))
        .routes(routes!(quotes::revision))
        .routes(routes!(quotes::send))
        .routes(routes!(quotes::revoke))
        .routes(routes!(quotes::pdf))
        .routes(routes!(quote_links::pdf))
        .routes(routes!(quote_links::get))
        .routes(routes!(quote_links::viewed))
        .routes(routes!(quote_links::approve))
        .routes(routes!(quote_links::decline))
        .routes(routes!(quote_links::ask))
        .routes(routes!(quote_links::preview))
        .routes(routes!(quote_links::logo))
        .routes(routes!(jobs::list, jobs::create))
        .routes(routes!(jobs::get, jobs::update))
        .routes(routes!(jobs::pieces))
        .routes(routes!(jobs::history))
        .routes(routes!(jobs::undo))
        .routes(routes!(jobs::shopping_list))
        .routes(routes!(jobs::order))
        .routes(routes!(jobs::receive))
        .routes(routes!(jobs::reservations))
        .routes(routes!(jobs::from_quote))
}

/// Answers `414` in the JSON error shape to an address longer than [`MAX_URI_BYTES`].
async fn refuse_long_uris(request: Request, next: middleware::Next) -> Response {
    let length = request.uri().path_and_query().map_or(0, |address| address.as_str().len());
    if length > MAX_URI_BYTES {
        tracing::info!(method = %request.method(), length, "request refused: address too long");
        return status_error(StatusCode::URI_TOO_LONG);
    }
    next.run(request).await
}

async fn api_not_found(request: Request) -> Response {
    AppError::NotFound(format!("There is no API endpoint at {} {}.", request.method(), request.uri().path()))
        .into_response()
}
