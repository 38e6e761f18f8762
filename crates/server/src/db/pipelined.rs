//! A transaction of changes sent to PostgreSQL in one go (pipelining), for
//! [`super::committed_together`].
//!
//! The changes of one entry that come at once are written in one transaction. Through sqlx, each
//! of its statements was a round trip of its own to PostgreSQL: sqlx sends a statement only once
//! the answer of the one before has come. A `+1` under load waited for the 31 before it one trip
//! at a time, the cores a quarter idle (README, "API speed"). tokio-postgres sends a request when
//! its future is first polled and reads the answers in the order they were sent, so `BEGIN`,
//! every statement and the `COMMIT` go out together ([`in_order`]) and the transaction takes one
//! round trip; one more when a change's rows decide whether it stands (the `COMMIT` or
//! `ROLLBACK` then waits for them).
//!
//! If a statement fails inside the transaction, PostgreSQL answers the ones after it as refused,
//! and the `COMMIT` that follows as a `ROLLBACK`: nothing is kept, as before, and the caller
//! writes each change again alone, for its own answer. If the `BEGIN` itself fails, or the
//! connection breaks, what was kept cannot be told: every change is answered with an outage, as a
//! failed commit was before. A statement whose values or columns have a type this module does
//! not carry is not sent here at all (the caller writes it through sqlx), nor is any change when
//! the pool's options ask for what is not done here (certificate checks, say), or when no
//! connection here is free.
//!
//! The connections are kept beside the pool, up to [`Pipeline::CONNECTIONS`] (one a
//! transaction), each with the statements it has prepared; like the pool's, one idle for
//! [`CHECKED_AFTER_IDLE`] is checked before it goes out again.

use std::{
    collections::HashMap,
    future::Future,
    pin::Pin,
    sync::{Arc, LazyLock, Mutex, Weak},
    task::Poll,
    time::Instant,
};

