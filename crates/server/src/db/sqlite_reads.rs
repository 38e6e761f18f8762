//! The sign-in checks' reads of a SQLite file, run on the request's own thread.
//!
//! sqlx runs each SQLite connection on a thread of its own: every query is handed to that thread,
//! and its rows handed back, a thread switch each way. On a server's few cores those switches were
//! most of what an authenticated request cost: in a profile of `GET /api/v2/teams` under load,
//! the connection's thread used a quarter of the server's CPU, half of it switching, and waking it
//! another tenth (README, "API speed"). The sign-in check reads a session, its person and a few
//! rows by key: a few pages, which SQLite reads again from the file after another connection's
//! commit (from the operating system's cache, in microseconds, on a local disk), so here it runs
//! where the request runs, through rusqlite on the same SQLite library as sqlx.
//!
//! A read here does not wait for a lock: a connection's busy timeout is zero, so a read that
//! would wait for one (the database locked by a recovery or a checkpoint's restart) fails at
//! once, and so does one this module cannot give types to (see [`typed`]); the caller then reads
//! through the pool, on sqlx's threads, as every read did before. In WAL mode a read never waits
//! for the writer. What a read here does spend on the runtime's thread is its file reads, and
//! SQLite's own short retries while a writer moves the log's read marks, which can sleep (rarely,
//! and for microseconds in practice): the cost of a database on a slow or network disk, where the
//! pool's thread took it before.
//!
//! Each value is read as a value of the Rust type of its column ([`TypedRow`]), which SQLite's
//! values do not carry (a person's id is a blob, a time text): `column_types` says each column's
//! type, by its name in the query. sea-orm then builds the models from those values.
//!
//! Written here rather than taken from a library: sea-orm's own rusqlite driver is for its
//! synchronous edition, its rows of typed values (`ProxyRow`) do not build beside its sqlx
//! SQLite driver in this version, and sea-query's binding of values to rusqlite is for another
//! version of SQLite's library than the one sqlx links (a program links one).

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use rusqlite::{
    OpenFlags,
    types::{ToSqlOutput, Value as Sqlite, ValueRef},
};
use sea_orm::{
    ActiveModelTrait, ColumnType, DbErr, EntityTrait, IdenStatic as _, Iterable as _, Statement,
    TryIntoModel, Value, sea_query::ValueType,
};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

/// The Rust type of the column a query names so, `None` for a name it does not know.
pub type ColumnTypes = fn(&str) -> Option<ColumnType>;

/// Connections to one SQLite file for reads on the caller's thread: one for each thread reading
/// at the same time (the runtime's workers), opened as first needed.
pub struct SqliteReads {
    path: PathBuf,
    free: Mutex<Vec<Reader>>,
    column_types: ColumnTypes,
    /// Set by [`Self::close`]: a read still running then closes its connection when done.
    closed: AtomicBool,
}

impl std::fmt::Debug for SqliteReads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteReads").field("path", &self.path).finish_non_exhaustive()
    }
}

/// A connection, and the columns of each query it has read.
struct Reader {
    connection: rusqlite::Connection,
    /// Each query's column names and types, by its SQL. The same few sign-in queries come on
    /// every request, and naming and typing their forty columns again each time was a tenth of
    /// the read. Hashed with `FxHash`: the key is a SQL text of a few KB, which std's `SipHash`
    /// reads slowly.
    columns: HashMap<String, Columns, rustc_hash::FxBuildHasher>,
}

/// The most queries whose columns a [`Reader`] keeps: the sign-in checks have four.
const QUERIES_KEPT: usize = 16;

/// The column names of a query, and each one's type.
#[derive(Clone)]
struct Columns {
    names: Arc<[String]>,
    types: Arc<[ColumnType]>,
}

impl Columns {
    /// The columns of `prepared`, typed as `column_types` says.
    fn of(prepared: &rusqlite::Statement<'_>, column_types: ColumnTypes) -> Result<Self, NotHere> {
        let names: Arc<[String]> = prepared.column_names().into_iter().map(str::to_owned).collect();
        let types = names
            .iter()
            .map(|name| column_types(name).ok_or_else(|| NotHere(format!("no type for column {name}"))))
            .collect::<Result<_, NotHere>>()?;
        Ok(Self { names, types })
    }
}

/// Why a read was not made here: the caller makes it through the pool instead.
#[derive(Debug)]
pub struct NotHere(pub String);

