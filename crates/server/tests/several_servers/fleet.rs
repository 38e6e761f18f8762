//! The pieces: `bobbin serve` processes on one fresh database (PostgreSQL, `../common/postgres.rs`,
//! or a SQLite file), and an HTTP client that spreads requests over the live servers as a load balancer would.

use std::{
    fs::File,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::atomic::{AtomicBool, AtomicU32, Ordering},
    time::{Duration, Instant},
};

use reqwest::{Method, StatusCode};
use serde_json::Value;
use tempfile::TempDir;

const BOBBIN: &str = env!("CARGO_BIN_EXE_bobbin");
/// Another build of the server to run these tests against (`BOBBIN_TEST_SERVER=/path/to/bobbin`),
/// an older one, say, to see that a test finds what it looks for; this build's by default.
const OTHER_BUILD: &str = "BOBBIN_TEST_SERVER";

/// Sign-in attempts (and sign-ups, recoveries...) each client address may make per 5 minutes.
pub const RATE_LIMIT: u32 = 5;
/// Seconds between two e-mails of one kind to one address.
pub const EMAIL_INTERVAL: u32 = 60;
/// The address people open Bobbin at: the load balancer's, the same for every server (access
/// tokens name it as their issuer).
const SITE_URL: &str = "http://shop.bobbin.test/";
/// How long a server may take to answer `/healthz` after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A `bobbin serve` process. Dropping it kills it, so a failed assertion leaves none behind.
#[derive(Debug)]
pub struct Server {
    pub address: String,
    child: Child,
    log: PathBuf,
    _folder: TempDir,
}

impl Server {
    /// Starts the release binary on a free loopback port against the database at `database_url`;
    /// does not wait for it to serve ([`Server::wait_until_serving`]).
    pub fn spawn(database_url: &str) -> Self {
        let folder = tempfile::tempdir().expect("a folder for the server");
        let log = folder.path().join("server.log");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let binary = std::env::var_os(OTHER_BUILD).unwrap_or_else(|| BOBBIN.into());
        let child = Command::new(binary)
            .args(["serve", "--env", "development", "--autoconfirm", "--trust-forwarded-for"])
            .args(["--bind", &format!("127.0.0.1:{port}"), "--site-url", SITE_URL])
            .args(["--database-url", database_url, "--db-max-connections", "8"])
            .args(["--rate-limit", &RATE_LIMIT.to_string(), "--email-interval", &EMAIL_INTERVAL.to_string()])
            // Only what is set here: no DATABASE_URL, SMTP server or key from the caller's shell.
            .env_clear()
            .current_dir(folder.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(&log).expect("the server's log file"))
            .spawn()
            .expect("bobbin starts");
        Self { address: format!("http://127.0.0.1:{port}"), child, log, _folder: folder }
    }

    /// Two servers on the database at `database_url`, started one after the other as in a rolling
    /// start, each serving before the next starts.
    pub async fn two_in_turn(database_url: &str, client: &reqwest::Client) -> (Self, Self) {
        let mut first = Self::spawn(database_url);
        first.wait_until_serving(client).await;
        let mut second = Self::spawn(database_url);
        second.wait_until_serving(client).await;
        (first, second)
    }