use futures_util::future::{MaybeDone, maybe_done};
use percent_encoding::percent_decode_str;
use rustc_hash::FxHashMap;
use sea_orm::{
    DbErr,
    sea_query::Value,
    sqlx::postgres::{PgConnectOptions, PgSslMode},
};
use tokio::sync::Semaphore;
use tokio_postgres::{
    Client, Config,
    config::SslMode,
    types::{IsNull, ToSql, Type, to_sql_checked},
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::{ACQUIRE_TIMEOUT, CHECKED_AFTER_IDLE, Change, Row, TypedRow, stands};

/// PostgreSQL connections that send a transaction's statements together, for one pool.
pub(super) struct Pipeline {
    config: Config,
    /// `None` when `sslmode=disable`.
    tls: Option<MakeRustlsConnect>,
    free: Mutex<Vec<Connection>>,
    /// A turn for each connection.
    turns: Semaphore,
}

/// A connection, and the statements it has prepared, by their SQL (each with the types of its
/// values).
struct Connection {
    client: Client,
    last_used: Instant,
    prepared: FxHashMap<String, Vec<(Vec<Type>, tokio_postgres::Statement)>>,
}

/// How a transaction sent here ended, when its changes were not all written.
pub(super) enum Piped {
    /// A statement failed (or the commit did): nothing was kept. Written alone, each change
    /// gets its own answer.
    StatementFailed(String),
    /// A change's rows did not let it stand: nothing was kept. The rows of every change.
    NotStanding(Vec<Vec<Row>>),
    /// The connection broke, or the `BEGIN` failed: every change's answer.
    Failed(DbErr),
    /// Not sent: a value or a column of a type not carried here, or no connection free or to
    /// be opened.
    NotPipelined,
}

/// The pipelines of the pools open now, by the address of their options (as
/// [`super::committed_together`]'s queues are), with the options they were made for.
type Pipelines = HashMap<usize, (Weak<dyn std::any::Any + Send + Sync>, Arc<Pipeline>)>;

fn pipelines() -> std::sync::MutexGuard<'static, Pipelines> {
    static PIPELINES: LazyLock<Mutex<Pipelines>> = LazyLock::new(Mutex::default);
    PIPELINES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The pipeline of the pool whose options are `options`, if it has one.
pub(super) fn of(options: &Arc<PgConnectOptions>) -> Option<Arc<Pipeline>> {
    let key = Arc::as_ptr(options).cast::<()>() as usize;
    pipelines().get(&key).map(|(_, pipeline)| Arc::clone(pipeline))
}

/// Opens a pipeline for the pool whose options are `options` (`url` is the `DATABASE_URL` they
/// were read from, for its password, which they do not give back), and checks that it connects.
/// When the options ask for what is not done here, or it cannot connect, the pool has none
/// (logged): its changes go through sqlx, one statement at a time. The pipelines of pools since
/// closed go, with their connections.
pub(super) async fn open(options: Arc<PgConnectOptions>, url: &str) {
    let pipeline = match Pipeline::new(&options, url) {
        Ok(pipeline) => pipeline,
        Err(why) => {
            tracing::info!("changes written together go to PostgreSQL one statement at a time: {why}");
            return;
        }
    };
    match pipeline.connect().await {
        Ok(connection) => {
            pipeline.free().push(connection);
        }
        Err(error) => {
            tracing::warn!(
                "changes written together go to PostgreSQL one statement at a time: a connection of \
                 tokio-postgres could not be opened with DATABASE_URL ({error})"
            );
            return;
        }
    }
    let key = Arc::as_ptr(&options).cast::<()>() as usize;
    let options: Arc<dyn std::any::Any + Send + Sync> = options;
    let mut pipelines = pipelines();
    pipelines.retain(|_, (options, _)| options.strong_count() > 0);
    pipelines.insert(key, (Arc::downgrade(&options), Arc::new(pipeline)));
}

impl Pipeline {
    /// Transactions sent here at once, each on a connection of its own; more go through sqlx.
    /// A transaction holds its connection for one or two round trips, or while its row is held
    /// elsewhere.
    const CONNECTIONS: usize = 4;
    /// The texts of statements a connection keeps prepared: a change has a few shapes. Past
    /// this, it forgets them all and prepares again what comes.
    const PREPARED: usize = 64;

    /// A pipeline that connects as the pool does with `options`: their host (or Unix socket),
    /// port, user, database and `options`, the session settings sqlx gives each connection, and
    /// the password of `url` (or `PGPASSWORD`). With `sslmode` `prefer` or `require`, sqlx encrypts
    /// without checking the server's certificate, and so does this; `verify-ca` and `verify-full`
    /// (and `allow`) are not done here, and the caller then does without.
    fn new(options: &PgConnectOptions, url: &str) -> Result<Self, String> {
        let ssl = match options.get_ssl_mode() {
            PgSslMode::Disable => SslMode::Disable,
            PgSslMode::Prefer => SslMode::Prefer,
            PgSslMode::Require => SslMode::Require,
            other => return Err(format!("sslmode {other:?} is not done here")),
        };
        let mut config = Config::new();
        if let Some(socket) = options.get_socket() {
            config.host_path(socket);
        } else {
            config.host(options.get_host().trim_start_matches('[').trim_end_matches(']'));
        }
        config.port(options.get_port()).user(options.get_username()).ssl_mode(ssl);
        if let Some(database) = options.get_database() {
            config.dbname(database);
        }
        let password = url::Url::parse(url)
            .ok()
            .and_then(|url| {
                url.password().map(|password| percent_decode_str(password).decode_utf8_lossy().into_owned())
            })
            .or_else(|| std::env::var("PGPASSWORD").ok());
        if let Some(password) = password {
            config.password(password);
        }
        // sqlx's own session settings (its `establish.rs`), then the options asked for.
        let mut settings = "-c DateStyle=ISO,MDY -c TimeZone=UTC -c extra_float_digits=2".to_owned();
        if let Some(asked) = options.get_options() {
            settings.push(' ');
            settings.push_str(asked);
        }
        config.options(settings).application_name("bobbin");
        config.connect_timeout(ACQUIRE_TIMEOUT);
        let tls = (ssl != SslMode::Disable).then(|| MakeRustlsConnect::new(unchecked_tls()));
        Ok(Self { config, tls, free: Mutex::default(), turns: Semaphore::new(Self::CONNECTIONS) })
    }

    /// The connections not in use.
    fn free(&self) -> std::sync::MutexGuard<'_, Vec<Connection>> {
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new connection; its connection task runs until the client goes.
    async fn connect(&self) -> Result<Connection, tokio_postgres::Error> {
        let client = if let Some(tls) = &self.tls {
            let (client, connection) = self.config.connect(tls.clone()).await?;
            tokio::spawn(connection);
            client
        } else {
            let (client, connection) = self.config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(connection);
            client
        };
        Ok(Connection { client, last_used: Instant::now(), prepared: FxHashMap::default() })
    }

    /// Runs `changes` one after another in one transaction, and answers the rows of each once
    /// all are committed. A free connection is used, or one opened (up to
    /// [`Self::CONNECTIONS`]); one that broke is closed, not kept.
    pub(super) async fn run(&self, changes: &[Change]) -> Result<Vec<Vec<Row>>, Piped> {
        let mut statements = Vec::new();
        for change in changes {
            for statement in &change.statements {
                let values = statement.values.as_ref().map_or(&[][..], |values| &values.0[..]);
                let types =
                    values.iter().map(type_of).collect::<Option<Vec<Type>>>().ok_or(Piped::NotPipelined)?;
                statements.push((statement.sql.as_str(), values, types));
            }
        }
        // None free: these wait on rows held elsewhere, which should hold up no other entry's
        // changes. The pool's connections may yet be had, through sqlx.
        let _turn = self.turns.try_acquire().map_err(|_none| Piped::NotPipelined)?;
        let mut connection = self.usable().await.ok_or(Piped::NotPipelined)?;
        let answer = connection.run(changes, &statements).await;
        if !connection.client.is_closed() && !matches!(answer, Err(Piped::Failed(_))) {
            connection.last_used = Instant::now();
            self.free().push(connection);
        }
        answer
    }

    /// A free connection, checked if it has been idle for [`CHECKED_AFTER_IDLE`] (PostgreSQL may
    /// have restarted meanwhile), or a new one; `None` when none can be opened (PostgreSQL's
    /// connections all taken, say), within [`ACQUIRE_TIMEOUT`] each.
    async fn usable(&self) -> Option<Connection> {
        let free = self.free().pop().filter(|connection| !connection.client.is_closed());
        if let Some(connection) = free {
            if connection.last_used.elapsed() < CHECKED_AFTER_IDLE {
                return Some(connection);
            }
            let checked = tokio::time::timeout(ACQUIRE_TIMEOUT, connection.client.simple_query("")).await;
            if matches!(checked, Ok(Ok(_))) {
                return Some(connection);
            }
        }
        match self.connect().await {
            Ok(connection) => Some(connection),
            Err(error) => {
                tracing::warn!(
                    "a PostgreSQL connection for changes written together could not be opened: {error}"
                );
                None
            }
        }
    }
}

impl Connection {
    async fn run(
        &mut self,
        changes: &[Change],
        statements: &[(&str, &[Value], Vec<Type>)],
    ) -> Result<Vec<Vec<Row>>, Piped> {
        let checked = changes.iter().any(|change| change.check.is_some());
        let shapes: Vec<(&str, &[Type])> = [("BEGIN", &[][..]), ("COMMIT", &[]), ("ROLLBACK", &[])]
            .into_iter()
            .chain(statements.iter().map(|(sql, _, types)| (*sql, &types[..])))
            .collect();
        let prepared = self.prepared(&shapes).await?;
        let (begin, commit, roll_back) = (&prepared[0], &prepared[1], &prepared[2]);
        // A statement tokio-postgres would refuse before sending it (its values not one for each
        // of its parameters) would leave the ones after it to be sent and committed without it.
        let sendable = prepared[3..].iter().zip(statements).all(|(statement, (_, values, _))| {
            statement.params().len() == values.len()
                && statement.columns().iter().all(|column| decoder(column.type_()).is_some())
        });
        if !sendable {
            return Err(Piped::NotPipelined);
        }
        let params: Vec<Vec<Param<'_>>> =
            statements.iter().map(|(_, values, _)| values.iter().map(Param).collect()).collect();
        let params: Vec<Vec<&(dyn ToSql + Sync)>> = params
            .iter()
            .map(|values| values.iter().map(|value| value as &(dyn ToSql + Sync)).collect())
            .collect();
        let client = &self.client;
        let mut requests = vec![client.query(begin, &[])];
        requests.extend(
            prepared[3..].iter().zip(&params).map(|(statement, params)| client.query(statement, params)),
        );
        if !checked {
            requests.push(client.query(commit, &[]));
        }
        let mut answers = in_order(requests).await.into_iter();
        if let Some(Err(error)) = answers.next() {
            // Each statement after a failed `BEGIN` was a transaction of its own.
            return Err(Piped::Failed(unavailable(&error)));
        }
        let mut failed = None;
        let mut rows = Vec::with_capacity(statements.len());
        for answer in answers.by_ref().take(statements.len()) {
            match answer {
                Ok(answered) => rows.push(answered),
                Err(error) => {
                    failed.get_or_insert(error);
                    rows.push(Vec::new());
                }
            }
        }
        if let Some(Err(error)) = answers.next() {
            failed.get_or_insert(error);
        }
        if let Some(error) = failed {
            if error.as_db_error().is_none() || client.is_closed() {
                return Err(Piped::Failed(unavailable(&error)));
            }
            if checked {
                client.query(roll_back, &[]).await.map_err(|error| Piped::Failed(unavailable(&error)))?;
            }
            // A statement prepared before a change of the table's columns, say, fails until
            // prepared again.
            self.prepared.clear();
            return Err(Piped::StatementFailed(error.to_string()));
        }
        let answers = match answers_of(changes, rows) {
            Ok(answers) => answers,
            Err(error) => {
                // A value of a carried type out of the Rust type's range (a timestamp of
                // `infinity`): the changes are answered with an error, as sqlx's rows would have
                // been, and rolled back if not committed yet. They all change one row.
                if checked {
                    client.query(roll_back, &[]).await.map_err(|error| Piped::Failed(unavailable(&error)))?;
                }
                return Err(Piped::Failed(DbErr::Type(error.to_string())));
            }
        };
        if !checked {
            return Ok(answers);
        }
        let stood = changes.iter().zip(&answers).all(|(change, rows)| stands(change.check.as_ref(), rows));
        let ended = client.query(if stood { commit } else { roll_back }, &[]).await;
        match ended {
            Ok(_) if stood => Ok(answers),
            Ok(_) => Err(Piped::NotStanding(answers)),
            Err(error) if error.as_db_error().is_some() => Err(Piped::StatementFailed(error.to_string())),
            Err(error) => Err(Piped::Failed(unavailable(&error))),
        }
    }

    /// The prepared statements of `shapes` (SQL and the types of its values), in order: those
    /// this connection has, and the others prepared now, together, each once.
    async fn prepared(
        &mut self,
        shapes: &[(&str, &[Type])],
    ) -> Result<Vec<tokio_postgres::Statement>, Piped> {
        let mut missing = self.missing(shapes);
        if !missing.is_empty() && self.prepared.len() + missing.len() > Pipeline::PREPARED {
            self.prepared.clear();
            missing = self.missing(shapes);
        }
        if !missing.is_empty() {
            let client = &self.client;
            let made =
                in_order(missing.iter().map(|(sql, types)| client.prepare_typed(sql, types)).collect()).await;
            for ((sql, types), statement) in missing.into_iter().zip(made) {
                let statement = match statement {
                    Ok(statement) => statement,
                    Err(error) if error.as_db_error().is_some() => {
                        return Err(Piped::StatementFailed(error.to_string()));
                    }
                    Err(error) => return Err(Piped::Failed(unavailable(&error))),
                };
                self.prepared.entry(sql.to_owned()).or_default().push((types.to_vec(), statement));
            }
        }
        shapes.iter().map(|(sql, types)| self.find(sql, types).cloned().ok_or(Piped::NotPipelined)).collect()
    }

    /// The shapes of `shapes` this connection has not prepared, each once.
    fn missing<'s>(&self, shapes: &[(&'s str, &'s [Type])]) -> Vec<(&'s str, &'s [Type])> {
        let mut missing = Vec::new();
        for &(sql, types) in shapes {
            if self.find(sql, types).is_none() && !missing.contains(&(sql, types)) {
                missing.push((sql, types));
            }
        }
        missing
    }

    /// The statement this connection prepared for `sql` with values of `types`.
    fn find(&self, sql: &str, types: &[Type]) -> Option<&tokio_postgres::Statement> {
        self.prepared.get(sql)?.iter().find(|(known, _)| known == types).map(|(_, statement)| statement)
    }
}

