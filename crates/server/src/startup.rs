//! Building and running the server. Tests build an [`Application`] on port 0 with a fresh
//! database and talk to it over HTTP, exactly as a browser would.

use std::{convert::Infallible, future::Future, net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context as _;
use axum::{Extension, extract::connect_info::ConnectInfo, middleware::AddExtension, serve::IncomingStream};
use migration::{Migrator, MigratorTrait as _};
use sea_orm::sqlx::{
    Connection as _, Either,
    postgres::{PgAdvisoryLock, PgConnection},
};
use tokio::{net::TcpListener, sync::watch};
use tower::Layer as _;

use crate::db::Database;
/// What [`Application::thread_cache`] gives.
pub use crate::repo::thread_cache::ThreadCache;
use crate::{
    auth::AuthService,
    backup::{self, ServerLock},
    blocking::HeavyWork,
    config::{AuthArgs, DatabaseArgs, Environment, ServeArgs},
    db,
    db::StorageWatch,
    limits::{Exports, InFlight, PerClient},
    listener::JsonErrorsListener,
    metrics::Metrics,
    repo::thread_cache::CACHED_BYTES,
    routes,
    schema::SchemaState,
    state::{AppState, Files, Shared},
};

#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    db: Database,
    threads: ThreadCache,
    /// `--metrics-bind`'s listener and what it serves.
    metrics: Option<(TcpListener, axum::Router)>,
    shutdown_grace: Duration,
    /// Held while serving a SQLite database, so `bobbin restore` cannot replace it.
    _lock: Option<ServerLock>,
}

/// Where a development server without `BOBBIN_CONTACT_EMAIL` sends the contact page's messages:
/// a `.localhost` address, which no mail server delivers, seen in the development mailbox.
pub const DEVELOPMENT_CONTACT: &str = "contact@bobbin.localhost";

