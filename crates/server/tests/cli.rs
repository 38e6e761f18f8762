//! Tests of the `bobbin` binary itself, run as a separate process as an operator would.

use std::{
    io::{BufRead as _, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use serde_json::Value;

const BOBBIN: &str = env!("CARGO_BIN_EXE_bobbin");

fn output(args: &[&str], folder: &Path) -> (bool, String, String) {
    let output = Command::new(BOBBIN).args(args).current_dir(folder).output().expect("bobbin runs");
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn help_documents_every_option_and_its_environment_variable() {
    let folder = tempfile::tempdir().unwrap();
    let (ok, top, _) = output(&["--help"], folder.path());
    assert!(ok);
    assert!(top.contains("serve") && top.contains("migrate") && top.contains("openapi"), "{top}");

    let (ok, serve, _) = output(&["serve", "--help"], folder.path());
    assert!(ok);
    // clap wraps long lines; compare with the wrapping undone.
    let serve = serve.split_whitespace().collect::<Vec<_>>().join(" ");
    for (flag, variable) in [
        ("--bind", "BOBBIN_BIND"),
        ("--env", "BOBBIN_ENV"),
        ("--database-url", "DATABASE_URL"),
        ("--db-max-connections", "BOBBIN_DB_MAX_CONNECTIONS"),
        ("--shutdown-grace", "BOBBIN_SHUTDOWN_GRACE"),
        ("--request-timeout", "BOBBIN_REQUEST_TIMEOUT"),
        ("--log", "BOBBIN_LOG"),
        ("--log-format", "BOBBIN_LOG_FORMAT"),
        ("--session-lifetime", "BOBBIN_SESSION_LIFETIME"),
        ("--session-inactivity-timeout", "BOBBIN_SESSION_INACTIVITY_TIMEOUT"),
        ("--metrics-bind", "BOBBIN_METRICS_BIND"),
        ("--metrics-token", "BOBBIN_METRICS_TOKEN"),
        ("--contact-email", "BOBBIN_CONTACT_EMAIL"),
        ("--icon-fallback-url", "BOBBIN_ICON_FALLBACK_URL"),
    ] {
        assert!(serve.contains(flag), "{flag} missing from serve --help:\n{serve}");
        assert!(
            serve.contains(&format!("[env: {variable}")),
            "{variable} missing from serve --help:\n{serve}"
        );
    }
}

#[test]
fn migrate_reports_status_and_applies_pending_migrations() {
    let folder = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/bobbin.db", folder.path().display());
    let run = |action: &str| output(&["migrate", action, "--database-url", &url], folder.path());

    let (ok, before, _) = run("status");
    assert!(!ok, "pending migrations: exit status 1");
    assert!(before.contains("pending  m20261122_000001_users_and_sessions"), "{before}");

    assert!(run("up").0);

    let (ok, after, _) = run("status");
    assert!(ok, "{after}");
    assert!(after.contains("applied  m20261122_000001_users_and_sessions"), "{after}");
}

#[test]
fn an_unsupported_database_url_stops_with_a_clear_message() {
    let folder = tempfile::tempdir().unwrap();

    let (ok, _, stderr) =
        output(&["serve", "--database-url", "mysql://root:secret@localhost/bobbin"], folder.path());

    assert!(!ok);
    assert!(stderr.contains("DATABASE_URL must start with sqlite:// or postgres://"), "{stderr}");
    assert!(!stderr.contains("secret"), "the password must not be logged: {stderr}");
}

/// `bobbin serve` against `url`, which must fail to start: its error output.
fn failed_start(url: &str) -> String {
    let folder = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (ok, _, stderr) = output(&["serve", "--bind", "127.0.0.1:0", "--database-url", url], folder.path());
    assert!(!ok, "bobbin served with {url}");
    assert!(started.elapsed() < Duration::from_secs(20), "giving up took {:?}", started.elapsed());
    stderr
}

#[test]
fn an_unreachable_postgresql_is_reported_with_the_reason() {
    let refused = failed_start("postgres://bobbin:hunter2@127.0.0.1:1/bobbin");
    assert!(refused.contains("PostgreSQL at 127.0.0.1:1 refused the connection"), "{refused}");
    assert!(!refused.contains("hunter2"), "the password must not be logged: {refused}");

    let unknown = failed_start("postgres://bobbin@no-such-host.invalid/bobbin");
    assert!(unknown.contains("the host of DATABASE_URL (no-such-host.invalid) is unknown"), "{unknown}");

    let admin = std::env::var("BOBBIN_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let mut stranger = url::Url::parse(&admin).unwrap();
    stranger.set_username("no_such_role").unwrap();
    let refused_user = failed_start(stranger.as_str());
    assert!(refused_user.contains("refused user `no_such_role`"), "{refused_user}");
}

#[test]
fn autoconfirm_is_refused_in_production() {
    let folder = tempfile::tempdir().unwrap();
    let mut child = Command::new(BOBBIN)
        .args(["serve", "--env", "production", "--autoconfirm", "--bind", "127.0.0.1:0"])
        .current_dir(folder.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("bobbin served in production with --autoconfirm");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(
        stderr.contains("--autoconfirm (BOBBIN_AUTH_AUTOCONFIRM) is for development and tests"),
        "{stderr}"
    );
}

/// A `bobbin serve` process with JSON logs, and its log lines as they arrive.
struct Server {
    child: Child,
    lines: mpsc::Receiver<Value>,
    address: String,
    /// Every log line read so far.
    seen: Vec<Value>,
}

impl Server {
    /// Starts the binary in `folder` with the default database URL (`./data/bobbin.db`).
    fn start(binary: &Path, folder: &Path) -> Self {
        Self::start_with(binary, folder, &[])
    }

    /// [`Server::start`] with more environment variables.
    fn start_with(binary: &Path, folder: &Path, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(binary)
            .args(["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
            .env_remove("DATABASE_URL")
            .env_remove("BOBBIN_ENCRYPTION_KEY")
            .envs(env.iter().copied())
            .current_dir(folder)
            .stderr(Stdio::piped())
            .spawn()
            .expect("bobbin starts");
        let (sender, lines) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let value =
                    serde_json::from_str(&line).unwrap_or_else(|_| panic!("not a JSON log line: {line}"));
                if sender.send(value).is_err() {
                    break;
                }
            }
        });
        let mut server = Self { child, lines, address: String::new(), seen: Vec::new() };
        let listening = server.wait_for("listening");
        server.address = format!("http://{}", listening["address"].as_str().unwrap());
        server
    }

    fn wait_for(&mut self, message: &str) -> Value {
        loop {
            let line = match self.lines.recv_timeout(Duration::from_secs(15)) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => panic!("no `{message}` log line within 15 s"),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("bobbin exited ({:?}) before logging `{message}`", self.child.wait())
                }
            };
            self.seen.push(line.clone());
            if line["message"] == message {
                return line;
            }
        }
    }

    fn signal(&self, signal: &str) {
        let status =
            Command::new("kill").args(["-s", signal, &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }

    fn wait_until_exited(&mut self) -> std::process::ExitStatus {
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().unwrap();
        panic!("bobbin did not stop within 10 s of the signal");
    }
}

/// A failed assertion must not leave the server running (it would keep the test run waiting).
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn get(url: &str) -> reqwest::blocking::Response {
    // reqwest is built without a TLS crypto provider of its own (the server installs ring at
    // start); this process never starts a server, so it installs one itself.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::get(url).unwrap()
}

#[test]
fn the_binary_copied_alone_serves_the_app_creates_its_database_and_stops_on_sigterm() {
    let folder = tempfile::tempdir().unwrap();
    let binary = folder.path().join("bobbin");
    std::fs::copy(BOBBIN, &binary).unwrap();

    let mut server = Server::start(&binary, folder.path());

    assert!(folder.path().join("data/bobbin.db").is_file(), "SQLite created in ./data on first start");
    assert_eq!(get(&format!("{}/healthz", server.address)).status(), 200);
    let page = get(&format!("{}/inventory/threads", server.address)).text().unwrap();
    let script = page
        .split(r#"<script type="module" src=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no module script in {page}"));
    let response = get(&format!("{}{script}", server.address));
    assert_eq!(response.status(), 200, "{script} is embedded in the binary");
    assert!(response.text().unwrap().len() > 10_000);

    // One structured line per request, with its status and latency.
    let logged = server.wait_for("finished processing request");
    assert_eq!(logged["status"], 200);
    assert!(logged["latency"].as_str().unwrap().ends_with(" ms"), "{logged}");
    assert_eq!(logged["span"]["path"], "/healthz");
    assert_eq!(logged["span"]["method"], "GET");

    server.signal("TERM");
    server.wait_for("shutting down: finishing requests in flight");
    server.wait_for("stopped");
    assert!(server.wait_until_exited().success());
}

#[test]
fn the_server_says_at_start_whether_stored_secrets_are_encrypted() {
    let plain_form = |server: &Server| {
        server.seen.iter().any(|line| {
            line["level"] == "WARN"
                && line["message"].as_str().is_some_and(|message| message.contains("stored in plain form"))
        })
    };
    let folder = tempfile::tempdir().unwrap();
    let without_key = Server::start(Path::new(BOBBIN), folder.path());
    assert!(plain_form(&without_key), "{:?}", without_key.seen);
    drop(without_key);

    let key = "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=";
    let with_key = Server::start_with(Path::new(BOBBIN), folder.path(), &[("BOBBIN_ENCRYPTION_KEY", key)]);
    assert!(!plain_form(&with_key), "{:?}", with_key.seen);
}

/// The signal is sent the moment "listening" is logged, several times over: a server that
/// installed its handlers only after logging it was killed outright now and then (seen in CI).
#[test]
fn ctrl_c_stops_the_server_gracefully() {
    let folder = tempfile::tempdir().unwrap();
    for _ in 0..5 {
        let mut server = Server::start(Path::new(BOBBIN), folder.path());

        server.signal("INT");

        server.wait_for("stopped");
        assert!(server.wait_until_exited().success());
    }
}

/// The request lines of answers that went well are written together, a little late
/// (`telemetry::Output`), but the log keeps its order: those of requests answered before the
/// server is told to stop come before its "shutting down" line, and none is lost.
#[test]
fn request_lines_written_together_keep_the_log_in_order() {
    let folder = tempfile::tempdir().unwrap();
    let mut server = Server::start(Path::new(BOBBIN), folder.path());
    for _ in 0..3 {
        assert_eq!(get(&format!("{}/healthz", server.address)).status(), 200);
    }
    server.signal("TERM");
    server.wait_for("stopped");
    assert!(server.wait_until_exited().success());

    let shutting_down = (server.seen.iter())
        .position(|line| line["message"] == "shutting down: finishing requests in flight")
        .unwrap_or_else(|| panic!("no shutting-down line: {:?}", server.seen));
    let request_lines: Vec<usize> = (server.seen.iter().enumerate())
        .filter(|(_, line)| line["message"] == "finished processing request")
        .map(|(index, _)| index)
        .collect();
    assert_eq!(request_lines.len(), 3, "{:?}", server.seen);
    assert!(request_lines.iter().all(|&index| index < shutting_down), "{:?}", server.seen);
}

/// `BOBBIN_LOG=info,bobbin::request=warn`: the request lines of answers that went well are
/// dropped, those of 5xx answers kept.
#[test]
fn request_lines_turned_down_still_show_5xx_answers() {
    let folder = tempfile::tempdir().unwrap();
    let mut server =
        Server::start_with(Path::new(BOBBIN), folder.path(), &[("BOBBIN_LOG", "info,bobbin::request=warn")]);
    assert_eq!(get(&format!("{}/healthz", server.address)).status(), 200);
    assert_eq!(get(&format!("{}/readyz", server.address)).status(), 200);

    // The newest migration rolled back under the running server: it is no longer ready.
    let (ok, _, stderr) = output(
        &["migrate", "down", "--steps", "1", "--database-url", "sqlite://data/bobbin.db"],
        folder.path(),
    );
    assert!(ok, "{stderr}");
    assert_eq!(get(&format!("{}/readyz", server.address)).status(), 503);

    let logged = server.wait_for("finished processing request");
    assert_eq!(logged["status"], 503, "the 200s wrote no line: {logged}");
    assert_eq!(logged["level"], "WARN");
    assert_eq!(logged["target"], "bobbin::request");
    assert_eq!(logged["span"]["path"], "/readyz");
}