/// Polls `requests` in order, every time, until all are done, and answers their outputs in that
/// order. tokio-postgres sends a request when its future is first polled and reads the answers in
/// the order sent: polled in order, the requests go out together, in that order. Written here
/// because `futures::future::join_all` polls more than 30 futures in no promised order.
async fn in_order<F: Future>(requests: Vec<F>) -> Vec<F::Output> {
    let mut requests: Vec<Pin<Box<MaybeDone<F>>>> =
        requests.into_iter().map(|request| Box::pin(maybe_done(request))).collect();
    std::future::poll_fn(|cx| {
        let mut done = true;
        for request in &mut requests {
            done &= request.as_mut().poll(cx).is_ready();
        }
        if done { Poll::Ready(()) } else { Poll::Pending }
    })
    .await;
    requests.iter_mut().filter_map(|request| request.as_mut().take_output()).collect()
}

/// The error a broken connection (or none to be had) answers: an outage, `Unavailable`.
fn unavailable(error: &tokio_postgres::Error) -> DbErr {
    tracing::warn!("a PostgreSQL connection for changes written together failed: {error}");
    DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::ConnectionClosed)
}

/// The type sqlx gives `value` when it binds it (sea-query-sqlx), so that PostgreSQL reads the
/// statement as it reads sqlx's; `None` for a type not carried here.
fn type_of(value: &Value) -> Option<Type> {
    Some(match value {
        Value::Bool(_) => Type::BOOL,
        Value::SmallInt(_) | Value::TinyUnsigned(_) => Type::INT2,
        Value::Int(_) | Value::SmallUnsigned(_) => Type::INT4,
        Value::BigInt(_) | Value::Unsigned(_) => Type::INT8,
        Value::Float(_) => Type::FLOAT4,
        Value::Double(_) => Type::FLOAT8,
        Value::String(_) => Type::TEXT,
        Value::Bytes(_) => Type::BYTEA,
        Value::Uuid(_) => Type::UUID,
        Value::Json(_) => Type::JSONB,
        Value::TimeDate(_) => Type::DATE,
        Value::TimeTime(_) => Type::TIME,
        Value::TimeDateTime(_) => Type::TIMESTAMP,
        Value::TimeDateTimeWithTimeZone(_) => Type::TIMESTAMPTZ,
        _ => return None,
    })
}

