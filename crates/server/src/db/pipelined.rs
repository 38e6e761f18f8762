//! A transaction of changes sent to PostgreSQL in one go (pipelining), for
//! [`super::committed_together`].
//!
//! The changes of one entry that come at once are written in one transaction. Through sqlx, each
//! of its statements was a round trip of its own to PostgreSQL: sqlx sends a statement only once
//! the answer of the one before has come. A `+1` under load waited for the 31 before it one trip
//! at a time, the cores a quarter idle (README, "API speed"). tokio-postgres sends a request as
//! soon as it is made and reads the answers in the order they were sent, so `BEGIN`, every
//! statement and the `COMMIT` go out together and the transaction takes one round trip; one more
//! when a change's rows decide whether it stands (the `COMMIT` or `ROLLBACK` then waits for them).
//!
//! If a statement fails, PostgreSQL answers the ones after it as refused, and the `COMMIT` that
//! follows as a `ROLLBACK`: nothing is kept, as before, and the caller writes each change again
//! alone through sqlx, for its own answer. A statement whose values or columns have a type this
//! module does not carry is not sent here at all (the caller writes it through sqlx), nor is
//! any change when `DATABASE_URL` asks for what is not read here (certificate checks, say).
//!
//! The connections are kept beside the pool, as the sign-in reads' are, up to
//! [`Pipeline::CONNECTIONS`] (one a transaction), each with the statements it has prepared.

use std::{
    collections::HashMap,
    future::Future,
    pin::Pin,
    sync::{Arc, LazyLock, Mutex, Weak},
    task::Poll,
};

use futures_util::future::{MaybeDone, maybe_done};
use percent_encoding::percent_decode_str;
use rustc_hash::FxHashMap;
use sea_orm::{DbErr, sea_query::Value};
use tokio::sync::Semaphore;
use tokio_postgres::{
    Client, Config,
    config::SslMode,
    types::{IsNull, ToSql, Type, to_sql_checked},
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::{ACQUIRE_TIMEOUT, Change, Row, TypedRow, stands};

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
    prepared: FxHashMap<String, Vec<(Vec<Type>, tokio_postgres::Statement)>>,
}

