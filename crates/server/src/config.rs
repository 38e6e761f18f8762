//! Command line and environment configuration. Every option is a flag and an environment
//! variable (`BOBBIN_*`, and the conventional `DATABASE_URL`); `bobbin --help` and
//! `bobbin serve --help` print the doc comments below.

use std::{
    fmt,
    net::SocketAddr,
    num::{NonZeroU8, NonZeroU32},
    path::PathBuf,
    str::FromStr,
    time::Duration,
};

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

/// Bobbin: thread and machine inventory, pricing and thread conversion for embroidery teams.
#[derive(Debug, Parser)]
#[command(name = "bobbin", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    #[command(flatten)]
    pub log: LogArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app and its API. Pending database migrations run first.
    Serve(Box<ServeArgs>),
    /// Inspect or change the database schema without serving.
    Migrate(MigrateArgs),
    /// Print the API's OpenAPI document (the one served at /api/v2/openapi.json) and exit.
    Openapi,
    /// Copy the SQLite database into FILE while the server runs: a consistent snapshot, checked
    /// before it is kept. (PostgreSQL: use `pg_dump`, see docs/deploy.md.)
    Backup(BackupArgs),
    /// Put a backup in place of the SQLite database, after checking it. Stop the server first;
    /// the database it replaces is kept beside it.
    Restore(RestoreArgs),
    /// Help a person without e-mail: list and show accounts, confirm an address, set a new
    /// password, disable or enable an account.
    Users(UsersArgs),
    /// List the teams, or show one with its members.
    Teams(TeamsArgs),
}