/// A value bound as the type [`type_of`] gave it.
#[derive(Debug)]
struct Param<'v>(&'v Value);

impl ToSql for Param<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self.0 {
            Value::Bool(value) => value.to_sql(ty, out),
            Value::SmallInt(value) => value.to_sql(ty, out),
            Value::TinyUnsigned(value) => value.map(i16::from).to_sql(ty, out),
            Value::Int(value) => value.to_sql(ty, out),
            Value::SmallUnsigned(value) => value.map(i32::from).to_sql(ty, out),
            Value::BigInt(value) => value.to_sql(ty, out),
            Value::Unsigned(value) => value.map(i64::from).to_sql(ty, out),
            Value::Float(value) => value.to_sql(ty, out),
            Value::Double(value) => value.to_sql(ty, out),
            Value::String(value) => value.as_deref().to_sql(ty, out),
            Value::Bytes(value) => value.as_deref().to_sql(ty, out),
            Value::Uuid(value) => value.to_sql(ty, out),
            Value::Json(value) => value.as_deref().to_sql(ty, out),
            Value::TimeDate(value) => value.to_sql(ty, out),
            Value::TimeTime(value) => value.to_sql(ty, out),
            Value::TimeDateTime(value) => value.to_sql(ty, out),
            Value::TimeDateTimeWithTimeZone(value) => value.to_sql(ty, out),
            other => Err(format!("a value not carried here: {other:?}").into()),
        }
    }

    /// The statement was prepared with the types [`type_of`] gave these values.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// The rows each of `changes` answered, from those of their statements in order.