impl From<rusqlite::Error> for NotHere {
    fn from(error: rusqlite::Error) -> Self {
        Self(error.to_string())
    }
}

impl SqliteReads {
    pub fn new(path: &Path, column_types: ColumnTypes) -> Self {
        Self {
            path: path.to_path_buf(),
            free: Mutex::new(Vec::new()),
            column_types,
            closed: AtomicBool::new(false),
        }
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<Reader>> {
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The rows of `statement`, a read, made now on this thread.
    ///
    /// # Errors
    ///
    /// [`NotHere`] when it could not be made here at once. The connection goes back to the list
    /// whatever the read answered: a SQLite connection is not broken by a failed statement (a
    /// busy database, a full disk), and opening one costs more than a read.
    pub fn all(&self, statement: &Statement) -> Result<Vec<TypedRow>, NotHere> {
        // The list's lock is not held during the read.
        let free = self.free().pop();
        let mut reader = match free {
            Some(reader) => reader,
            None if self.closed.load(Ordering::Relaxed) => return Err(NotHere("closed".to_owned())),
            None => Reader { connection: self.open()?, columns: HashMap::default() },
        };
        let rows = read(&mut reader, statement, self.column_types);
        // Under the list's lock, as closing sets `closed`.
        let mut free = self.free();
        if !self.closed.load(Ordering::Relaxed) {
            free.push(reader);
        }
        rows
    }

    fn open(&self) -> Result<rusqlite::Connection, NotHere> {
        // No CREATE: the pool made the file; each connection is used by one thread at a time.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = rusqlite::Connection::open_with_flags(&self.path, flags)?;
        connection.busy_timeout(Duration::ZERO)?;
        connection.pragma_update(None, "query_only", true)?;
        Ok(connection)
    }

    /// Closes the connections (the server stopping).
    pub fn close(&self) {
        let mut free = self.free();
        self.closed.store(true, Ordering::Relaxed);
        free.clear();
    }
}

/// A row read here (or answered through [`super::pipelined`]): the query's column names, and a
/// value of each column's Rust type.
#[derive(Debug)]
pub struct TypedRow {
    names: Arc<[String]>,
    values: Vec<Value>,
}

impl TypedRow {
    /// A row of `values`, one for each of `names`.
    pub(super) fn new(names: Arc<[String]>, values: Vec<Value>) -> Self {
        Self { names, values }
    }

    /// The value of column `name`.
    ///
    /// # Errors
    ///
    /// When the query has no such column, or it is not a `T`.
    pub fn get<T: ValueType>(&self, name: &str) -> Result<T, DbErr> {
        let index = self.names.iter().position(|column| column == name);
        let value = index.map(|index| &self.values[index]);
        into_type(value.ok_or_else(|| DbErr::Type(format!("no column {name}")))?.clone())
    }

    /// The value of the column at `index`.
    ///
    /// # Errors
    ///
    /// When the query has no such column, or it is not a `T`.
    pub fn get_by_index<T: ValueType>(&self, index: usize) -> Result<T, DbErr> {
        into_type(self.values.get(index).ok_or_else(|| DbErr::Type(format!("no column {index}")))?.clone())
    }

    /// The model of `E` whose columns the row holds, each named `prefix` and the column's name.
    ///
    /// # Errors
    ///
    /// When a column is missing or not of its type.
    pub fn model<E>(&self, prefix: &str) -> Result<E::Model, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        let mut model = <E::ActiveModel as ActiveModelTrait>::default();
        // A query names an entity's columns in its order: each is looked for after the one before.
        let mut next = 0;
        for column in E::Column::iter() {
            let name = column.as_str();
            let named = |held: &String| held.strip_prefix(prefix) == Some(name);
            let index = (self.names[next..].iter().position(named).map(|found| found + next))
                .or_else(|| self.names.iter().position(named))
                .ok_or_else(|| DbErr::Type(format!("no column {prefix}{name}")))?;
            model.try_set(column, self.values[index].clone())?;
            next = index + 1;
        }
        model.try_into_model()
    }
}

/// `value` as a `T`, or the error sea-orm gives a column that is not one.
fn into_type<T: ValueType>(value: Value) -> Result<T, DbErr> {
    T::try_from(value).map_err(|error| DbErr::Type(error.to_string()))
}

/// The rows of `statement` on `reader`'s connection, each value typed as `column_types` says.
fn read(
    reader: &mut Reader,
    statement: &Statement,
    column_types: ColumnTypes,
) -> Result<Vec<TypedRow>, NotHere> {
    let Reader { connection, columns } = reader;
    let mut prepared = connection.prepare_cached(&statement.sql)?;
    let Columns { names, types } = if let Some(known) = columns.get(&statement.sql) {
        known.clone()
    } else {
        let named = Columns::of(&prepared, column_types)?;
        if columns.len() >= QUERIES_KEPT {
            columns.clear();
        }
        columns.insert(statement.sql.clone(), named.clone());
        named
    };
    if let Some(values) = &statement.values {
        for (index, value) in values.0.iter().enumerate() {
            prepared.raw_bind_parameter(index + 1, bound(value)?)?;
        }
    }
    let mut rows = prepared.raw_query();
    let mut read = Vec::new();
    while let Some(row) = rows.next()? {
        let values = types
            .iter()
            .enumerate()
            .map(|(index, column_type)| typed(row.get_ref(index)?, column_type))
            .collect::<Result<_, NotHere>>()?;
        read.push(TypedRow { names: Arc::clone(&names), values });
    }
    Ok(read)
}

/// A value of a query's, as SQLite stores it from sqlx: ids as 16-byte blobs.
fn bound(value: &Value) -> Result<ToSqlOutput<'_>, NotHere> {
    let stored = match value {
        Value::Uuid(Some(id)) => Sqlite::Blob(id.as_bytes().to_vec()),
        Value::String(Some(text)) => return Ok(ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes()))),
        Value::Int(Some(number)) => Sqlite::Integer((*number).into()),
        Value::BigInt(Some(number)) => Sqlite::Integer(*number),
        Value::Bool(Some(yes)) => Sqlite::Integer((*yes).into()),
        Value::Uuid(None)
        | Value::String(None)
        | Value::Int(None)
        | Value::BigInt(None)
        | Value::Bool(None) => Sqlite::Null,
        other => return Err(NotHere(format!("no binding for {other:?}"))),
    };
    Ok(ToSqlOutput::Owned(stored))
}