#[derive(Debug, Clone, Args)]
pub struct BackupArgs {
    /// The file to write; it must not exist yet.
    pub file: PathBuf,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct RestoreArgs {
    /// A backup made by `bobbin backup` (or by the scheduled backups).
    pub file: PathBuf,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct UsersArgs {
    #[command(subcommand)]
    pub action: UsersAction,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

/// An account is named by its e-mail address or its id.
#[derive(Debug, Clone, Subcommand)]
pub enum UsersAction {
    /// Every account, oldest first.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One account: its state, teams, sessions and second factors.
    Show {
        /// E-mail address or id.
        user: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Mark the address as confirmed, as its confirmation link would.
    Confirm {
        /// E-mail address or id.
        user: String,
    },
    /// Give the account a new password and end its sessions. Prints a new random password,
    /// or with --password-stdin reads the one to set from standard input.
    ResetPassword {
        /// E-mail address or id.
        user: String,
        /// Read the new password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Stop the person from signing in, and end their sessions now.
    Disable {
        /// E-mail address or id.
        user: String,
    },
    /// Let a disabled person sign in again.
    Enable {
        /// E-mail address or id.
        user: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct TeamsArgs {
    #[command(subcommand)]
    pub action: TeamsAction,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Subcommand)]
pub enum TeamsAction {
    /// Every team, oldest first, with its owners and size.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One team: its members and roles, and how much it holds.
    Show {
        /// The team's public id (as in its address) or id.
        team: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on. Use 0.0.0.0:3000 to accept connections from other machines.
    #[arg(long, env = "BOBBIN_BIND", default_value = "127.0.0.1:3000")]
    pub bind: SocketAddr,

    /// Which deployment this is. Development and staging show a banner saying so; development
    /// also shows a breakpoint helper.
    #[arg(long = "env", env = "BOBBIN_ENV", value_enum, default_value_t = Environment::Production)]
    pub environment: Environment,

    /// Seconds to let requests in flight finish after Ctrl-C or SIGTERM before stopping anyway.
    #[arg(long, env = "BOBBIN_SHUTDOWN_GRACE", default_value_t = 10, value_name = "SECONDS")]
    pub shutdown_grace: u64,

    /// Seconds an API request may take before it is answered with 408.
    #[arg(long, env = "BOBBIN_REQUEST_TIMEOUT", default_value_t = 30, value_name = "SECONDS")]
    pub request_timeout: u64,

    /// Take the client's address from `X-Forwarded-For` (for rate limits, session records and
    /// the development mailbox): the entry the nearest proxy added, the right-most of all the
    /// header's lines (see `--trusted-proxy-hops`). Only set this behind a reverse proxy that
    /// adds to the header, and with Bobbin reachable through it alone.
    #[arg(long, env = "BOBBIN_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,

    /// With `--trust-forwarded-for`: how many reverse proxies in a row stand in front of Bobbin,
    /// each adding the address it was reached from to `X-Forwarded-For`. The client is that many
    /// entries from the right (1: one proxy such as Caddy, nginx or `HAProxy`; 2: a CDN or load
    /// balancer in front of it). Entries further left were written by the client and prove
    /// nothing; too large a number lets a client name its own address.
    #[arg(long, env = "BOBBIN_TRUSTED_PROXY_HOPS", default_value_t = NonZeroU8::MIN, value_name = "N")]
    pub trusted_proxy_hops: NonZeroU8,

    /// Requests per minute each client (an IPv4 address, or an IPv6 /64) may make to the
    /// anonymous converter endpoints (`/api/v2/convert`, `/api/v2/convert/bulk`). The app
    /// converts in the browser and does not use them.
    #[arg(long, env = "BOBBIN_CONVERT_RATE_LIMIT", default_value_t = NonZeroU32::new(60).expect("60 is not zero"))]
    pub convert_rate_limit: NonZeroU32,

    /// Requests per minute each client network may make to quotes by their customers' links
    /// (`/q/{token}`, `/api/v2/public/quotes/{token}...`): a customer opening, reading and
    /// answering a quote makes a handful.
    #[arg(long, env = "BOBBIN_QUOTE_LINK_RATE_LIMIT", default_value_t = NonZeroU32::new(120).expect("120 is not zero"))]
    pub quote_link_rate_limit: NonZeroU32,

    /// A public icon API (Iconify's format, e.g. `https://api.iconify.design`) that `/icons/`
    /// sends the browser to for an icon the embedded set lacks; its address is added to the
    /// content security policy. Off by default (a neutral glyph instead), and keep it off where
    /// people work offline or the policy must stay on this site alone.
    #[arg(long, env = "BOBBIN_ICON_FALLBACK_URL")]
    pub icon_fallback_url: Option<url::Url>,

    /// API requests (under /api/v2) served at once, counted apart for reads (GET, HEAD) and
    /// for changes, so readers never take a change's place. Past it a request is answered at once
    /// with 503 `server_busy` and `Retry-After`, so that a crowd of requests cannot take memory
    /// and time without bound.
    #[arg(long, env = "BOBBIN_MAX_REQUESTS_IN_FLIGHT", default_value_t = NonZeroU32::new(64).expect("64 is not zero"))]
    pub max_requests_in_flight: NonZeroU32,
    /// Large conversions and CSV imports worked on at once, each on a thread of its own; a few
    /// more wait their turn briefly, then answer 503. Defaults to the number of CPU cores.
    #[arg(long, env = "BOBBIN_HEAVY_WORK_CONCURRENCY", value_parser = clap::value_parser!(u16).range(1..))]
    pub heavy_work_concurrency: Option<u16>,
    /// Team archives (`GET /api/v2/teams/{id}/export`) written at once, one a team. Each holds
    /// a database connection and a thread until its download ends (at most 15 minutes); past
    /// it, an export answers 503 `server_busy` with `Retry-After`.
    #[arg(long, env = "BOBBIN_MAX_EXPORTS", default_value_t = NonZeroU32::new(2).expect("2 is not zero"))]
    pub max_exports: NonZeroU32,
    /// The most a team's files (its design library, `/storage/v1`) may take together, in MB;
    /// an upload past it answers 413.
    #[arg(long, env = "BOBBIN_TEAM_STORAGE_MB", default_value_t = NonZeroU32::new(500).expect("500 is not zero"))]
    pub team_storage_mb: NonZeroU32,
    /// The largest file a team may upload, in MB; a larger one answers 413.
    #[arg(long, env = "BOBBIN_MAX_FILE_MB", default_value_t = NonZeroU32::new(20).expect("20 is not zero"))]
    pub max_file_mb: NonZeroU32,

    /// How often to delete rows that can no longer be used (ended sessions, old rate-limit
    /// counts, spent links...), e.g. `10m`; `0` never (another instance on the same database
    /// may do it).
    #[arg(long, env = "BOBBIN_PRUNE_INTERVAL", default_value = "10m", value_parser = humantime::parse_duration)]
    pub prune_interval: Duration,

    #[command(flatten)]
    pub metrics: MetricsArgs,

    #[command(flatten)]
    pub database: DatabaseArgs,

    #[command(flatten)]
    pub backups: BackupSchedule,

    #[command(flatten)]
    pub auth: AuthArgs,
}

/// Backups the server makes by itself (SQLite only: PostgreSQL has `pg_dump`, see docs/deploy.md).
#[derive(Debug, Clone, Args)]
pub struct BackupSchedule {
    /// Folder for scheduled backups of the SQLite database; setting it turns them on. Each is a
    /// checked, consistent copy named `bobbin-<UTC time>.db`.
    #[arg(long, env = "BOBBIN_BACKUP_DIR", value_name = "FOLDER")]
    pub backup_dir: Option<PathBuf>,

    /// Time between two scheduled backups, e.g. `1d` or `6h`; the first is made one interval
    /// after the start.
    #[arg(long, env = "BOBBIN_BACKUP_INTERVAL", default_value = "1d", value_parser = humantime::parse_duration)]
    pub backup_interval: Duration,

    /// How many scheduled backups to keep; older ones are deleted after each new one.
    #[arg(long, env = "BOBBIN_BACKUP_KEEP", default_value_t = NonZeroU32::new(7).expect("7 is not zero"))]
    pub backup_keep: NonZeroU32,
}

impl ServeArgs {
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace)
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout)
    }

    /// `--heavy-work-concurrency`, or one per CPU core.
    pub fn heavy_work_concurrency(&self) -> usize {
        self.heavy_work_concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            usize::from,
        )
    }
}

/// Prometheus metrics at `GET /metrics`: off unless one of these is set.
#[derive(Debug, Clone, Default, Args)]
pub struct MetricsArgs {
    /// Serve `GET /metrics` on this address of its own, e.g. `127.0.0.1:9100`, to anyone who can
    /// reach it: keep it on loopback or a private network.
    #[arg(long, env = "BOBBIN_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,

    /// Serve `GET /metrics` on the main address (`--bind`) as well, to requests that send
    /// `Authorization: Bearer <this token>` (others get 401). A long random string, e.g. from
    /// `openssl rand -hex 32`.
    #[arg(long, env = "BOBBIN_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<Secret>,
}

#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// Database to use; the scheme picks the engine. SQLite: `sqlite://data/bobbin.db` (a path
    /// relative to the working directory; the file and its folder are created). PostgreSQL:
    /// `postgres://user:password@host:5432/bobbin`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/bobbin.db",
        hide_env_values = true,
        global = true
    )]
    pub database_url: Secret,