    /// Waits until `/healthz` answers 200; panics with the server's log if it stops first or
    /// takes longer than [`START_TIMEOUT`].
    pub async fn wait_until_serving(&mut self, client: &reqwest::Client) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("bobbin stopped ({status}) before serving:\n{}", self.log_tail());
            }
            let health = client.get(format!("{}/healthz", self.address)).send().await;
            if health.is_ok_and(|answer| answer.status() == StatusCode::OK) {
                return;
            }
            assert!(
                started.elapsed() < START_TIMEOUT,
                "bobbin did not serve within {START_TIMEOUT:?}:\n{}",
                self.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL: no handler runs, connections and transactions are cut where they are.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A server's answer: status and JSON body (`null` when empty).
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl Answer {
    /// The body of a 2xx answer; panics with the answer otherwise.
    #[track_caller]
    pub fn ok(self) -> Value {
        assert!(self.status.is_success(), "{self:?}");
        self.body
    }
}

/// One request to send.
#[derive(Debug)]
pub struct Request {
    method: Method,
    path: String,
    token: Option<String>,
    body: Option<Value>,
    from: Option<String>,
}

impl Request {
    pub fn get(path: impl Into<String>) -> Self {
        Self { method: Method::GET, path: path.into(), token: None, body: None, from: None }
    }

    pub fn post(path: impl Into<String>, body: Value) -> Self {
        Self { method: Method::POST, body: Some(body), ..Self::get(path) }
    }

    pub fn put(path: impl Into<String>, body: Value) -> Self {
        Self { method: Method::PUT, body: Some(body), ..Self::get(path) }
    }

    pub fn patch(path: impl Into<String>, body: Value) -> Self {
        Self { method: Method::PATCH, body: Some(body), ..Self::get(path) }
    }

    pub fn delete(path: impl Into<String>) -> Self {
        Self { method: Method::DELETE, ..Self::get(path) }
    }

    /// As the person whose access token this is.
    pub fn by(mut self, token: &str) -> Self {
        self.token = Some(token.to_owned());
        self
    }

    /// From this client address (`X-Forwarded-For`, which the servers trust). Without it every
    /// request comes from an address of its own, so the load never meets the per-address rate
    /// limits that the test checks on purpose.
    pub fn from(mut self, address: &str) -> Self {
        self.from = Some(address.to_owned());
        self
    }
}

/// A client address no other request has used (10.0.0.0/8).
fn fresh_address() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    let [_, b, c, d] = NEXT.fetch_add(1, Ordering::Relaxed).to_be_bytes();
    format!("10.{b}.{c}.{d}")
}

/// The two servers behind one client, as a load balancer sees them: requests alternate
/// between them while both live, and go to the second once the first is gone.
#[derive(Debug)]
pub struct Fleet {
    client: reqwest::Client,
    first: String,
    second: String,
    first_alive: AtomicBool,
}

impl Fleet {
    pub fn new(client: reqwest::Client, first: &Server, second: &Server) -> Self {
        Self {
            client,
            first: first.address.clone(),
            second: second.address.clone(),
            first_alive: AtomicBool::new(true),
        }
    }

    pub fn first(&self) -> &str {
        &self.first
    }

    pub fn second(&self) -> &str {
        &self.second
    }

    /// The balancer stops sending to the first server (after it was killed).
    pub fn first_is_gone(&self) {
        self.first_alive.store(false, Ordering::SeqCst);
    }

    /// The server for a worker's `turn`th request.
    pub fn pick(&self, turn: usize) -> &str {
        if turn.is_multiple_of(2) && self.first_alive.load(Ordering::SeqCst) {
            &self.first
        } else {
            &self.second
        }
    }

    /// The live server other than `server`, or the second when the first is gone.
    pub fn other(&self, server: &str) -> &str {
        if server == self.second && self.first_alive.load(Ordering::SeqCst) {
            &self.first
        } else {
            &self.second
        }
    }

    /// Sends `request` to `server`: its answer, or the transport error when there was none (the
    /// server died before answering, or could not be reached).
    pub async fn send(&self, server: &str, request: Request) -> Result<Answer, reqwest::Error> {
        let from = request.from.unwrap_or_else(fresh_address);
        let mut builder = self
            .client
            .request(request.method, format!("{server}{}", request.path))
            .header("x-forwarded-for", from)
            .header("apikey", "bobbin-public");
        if let Some(token) = request.token {
            builder = builder.bearer_auth(token);
        }
        if let Some(body) = request.body {
            builder = builder.json(&body);
        }
        let response = builder.send().await?;
        let status = response.status();
        let text = response.text().await?;
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        Ok(Answer { status, body })
    }

    /// Sends `request` to a server that must answer it: setup and checks, not load.
    pub async fn answer(&self, server: &str, request: Request) -> Answer {
        let description = format!("{} {server}{}", request.method, request.path);
        self.send(server, request).await.unwrap_or_else(|error| panic!("{description}: no answer ({error})"))
    }
}

/// A client with a bound on every request, and no redirects followed.
pub fn client() -> reqwest::Client {
    // reqwest is built without a TLS crypto provider of its own (the server installs ring at
    // start); this process starts none in itself, so it installs one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("an HTTP client")
}