impl Application {
    /// Opens (and creates) the database, applies pending migrations and binds the listener.
    pub async fn build(args: ServeArgs) -> anyhow::Result<Self> {
        // TLS (to OAuth providers and SMTP servers) uses ring. Installing it twice (tests start
        // several servers in one process) is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        if args.auth.autoconfirm && args.environment == Environment::Production {
            anyhow::bail!(
                "--autoconfirm (BOBBIN_AUTH_AUTOCONFIRM) is for development and tests: in production anyone could \
                 sign up with someone else's address. Remove it, or set --env development."
            );
        }
        let lock = ServerLock::serving(&args.database)?;
        let db = db::connect(&args.database).await?;
        let mut auth_args = args.auth.clone();
        if args.environment == Environment::Development && auth_args.contact_email.is_none() {
            // So the contact page can be tried where it is opened: its messages land in the
            // development mailbox (`/dev/mailbox`).
            auth_args.contact_email = Some(DEVELOPMENT_CONTACT.to_owned());
        }
        // Boxed: the migrations make a large future.
        let auth =
            Box::pin(one_server_at_a_time(&args.database, prepare(&db, &args.database, auth_args))).await?;
        let listener =
            TcpListener::bind(args.bind).await.with_context(|| format!("cannot listen on {}", args.bind))?;
        let metrics_listener = match args.metrics.metrics_bind {
            Some(address) => Some(
                TcpListener::bind(address)
                    .await
                    .with_context(|| format!("cannot listen on {address} for metrics (--metrics-bind)"))?,
            ),
            None => None,
        };
        if let Some(token) = &args.metrics.metrics_token {
            if token.expose().trim().is_empty() {
                anyhow::bail!(
                    "--metrics-token (BOBBIN_METRICS_TOKEN) is empty: set a long random string, or unset it"
                );
            }
            // A client's bearer token is read trimmed, so one with spaces around it could never match.
            if token.expose().trim() != token.expose() {
                anyhow::bail!(
                    "--metrics-token (BOBBIN_METRICS_TOKEN) starts or ends with a space: remove it"
                );
            }
        }
        if !auth.mailer.uses_smtp() {
            if args.environment == Environment::Production {
                tracing::warn!(
                    "BOBBIN_SMTP_URL is not set: e-mail (sign-up links, password resets) is only kept in the outbox table"
                );
            } else {
                tracing::info!("no SMTP server set: e-mail is shown at /dev/mailbox");
            }
        }
        let threads = ThreadCache::new(CACHED_BYTES);
        let metrics = (metrics_listener.is_some() || args.metrics.metrics_token.is_some())
            .then(|| Arc::new(Metrics::new(db.clone(), &threads, auth.mailer.counters())));
        let state = AppState::new(Shared {
            db: db.clone(),
            environment: args.environment,
            auth,
            trusted_proxy_hops: args.trust_forwarded_for.then_some(args.trusted_proxy_hops),
            threads,
            convert_limit: Arc::new(PerClient::per_minute(args.convert_rate_limit)),
            quote_link_limit: Arc::new(PerClient::per_minute(args.quote_link_rate_limit)),
            storage: StorageWatch::default(),
            in_flight: Arc::new(InFlight::new(args.max_requests_in_flight)),
            heavy_work: Arc::new(HeavyWork::new(args.heavy_work_concurrency())),
            exports: Exports::new(args.max_exports),
            files: Files::new(args.team_storage_mb.get(), args.max_file_mb.get()),
            metrics_token: args.metrics.metrics_token.clone(),
            metrics: metrics.clone(),
            icon_fallback: args.icon_fallback_url.clone(),
        });
        crate::prune::spawn(state.clone(), args.prune_interval);
        backup::spawn_scheduled(db.clone(), &args.database, &args.backups)?;
        let threads = state.threads.clone();
        let router = routes::router(state, args.request_timeout());
        let metrics = metrics_listener.zip(metrics.map(routes::metrics_router));
        Ok(Self {
            listener,
            router,
            db,
            threads,
            metrics,
            shutdown_grace: args.shutdown_grace(),
            _lock: lock,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn port(&self) -> u16 {
        self.local_addr().port()
    }

    /// The address of `--metrics-bind`'s listener, if there is one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics
            .as_ref()
            .map(|(listener, _)| listener.local_addr().expect("a bound listener has an address"))
    }

    /// The server's own database (tests inspect it: SQLite pragmas are per connection).
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// The server's copies of the teams' thread entries (tests count how often they are read).
    pub fn thread_cache(&self) -> &ThreadCache {
        &self.threads
    }

    /// Serves until `shutdown` completes, then lets requests in flight finish for up to the
    /// grace period, and closes the database.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        tracing::info!(address = %self.local_addr(), "listening");
        let (stopping_tx, mut stopping_rx) = watch::channel(false);
        if let Some((listener, router)) = self.metrics {
            serve_metrics(listener, router, stopping_rx.clone());
        }
        let server = axum::serve(JsonErrorsListener(self.listener), with_peer_address(self.router))
            .with_graceful_shutdown(async move {
                shutdown.await;
                tracing::info!("shutting down: finishing requests in flight");
                let _ = stopping_tx.send(true);
            });
        let grace = self.shutdown_grace;
        let grace_over = async move {
            let _ = stopping_rx.wait_for(|stopping| *stopping).await;
            tokio::time::sleep(grace).await;
        };
        tokio::select! {
            result = server => result.context("serving")?,
            () = grace_over => tracing::warn!(?grace, "requests still running after the grace period; stopping anyway"),
        }
        self.db.close().await.context("closing the database")?;
        tracing::info!("stopped");
        Ok(())
    }
}

/// Serves `--metrics-bind`'s address in a task of its own until the server stops. A plain
/// listener: hyper's own answers to unreadable requests need no JSON shape there.
fn serve_metrics(listener: TcpListener, router: axum::Router, mut stopping: watch::Receiver<bool>) {
    if let Ok(address) = listener.local_addr() {
        tracing::info!(%address, "serving metrics");
    }
    tokio::spawn(async move {
        let stopped = async move {
            let _ = stopping.wait_for(|stopping| *stopping).await;
        };
        if let Err(error) = axum::serve(listener, router).with_graceful_shutdown(stopped).await {
            tracing::error!(error = %error, "serving metrics stopped");
        }
    });
}