    /// Largest number of pooled database connections: on PostgreSQL all of a server's; on SQLite
    /// its readers', with one writer connection besides (SQLite writes one at a time).
    #[arg(long, env = "BOBBIN_DB_MAX_CONNECTIONS", default_value_t = 10, global = true)]
    pub db_max_connections: u32,
}

/// The auth service under `/auth/v1` and the e-mail it sends.
#[derive(Debug, Clone, Args)]
pub struct AuthArgs {
    /// The address people open Bobbin at. E-mailed links point here, and it is the default and
    /// always-allowed target of `redirect_to`.
    #[arg(long, env = "BOBBIN_SITE_URL", default_value = "http://127.0.0.1:3000")]
    pub site_url: url::Url,

    /// Other addresses `redirect_to` may point at, comma-separated. An entry ending in `*`
    /// allows every URL that starts with what comes before it.
    #[arg(long, env = "BOBBIN_AUTH_REDIRECT_URLS", value_delimiter = ',')]
    pub redirect_urls: Vec<String>,

    /// Confirm new accounts without an e-mail (development and tests only).
    #[arg(long, env = "BOBBIN_AUTH_AUTOCONFIRM")]
    pub autoconfirm: bool,

    /// Seconds an access token (JWT) is valid. The browser client refreshes it before it ends.
    #[arg(long, env = "BOBBIN_JWT_EXPIRY", default_value_t = 3600, value_name = "SECONDS")]
    pub jwt_expiry: u32,