fn answers_of(
    changes: &[Change],
    rows: Vec<Vec<tokio_postgres::Row>>,
) -> Result<Vec<Vec<Row>>, tokio_postgres::Error> {
    let mut rows = rows.into_iter();
    let mut answers = Vec::with_capacity(changes.len());
    for change in changes {
        let mut written = Vec::new();
        for answered in rows.by_ref().take(change.statements.len()) {
            let Some(first) = answered.first() else { continue };
            let names: Arc<[String]> =
                first.columns().iter().map(|column| column.name().to_owned()).collect();
            for row in answered {
                written.push(Row::Typed(TypedRow::new(Arc::clone(&names), values_of(&row)?)));
            }
        }
        answers.push(written);
    }
    Ok(answers)
}

/// The values of `row`'s columns, in order, of the types sqlx would have decoded them as. Only
/// columns [`decoder`] knows are sent here.
fn values_of(row: &tokio_postgres::Row) -> Result<Vec<Value>, tokio_postgres::Error> {
    let decoders = row.columns().iter().map(|column| decoder(column.type_()).expect("a carried column"));
    decoders.enumerate().map(|(at, decode)| decode(row, at)).collect()
}

/// Reads the column at an index of a row as a value.
type Decoder = fn(&tokio_postgres::Row, usize) -> Result<Value, tokio_postgres::Error>;

