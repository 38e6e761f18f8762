use std::time::Duration;

use bobbin_server::{
    config::{AuthArgs, BackupSchedule, DatabaseArgs, Environment, MetricsArgs, OAuthArgs, ServeArgs},
    startup::{Application, ThreadCache},
};
use tempfile::TempDir;

use crate::postgres::PostgresDatabase;

/// The database engines every database-touching test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh, empty database, removed when dropped.
pub struct TestDatabase {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[expect(dead_code, reason = "held for its Drop, which deletes the folder")] TempDir),
    Postgres(PostgresDatabase),
    /// Another test server's database: that server's `TestDatabase` removes it.
    Borrowed,
}

impl TestDatabase {
    pub async fn create(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let folder = tempfile::tempdir().expect("temporary folder");
                let url = format!("sqlite://{}/bobbin.db", folder.path().display());
                Self { url, cleanup: Cleanup::Sqlite(folder) }
            }
            Backend::Postgres => {
                let database = PostgresDatabase::create().await;
                Self { url: database.url.clone(), cleanup: Cleanup::Postgres(database) }
            }
        }
    }

    /// Drops a PostgreSQL test database now, while the server still uses it.
    pub async fn drop_now(&self) {
        if let Cleanup::Postgres(database) = &self.cleanup {
            database.drop_now().await;
        }
    }
}

pub struct TestApp {
    pub address: String,
    /// `--metrics-bind`'s address, when the test set one.
    pub metrics_address: Option<String>,
    pub client: reqwest::Client,
    /// The server's own database.
    pub db: bobbin_server::db::Database,
    /// The server's copies of the teams' thread entries.
    pub threads: ThreadCache,
    pub database: TestDatabase,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }
}

/// A port that was free a moment ago: the site URL (in e-mailed links) must name the port
/// before the server binds it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn serve_args(database_url: &str) -> ServeArgs {
    let port = free_port();
    ServeArgs {
        bind: format!("127.0.0.1:{port}").parse().unwrap(),
        environment: Environment::Development,
        shutdown_grace: 1,
        request_timeout: 30,
        trust_forwarded_for: false,
        trusted_proxy_hops: std::num::NonZeroU8::MIN,
        convert_rate_limit: std::num::NonZeroU32::new(1000).unwrap(),
        quote_link_rate_limit: std::num::NonZeroU32::new(1000).unwrap(),
        icon_fallback_url: None,
        max_requests_in_flight: std::num::NonZeroU32::new(64).unwrap(),
        heavy_work_concurrency: None,
        max_exports: std::num::NonZeroU32::new(2).unwrap(),
        team_storage_mb: std::num::NonZeroU32::new(500).unwrap(),
        max_file_mb: std::num::NonZeroU32::new(20).unwrap(),
        // Off: tests age rows on purpose and check what the server then answers (the pruning
        // test turns it on).
        prune_interval: Duration::ZERO,
        metrics: MetricsArgs::default(),
        database: DatabaseArgs { database_url: database_url.into(), db_max_connections: 5 },
        backups: BackupSchedule {
            backup_dir: None,
            backup_interval: Duration::from_hours(24),
            backup_keep: std::num::NonZeroU32::new(7).unwrap(),
        },
        auth: AuthArgs {
            site_url: format!("http://127.0.0.1:{port}/").parse().unwrap(),
            redirect_urls: vec!["https://allowed.example/*".to_owned()],
            autoconfirm: false,
            jwt_expiry: 3600,
            session_lifetime: Duration::from_hours(30 * 24),
            session_inactivity_timeout: Duration::from_hours(7 * 24),
            smtp_url: None,
            mail_from: "Bobbin <no-reply@bobbin.test>".to_owned(),
            contact_email: None,
            rate_limit: 1000,
            password_hash_concurrency: None,
            encryption_key: None,
            encryption_key_file: None,
            // Tests send several mails to one address within a second.
            email_interval: 0,
            oauth: OAuthArgs {
                github_client_id: None,
                github_secret: None,
                github_url: "https://github.com".parse().unwrap(),
                github_api_url: "https://api.github.com".parse().unwrap(),
                google_client_id: None,
                google_secret: None,
                google_issuer: "https://accounts.google.com".parse().unwrap(),
            },
        },
    }
}

/// Starts the server on a free port against a fresh database.
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |_| {}).await
}

pub async fn spawn_app_with(backend: Backend, configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
    start(TestDatabase::create(backend).await, configure).await
}

/// A second server on `app`'s database, as a load balancer runs several; it signs tokens with
/// the same keys and names the same site, so a person signed in on one is signed in on both.
pub async fn spawn_second_server(app: &TestApp) -> TestApp {
    spawn_second_server_with(app, |_| {}).await
}

/// [`spawn_second_server`], configured further by `configure`.
pub async fn spawn_second_server_with(app: &TestApp, configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
    let database = TestDatabase { url: app.database.url.clone(), cleanup: Cleanup::Borrowed };
    let site_url = format!("{}/", app.address).parse().unwrap();
    start(database, |args| {
        args.auth.site_url = site_url;
        configure(args);
    })
    .await
}

/// Whether the server could not start because its address was taken.
fn address_in_use(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse)
    })
}

async fn start(database: TestDatabase, configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
    // The server's errors, in the output of the test that failed (the test harness shows it).
    let _ = tracing_subscriber::fmt().with_test_writer().with_env_filter("bobbin_server=error").try_init();
    let mut args = serve_args(&database.url);
    configure(&mut args);
    // The port was free when it was picked, but a server of a test running beside this one may
    // bind it first: then another is picked.
    let mut attempts = 0;
    let app = loop {
        // Boxed: the start-up future is large, and every test awaits this one.
        match Box::pin(Application::build(args.clone())).await {
            Ok(app) => break app,
            Err(error) if attempts < 5 && address_in_use(&error) => {
                attempts += 1;
                let (taken, port) = (args.bind.port(), free_port());
                args.bind.set_port(port);
                if args.auth.site_url.port() == Some(taken) {
                    args.auth.site_url.set_port(Some(port)).unwrap();
                }
            }
            Err(error) => panic!("the server starts: {error:?}"),
        }
    };
    let address = format!("http://127.0.0.1:{}", app.port());
    let metrics_address = app.metrics_addr().map(|address| format!("http://{address}"));
    let db = app.db().clone();
    let threads = app.thread_cache().clone();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    TestApp { address, metrics_address, client, db, threads, database }
}