    /// The longest a session lasts, however much it is used: after it the person signs in
    /// again. A duration such as `30d` or `12h`; `0` for no limit.
    #[arg(long, env = "BOBBIN_SESSION_LIFETIME", default_value = "30d", value_parser = humantime::parse_duration)]
    pub session_lifetime: Duration,

    /// How long a session may go unused (no token refresh: the app refreshes while it is open)
    /// before it ends. A duration such as `7d`; `0` for no limit.
    #[arg(
        long,
        env = "BOBBIN_SESSION_INACTIVITY_TIMEOUT",
        default_value = "7d",
        value_parser = humantime::parse_duration
    )]
    pub session_inactivity_timeout: Duration,

    /// SMTP server for e-mail, e.g. `smtps://user:password@mail.example.com` or
    /// `smtp://127.0.0.1:2525`. Without it, e-mail is kept in an outbox that development mode
    /// shows at /dev/mailbox.
    #[arg(long, env = "BOBBIN_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,

    /// The sender of Bobbin's e-mail.
    #[arg(long, env = "BOBBIN_MAIL_FROM", default_value = "Bobbin <no-reply@bobbin.invalid>")]
    pub mail_from: String,

    /// Where the contact page's messages go (the people who run this server), e.g.
    /// `help@shop.example`. Without it the contact page says that messages cannot be sent here.
    #[arg(long, env = "BOBBIN_CONTACT_EMAIL")]
    pub contact_email: Option<String>,

    /// Requests per client address per 5 minutes to each of sign-in, sign-up, verify, recover
    /// and magic link (token refreshes get five times as many).
    #[arg(long, env = "BOBBIN_AUTH_RATE_LIMIT", default_value_t = 30)]
    pub rate_limit: u32,

    /// Password hashes (Argon2, 19 MiB and tens of milliseconds each) computed at once; more
    /// wait their turn briefly, then answer 503. Defaults to the number of CPU cores.
    #[arg(long, env = "BOBBIN_PASSWORD_HASH_CONCURRENCY", value_parser = clap::value_parser!(u16).range(1..))]
    pub password_hash_concurrency: Option<u16>,

    /// Seconds between two e-mails to the same address.
    #[arg(long, env = "BOBBIN_AUTH_EMAIL_INTERVAL", default_value_t = 60, value_name = "SECONDS")]
    pub email_interval: u32,

    /// Key that encrypts the secrets the server must read back (TOTP secrets, the key that
    /// signs access tokens) where they are stored: 32 random bytes in base64, e.g. from
    /// `openssl rand -base64 32`. Existing rows are encrypted at the next start. Keep it apart
    /// from database backups; without it they cannot be read.
    #[arg(
        long,
        env = "BOBBIN_ENCRYPTION_KEY",
        hide_env_values = true,
        conflicts_with = "encryption_key_file"
    )]
    pub encryption_key: Option<Secret>,

    /// A file holding the encryption key (as for `--encryption-key`), e.g. a systemd credential.
    #[arg(long, env = "BOBBIN_ENCRYPTION_KEY_FILE", value_name = "PATH")]
    pub encryption_key_file: Option<PathBuf>,

    #[command(flatten)]
    pub oauth: OAuthArgs,
}

/// Sign-in with outside accounts. A provider is offered when its client id and secret are set;
/// register `{site URL}/auth/v1/callback` as the callback URL at the provider.
#[derive(Debug, Clone, Args)]
pub struct OAuthArgs {
    /// Client id of a GitHub OAuth app.
    #[arg(long, env = "BOBBIN_OAUTH_GITHUB_CLIENT_ID", requires = "github_secret")]
    pub github_client_id: Option<String>,