/// How a transaction sent here ended, when its changes were not all written.
pub(super) enum Piped {
    /// A statement failed (or the commit did): nothing was kept. Written alone, each change
    /// gets its own answer.
    StatementFailed(String),
    /// A change's rows did not let it stand: nothing was kept. The rows of every change.
    NotStanding(Vec<Vec<Row>>),
    /// No turn came in time, or the connection broke: every change's answer.
    Failed(DbErr),
    /// Not sent: a value or a column of a type not carried here, or no connection could be
    /// opened.
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
pub(super) fn of(options: &Arc<dyn std::any::Any + Send + Sync>) -> Option<Arc<Pipeline>> {
    let key = Arc::as_ptr(options).cast::<()>() as usize;
    pipelines().get(&key).map(|(_, pipeline)| Arc::clone(pipeline))
}

/// Opens a pipeline for the pool whose options are `options`, connected to `url`, and checks
/// that it connects. When `url` asks for what this module does not read, or it cannot connect,
/// the pool has none (logged): its changes go through sqlx, as before. The pipelines of pools
/// since closed go, with their connections.
pub(super) async fn open(options: Arc<dyn std::any::Any + Send + Sync>, url: &str) {
    let pipeline = match Pipeline::new(url) {
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
    let mut pipelines = pipelines();
    pipelines.retain(|_, (options, _)| options.strong_count() > 0);
    pipelines.insert(key, (Arc::downgrade(&options), Arc::new(pipeline)));
}

impl Pipeline {
    /// Enough for two cores: a connection is held for one transaction's one or two round trips.
    const CONNECTIONS: usize = 4;
    /// The texts of statements a connection keeps prepared: a change has a few shapes. Past
    /// this, it forgets them all and prepares again what comes.
    const PREPARED: usize = 64;

    /// A pipeline for `url`, a PostgreSQL URL as sqlx reads it: host, port, user, password,
    /// database, and `sslmode` (`disable`, `prefer`, the default, or `require`) and
    /// `application_name`. With `prefer` or `require`, sqlx encrypts without checking the
    /// server's certificate, and so does this. Anything else (`verify-full`, a Unix socket,
    /// another option) is not read here: the caller then does without.
    fn new(url: &str) -> Result<Self, String> {
        let url = url::Url::parse(url).map_err(|error| error.to_string())?;
        let decoded = |text: &str| percent_decode_str(text).decode_utf8_lossy().into_owned();
        let mut config = Config::new();
        config.host(url.host_str().filter(|host| !host.is_empty()).ok_or("DATABASE_URL names no host")?);
        config.port(url.port().unwrap_or(5432));
        if url.username().is_empty() {
            return Err("DATABASE_URL names no user".to_owned());
        }
        config.user(decoded(url.username()));
        if let Some(password) = url.password() {
            config.password(decoded(password));
        }
        let database = url.path().trim_start_matches('/');
        if !database.is_empty() {
            config.dbname(decoded(database));
        }
        config.application_name("bobbin");
        let mut ssl = SslMode::Prefer;
        for (key, value) in url.query_pairs() {
            match (&*key, &*value) {
                ("sslmode", "disable") => ssl = SslMode::Disable,
                ("sslmode", "prefer") => ssl = SslMode::Prefer,
                ("sslmode", "require") => ssl = SslMode::Require,
                ("application_name", name) => {
                    config.application_name(name);
                }
                _ => return Err(format!("DATABASE_URL's `{key}={value}` is not read here")),
            }
        }
        config.ssl_mode(ssl);
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
        Ok(Connection { client, prepared: FxHashMap::default() })
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
        let _turn = tokio::time::timeout(ACQUIRE_TIMEOUT, self.turns.acquire())
            .await
            .map_err(|_late| Piped::Failed(DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::Timeout)))?
            .map_err(|_closed| Piped::NotPipelined)?;
        let free = self.free().pop();
        let mut connection = match free.filter(|connection| !connection.client.is_closed()) {
            Some(connection) => connection,
            // None can be opened (PostgreSQL's connections all taken, say): the pool's, through
            // sqlx, may yet be had.
            None => self.connect().await.map_err(|error| {
                tracing::warn!(
                    "a PostgreSQL connection for changes written together could not be opened: {error}"
                );
                Piped::NotPipelined
            })?,
        };
        let answer = connection.run(changes, &statements).await;
        if !connection.client.is_closed() && !matches!(answer, Err(Piped::Failed(_))) {
            self.free().push(connection);
        }
        answer
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
        if prepared[3..]
            .iter()
            .any(|statement| !statement.columns().iter().all(|column| carried(column.type_())))
        {
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
        let mut failed = answers.next().and_then(Result::err);
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
            if error.as_db_error().is_none() {
                return Err(Piped::Failed(unavailable(&error)));
            }
            if checked {
                client.query(roll_back, &[]).await.map_err(|error| Piped::Failed(unavailable(&error)))?;
            }
            return Err(Piped::StatementFailed(error.to_string()));
        }
        let answers = match answers_of(changes, rows) {
            Ok(answers) => answers,
            Err(error) => {
                // Not a type `carried` lets through, so never: the change is answered with an
                // error, and rolled back if it is not committed yet.
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

/// Whether a column of type `ty` is read here ([`values_of`]).
fn carried(ty: &Type) -> bool {
    [
        Type::BOOL,
        Type::INT2,
        Type::INT4,
        Type::INT8,
        Type::FLOAT4,
        Type::FLOAT8,
        Type::TEXT,
        Type::VARCHAR,
        Type::BPCHAR,
        Type::NAME,
        Type::BYTEA,
        Type::UUID,
        Type::JSON,
        Type::JSONB,
        Type::DATE,
        Type::TIME,
        Type::TIMESTAMP,
        Type::TIMESTAMPTZ,
    ]
    .contains(ty)
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

/// The values of `row`'s columns, in order, of the types sqlx would have decoded them as.
fn values_of(row: &tokio_postgres::Row) -> Result<Vec<Value>, tokio_postgres::Error> {
    let mut values = Vec::with_capacity(row.len());
    for (at, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::BOOL {
            Value::Bool(row.try_get(at)?)
        } else if *ty == Type::INT2 {
            Value::SmallInt(row.try_get(at)?)
        } else if *ty == Type::INT4 {
            Value::Int(row.try_get(at)?)
        } else if *ty == Type::INT8 {
            Value::BigInt(row.try_get(at)?)
        } else if *ty == Type::FLOAT4 {
            Value::Float(row.try_get(at)?)
        } else if *ty == Type::FLOAT8 {
            Value::Double(row.try_get(at)?)
        } else if *ty == Type::BYTEA {
            Value::Bytes(row.try_get(at)?)
        } else if *ty == Type::UUID {
            Value::Uuid(row.try_get(at)?)
        } else if *ty == Type::JSON || *ty == Type::JSONB {
            Value::Json(row.try_get::<_, Option<serde_json::Value>>(at)?.map(Box::new))
        } else if *ty == Type::DATE {
            Value::TimeDate(row.try_get(at)?)
        } else if *ty == Type::TIME {
            Value::TimeTime(row.try_get(at)?)
        } else if *ty == Type::TIMESTAMP {
            Value::TimeDateTime(row.try_get(at)?)
        } else if *ty == Type::TIMESTAMPTZ {
            Value::TimeDateTimeWithTimeZone(row.try_get(at)?)
        } else {
            // Text of any kind: `carried` let no other type through.
            Value::String(row.try_get(at)?)
        };
        values.push(value);
    }
    Ok(values)
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