/// How a column of type `ty` is read, as sqlx decodes it; `None` for a type not carried here.
fn decoder(ty: &Type) -> Option<Decoder> {
    static DECODERS: [(Type, Decoder); 18] = [
        (Type::BOOL, |row, at| Ok(Value::Bool(row.try_get(at)?))),
        (Type::INT2, |row, at| Ok(Value::SmallInt(row.try_get(at)?))),
        (Type::INT4, |row, at| Ok(Value::Int(row.try_get(at)?))),
        (Type::INT8, |row, at| Ok(Value::BigInt(row.try_get(at)?))),
        (Type::FLOAT4, |row, at| Ok(Value::Float(row.try_get(at)?))),
        (Type::FLOAT8, |row, at| Ok(Value::Double(row.try_get(at)?))),
        (Type::TEXT, |row, at| Ok(Value::String(row.try_get(at)?))),
        (Type::VARCHAR, |row, at| Ok(Value::String(row.try_get(at)?))),
        (Type::BPCHAR, |row, at| Ok(Value::String(row.try_get(at)?))),
        (Type::NAME, |row, at| Ok(Value::String(row.try_get(at)?))),
        (Type::BYTEA, |row, at| Ok(Value::Bytes(row.try_get(at)?))),
        (Type::UUID, |row, at| Ok(Value::Uuid(row.try_get(at)?))),
        (Type::JSON, |row, at| {
            Ok(Value::Json(row.try_get::<_, Option<serde_json::Value>>(at)?.map(Box::new)))
        }),
        (Type::JSONB, |row, at| {
            Ok(Value::Json(row.try_get::<_, Option<serde_json::Value>>(at)?.map(Box::new)))
        }),
        (Type::DATE, |row, at| Ok(Value::TimeDate(row.try_get(at)?))),
        (Type::TIME, |row, at| Ok(Value::TimeTime(row.try_get(at)?))),
        (Type::TIMESTAMP, |row, at| Ok(Value::TimeDateTime(row.try_get(at)?))),
        (Type::TIMESTAMPTZ, |row, at| Ok(Value::TimeDateTimeWithTimeZone(row.try_get(at)?))),
    ];
    DECODERS.iter().find(|(known, _)| known == ty).map(|&(_, decode)| decode)
}

/// TLS that encrypts without checking the server's certificate: what sqlx does for `sslmode`
/// `prefer` and `require`. The handshake's own signatures are still checked.
fn unchecked_tls() -> rustls::ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .expect("ring offers TLS 1.2 and 1.3")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        .with_no_client_auth()
}

/// Takes any certificate ([`unchecked_tls`]).
#[derive(Debug)]
struct AnyCertificate(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr as _;

    use sea_orm::sqlx::postgres::PgConnectOptions;
    use tokio_postgres::config::{Host, SslMode};

    use super::Pipeline;

    /// These connections go where the pool's go, as the same person, with the same options; or
    /// nowhere, where they would check less than sqlx does.
    #[test]
    fn the_connections_are_opened_as_the_pools_are_or_not_at_all() {
        let url = "postgres://shop:p%40ss@[::1]:5433/bobbin?sslmode=require&options=-c%20search_path%3Dshop";
        let pipeline = Pipeline::new(&PgConnectOptions::from_str(url).unwrap(), url).unwrap();
        let config = &pipeline.config;
        assert_eq!(config.get_hosts(), [Host::Tcp("::1".to_owned())]);
        assert_eq!(config.get_ports(), [5433]);
        assert_eq!((config.get_user(), config.get_password()), (Some("shop"), Some(&b"p@ss"[..])));
        assert_eq!(config.get_dbname(), Some("bobbin"));
        assert_eq!(config.get_ssl_mode(), SslMode::Require);
        let options = config.get_options().unwrap();
        assert!(options.contains("TimeZone=UTC") && options.ends_with("search_path=shop"), "{options}");
        assert_eq!(config.get_application_name(), Some("bobbin"));

        for checked in ["verify-ca", "verify-full"] {
            let url = format!("postgres://shop@db.example/bobbin?sslmode={checked}");
            let refused = Pipeline::new(&PgConnectOptions::from_str(&url).unwrap(), &url).err();
            assert!(refused.is_some_and(|why| why.contains("not done here")), "{checked}");
        }
    }
}