/// `stored`, a value of a column of `column_type`, as the Rust value sea-orm decodes that type
/// from: what sqlx's SQLite driver reads there. Times are read as sqlx writes them (RFC 3339);
/// any other form is sent back to sqlx, which reads more, as is a column of any other type.
fn typed(stored: ValueRef<'_>, column_type: &ColumnType) -> Result<Value, NotHere> {
    // The stored value itself is not named: it may be a person's data, and this goes to the log.
    let unreadable = || NotHere(format!("a {column_type:?} column holds a {:?} value", stored.data_type()));
    let text = || stored.as_str().map_err(|_| unreadable());
    let null = matches!(stored, ValueRef::Null);
    Ok(match column_type {
        ColumnType::Uuid => Value::Uuid(if null {
            None
        } else {
            Some(
                uuid::Uuid::from_slice(stored.as_blob().map_err(|_| unreadable())?)
                    .map_err(|_| unreadable())?,
            )
        }),
        ColumnType::TimestampWithTimeZone => Value::TimeDateTimeWithTimeZone(if null {
            None
        } else {
            Some(OffsetDateTime::parse(text()?, &Rfc3339).map_err(|_| unreadable())?)
        }),
        ColumnType::Json | ColumnType::JsonBinary => Value::Json(if null {
            None
        } else {
            Some(Box::new(serde_json::from_str(text()?).map_err(|_| unreadable())?))
        }),
        // Not `Char` or a database's own `Enum`: sea-orm reads those from values of their own.
        ColumnType::String(_) | ColumnType::Text => {
            Value::String(if null { None } else { Some(text()?.to_owned()) })
        }
        ColumnType::Integer => Value::Int(if null {
            None
        } else {
            Some(
                <i32 as TryFrom<i64>>::try_from(stored.as_i64().map_err(|_| unreadable())?)
                    .map_err(|_| unreadable())?,
            )
        }),
        ColumnType::BigInteger => {
            Value::BigInt(if null { None } else { Some(stored.as_i64().map_err(|_| unreadable())?) })
        }
        ColumnType::Boolean => {
            Value::Bool(if null { None } else { Some(stored.as_i64().map_err(|_| unreadable())? != 0) })
        }
        _ => return Err(unreadable()),
    })
}