/// Applies pending migrations (keeping a copy of a SQLite database first) and starts the auth
/// service, which creates the key that signs sessions on the first start.
async fn prepare(db: &Database, database: &DatabaseArgs, auth: AuthArgs) -> anyhow::Result<Arc<AuthService>> {
    let schema = SchemaState::read(db).await.context("reading which migrations the database has")?;
    if !schema.unknown.is_empty() {
        // An older binary put back without restoring the database it ran on: say what to do,
        // rather than sea-orm's "Migration file of version … is missing".
        anyhow::bail!("{} (docs/deploy.md, \"Rolling back\")", schema.summary());
    }
    if let Some(copy) = backup::keep_before_migrating(db, database).await? {
        tracing::info!(copy = %copy.display(), "kept a copy of the database before migrating it");
    }
    Migrator::up(db.writes(), None).await.context("applying database migrations")?;
    db::ensure_writable(db).await?;
    AuthService::new(db, auth).await.context("starting the auth service")
}

/// Runs `work` while no other server on the same PostgreSQL database runs it. Servers started
/// together (replicas of one deployment) would otherwise each apply the same migration, and
/// all but one fail on tables the first created; and on a new database each would create a
/// signing key of its own and refuse the others' sessions. sqlx's advisory lock, held on a
/// connection of its own (not the pool's, which the work needs, however small it is), makes
/// the others wait; a server that dies holding it frees it with its connection. SQLite is one
/// server's file and needs no lock.
async fn one_server_at_a_time<T>(
    database: &DatabaseArgs,
    work: impl Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    let url = database.database_url.expose();
    if db::Engine::from_url(url)? != db::Engine::Postgres {
        return work.await;
    }
    let mut connection =
        PgConnection::connect(url).await.context("connecting to PostgreSQL for the start-up lock")?;
    let lock = PgAdvisoryLock::new("bobbin: migrations and first start");
    let guard = match lock.try_acquire(&mut connection).await.context("taking the start-up lock")? {
        Either::Left(guard) => guard,
        Either::Right(connection) => {
            tracing::info!("another server is starting on this database; waiting for it to finish");
            lock.acquire(connection).await.context("taking the start-up lock")?
        }
    };
    let result = work.await;
    guard.release_now().await.context("releasing the start-up lock")?;
    connection.close().await.context("closing the start-up lock's connection")?;
    result
}

/// The service for one connection: the router, told the peer's address.
type ConnectionService = AddExtension<axum::Router, ConnectInfo<SocketAddr>>;

/// Each connection's service: the router, with the peer's address as `ConnectInfo` (what
/// `Router::into_make_service_with_connect_info` gives for a plain `TcpListener`; axum cannot
/// know the address of another listener's connections).
fn with_peer_address(
    router: axum::Router,
) -> impl for<'a> tower::Service<
    IncomingStream<'a, JsonErrorsListener>,
    Response = ConnectionService,
    Error = Infallible,
    Future = std::future::Ready<Result<ConnectionService, Infallible>>,
> + Send {
    tower::service_fn(move |incoming: IncomingStream<'_, JsonErrorsListener>| {
        std::future::ready(Ok(Extension(ConnectInfo(*incoming.remote_addr())).layer(router.clone())))
    })
}

/// Completes on Ctrl-C or SIGTERM (what container runtimes and systemd send).
///
/// The handlers are installed here, before the future is returned, not when it is first polled:
/// `run_until_stopped` logs "listening" before it polls, and a signal arriving in between would
/// otherwise take the default action and end the process without a graceful stop.
pub fn shutdown_signal() -> anyhow::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt()).context("listening for Ctrl-C")?;
        let mut terminate = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}