    /// Client secret of the GitHub OAuth app.
    #[arg(long, env = "BOBBIN_OAUTH_GITHUB_SECRET", hide_env_values = true, requires = "github_client_id")]
    pub github_secret: Option<Secret>,

    /// Where GitHub's sign-in pages are (change for GitHub Enterprise).
    #[arg(long, env = "BOBBIN_OAUTH_GITHUB_URL", default_value = "https://github.com")]
    pub github_url: url::Url,

    /// Where GitHub's API is (change for GitHub Enterprise).
    #[arg(long, env = "BOBBIN_OAUTH_GITHUB_API_URL", default_value = "https://api.github.com")]
    pub github_api_url: url::Url,

    /// Client id at Google, or at any OpenID Connect provider named by `--google-issuer`.
    #[arg(long, env = "BOBBIN_OAUTH_GOOGLE_CLIENT_ID", requires = "google_secret")]
    pub google_client_id: Option<String>,

    /// Client secret at Google (or the OpenID Connect provider).
    #[arg(long, env = "BOBBIN_OAUTH_GOOGLE_SECRET", hide_env_values = true, requires = "google_client_id")]
    pub google_secret: Option<Secret>,

    /// The OpenID Connect issuer offered as "google"; its endpoints are read from
    /// `{issuer}/.well-known/openid-configuration`.
    #[arg(long, env = "BOBBIN_OAUTH_GOOGLE_ISSUER", default_value = "https://accounts.google.com")]
    pub google_issuer: url::Url,
}

#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    #[command(subcommand)]
    pub action: MigrateAction,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum MigrateAction {
    /// Apply all pending migrations.
    Up,
    /// List every migration and whether it is applied, then say whether this binary and the
    /// database agree. Exit status: 0 when they do, 1 when migrations are pending (the next
    /// start applies them), 2 when the database was migrated by a newer Bobbin.
    Status,
    /// Roll back the most recent migrations.
    Down {
        /// How many migrations to roll back.
        #[arg(long, default_value_t = 1)]
        steps: u32,
    },
}

#[derive(Debug, Clone, Args)]
pub struct LogArgs {
    /// What to log, as a tracing filter: a level (`info`, `debug`) or per-module directives such
    /// as `info,bobbin_server=debug,sqlx=warn`. The line each request writes has the target
    /// `bobbin::request`, at `info`, `warn` for a 5xx answer and `error` for a 500:
    /// `info,bobbin::request=warn` keeps only the failed ones.
    #[arg(long, env = "BOBBIN_LOG", default_value = "info", global = true)]
    pub log: String,

    /// Log line format: `text` for people, `json` for log collectors.
    #[arg(long, env = "BOBBIN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Development,
    Staging,
    Production,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// A value that must never be printed: a password inside a URL, an OAuth client secret, the
/// encryption key. `Debug` shows `[redacted]`, so logging a configuration (or an error that
/// holds one) cannot leak it; the value is read only through [`Secret::expose`].
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Self(value.to_owned()))
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    #[test]
    fn debug_output_never_shows_a_secret() {
        let cli = Cli::try_parse_from([
            "bobbin",
            "serve",
            "--database-url",
            "postgres://bobbin:db-password-1@db/bobbin",
            "--smtp-url",
            "smtps://mailer:smtp-password-2@mail.example.com",
            "--github-client-id",
            "id",
            "--github-secret",
            "github-secret-3",
            "--google-client-id",
            "id",
            "--google-secret",
            "google-secret-4",
            "--encryption-key",
            "encryption-key-5",
            "--metrics-token",
            "metrics-token-6",
        ])
        .unwrap();
        let printed = format!("{cli:?} {cli:#?}");
        for secret in [
            "db-password-1",
            "smtp-password-2",
            "github-secret-3",
            "google-secret-4",
            "encryption-key-5",
            "metrics-token-6",
        ] {
            assert!(!printed.contains(secret), "{secret} shows in {printed}");
        }
        assert!(printed.contains("[redacted]"));
    }
}
