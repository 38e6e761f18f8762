//! A team's data as one archive: `GET /api/v2/teams/{team_id}/export` (docs/behaviour.md,
//! "A team's data").
//!
//! The archive is written while it is sent, never held whole: the team's rows are read a page
//! at a time, in one read transaction (the archive shows the team at one moment), and each page
//! is compressed and sent before the next is read, so an export costs a few pages of memory
//! however large the team. The zip writer is synchronous and compressing is CPU work, so it runs
//! on a thread of its own, which waits there for each page to be read and for the client to
//! take what was written (a bounded channel of chunks). Rejected: building the archive in
//! memory, which held several copies of the team's data at once; and writing it to a temporary
//! file first, which would need disk space and make the client wait for the whole team.

use std::{
    collections::BTreeMap,
    io::{self, BufWriter, Write},
    marker::PhantomData,
    time::Duration,
};

use axum::{
    body::{Body, Bytes},
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use bobbin_core::{
    catalogue::Catalogue,
    inventory::{ThreadSource, csv, search},
};
use futures_util::stream;
use sea_orm::DatabaseTransaction;
use serde::{Serialize, Serializer, ser::Error as _, ser::SerializeSeq as _};
use time::{OffsetDateTime, macros::format_description};
use tokio::{runtime::Handle, sync::mpsc, task::JoinHandle, time::Instant};
use zip::{CompressionMethod, ZipWriter, write::SimpleFileOptions};

use super::{Member, member_view, rank};
use crate::{
    db,
    entity::ids::{MachineId, QuoteId, TeamId, ThreadId},
    error::AppError,
    extract::TeamAdmin,
    limits::ExportRefused,
    repo::{
        self, RepoError,
        machines::{LogCursor, StoredMachine},
        settings::{self, Scope},
    },
    routes::inventory::machines::{self, LogEntry, LogFacts, MachineView},
    state::AppState,
};

/// Rows read at once: a page of threads with the longest notes is a few megabytes.
const PAGE: usize = 500;
/// Characters of quotes read at once (with [`PAGE`] quotes at most): a quote may hold up to
/// the 1 MiB a request carries, so quotes are read by their size, not only their number.
const QUOTE_CHARACTERS: u64 = 1 << 20;
/// The archive goes to the client in chunks of this many bytes...
const CHUNK: usize = 64 * 1024;
/// ...of which this many at most wait for the client to take them.
const CHUNKS_WAITING: usize = 4;
/// The longest an archive is written for: it holds a database connection and a read
/// transaction while its download lasts, so a client that stops reading cannot hold them (and
/// its place among the exports) for ever. Its download then fails.
const TIME_LIMIT: Duration = Duration::from_mins(15);
/// Seconds a refused export is told to wait (`Retry-After`): about what a large team's takes.
const RETRY_AFTER: u16 = 10;

/// What the archive's `team.json` says.
#[derive(Debug, Serialize)]
struct TeamFile<'a> {
    id: TeamId,
    public_id: &'a str,
    name: &'a str,
    #[serde(with = "time::serde::rfc3339")]
    created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    exported_at: OffsetDateTime,
    /// What each file holds.
    files: BTreeMap<&'static str, &'static str>,
}

/// The team's data (owners and admins) as one zip archive: `threads.csv` in the format the
/// thread import reads, and JSON files of the machines with their maintenance logs, the saved
/// quotes, the team's settings and its members, with `team.json` saying what each holds.
/// Written while it is sent; one at a time for a team, and a bounded number at once
/// (`--max-exports`).
#[utoipa::path(
    get, path = "/teams/{team_id}/export", operation_id = "export_team", tag = "teams",
    responses(
        (status = 200, description = "The archive", content_type = "application/zip", body = Vec<u8>),
        (status = 403, description = "Only admins and owners take the team's data", body = crate::error::ErrorBody),
        (status = 503, description = "`server_busy`: an archive of this team is being written, or as many as the server writes at once; try again after `Retry-After` seconds", body = crate::error::ErrorBody),
    ),
)]
pub async fn export(State(state): State<AppState>, member: TeamAdmin) -> Result<Response, AppError> {
    let team = &member.team;
    let place = state.exports.start(team.id).map_err(refused)?;
    let txn = db::begin_read(&state.db).await?;
    // What is small is read here, so that a failure to read answers as an error; the rest is
    // read while the archive is written.
    let threads = repo::threads::sources(&txn, team.id).await?;
    let machines = repo::machines::list_without_logs(&txn, team.id).await?;
    let quotes = pages_of_quotes(repo::quotes::sizes(&txn, team.id).await?);
    let team_settings = settings::all(&txn, Scope::Team(team.id)).await?;
    let mut members: Vec<Member> =
        repo::members::of_team(&txn, team.id).await?.into_iter().map(member_view).collect();
    members.sort_by_cached_key(|member| (rank(member.role), member.email.clone()));

    let now = OffsetDateTime::now_utc();
    let about = TeamFile {
        id: team.id,
        public_id: &team.public_id,
        name: &team.name,
        created_at: team.created_at,
        exported_at: now,
        files: BTreeMap::from([
            (
                "threads.csv",
                "The thread inventory, in the columns the thread import reads (Inventory, Import CSV).",
            ),
            ("machines.json", "The machines, each with its maintenance log, newest first."),
            ("quotes.json", "The saved quotes with their price lists, jobs and results, newest first."),
            ("settings.json", "The team's settings."),
            ("members.json", "The members, their roles and when they joined."),
        ]),
    };
    let archive = Archive {
        about: json(&about)?,
        threads,
        machines,
        quotes,
        settings: json(&team_settings)?,
        members: json(&members)?,
        reads: Reads { txn, team_id: team.id, runtime: Handle::current() },
    };
    let (sender, chunks) = mpsc::channel(CHUNKS_WAITING);
    let out = Chunks {
        buffer: Vec::with_capacity(CHUNK),
        sender,
        runtime: Handle::current(),
        deadline: Instant::now() + TIME_LIMIT,
    };
    // The place goes with the writing: it is given back when the archive is written whole, the
    // client goes away (the next chunk finds no one to take it), or the time limit passes.
    let writing = tokio::task::spawn_blocking(move || {
        let _place = place;
        archive.write(out)
    });
    let date = now.format(format_description!("[year]-[month]-[day]")).map_err(anyhow::Error::from)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bobbin-team-{}-{date}.zip\"", team.public_id),
            ),
        ],
        body_of(chunks, writing),
    )
        .into_response())
}

/// Why an export was not started, in the API's words.
fn refused(why: ExportRefused) -> AppError {
    let message = match why {
        ExportRefused::TeamBusy => {
            "This team's data is being downloaded already, and one archive of a team is written at a \
             time. Try again once that download has finished."
        }
        ExportRefused::ServerBusy => {
            "The server is writing as many teams' archives as it writes at once. Try again in a moment."
        }
    };
    AppError::TryLater { message, retry_after: RETRY_AFTER }
}

/// The quotes' ids, newest first, in pages of at most [`PAGE`] quotes and [`QUOTE_CHARACTERS`]
/// characters (or one quote larger than that).
fn pages_of_quotes(sizes: Vec<(QuoteId, u64)>) -> Vec<Vec<QuoteId>> {
    let mut pages: Vec<Vec<QuoteId>> = Vec::new();
    let mut characters = 0;
    for (id, size) in sizes {
        match pages.last_mut() {
            Some(page) if page.len() < PAGE && characters + size <= QUOTE_CHARACTERS => {
                page.push(id);
                characters += size;
            }
            _ => {
                pages.push(vec![id]);
                characters = size;
            }
        }
    }
    pages
}

fn json(value: &impl Serialize) -> Result<Vec<u8>, AppError> {
    Ok(serde_json::to_vec_pretty(value).map_err(anyhow::Error::from)?)
}

/// The answer's body: the chunks as they are written, then its end; or, when writing failed, an
/// error, so that the download fails rather than ends as if the archive were whole.
fn body_of(chunks: mpsc::Receiver<Bytes>, writing: JoinHandle<anyhow::Result<()>>) -> Body {
    Body::from_stream(stream::unfold(Some((chunks, writing)), |state| async move {
        let (mut chunks, writing) = state?;
        if let Some(chunk) = chunks.recv().await {
            return Some((Ok(chunk), Some((chunks, writing))));
        }
        let error = match writing.await {
            Ok(Ok(())) => return None,
            Ok(Err(error)) => error,
            Err(panicked) => anyhow::Error::from(panicked),
        };
        tracing::error!(error = format!("{error:#}"), "writing a team's archive failed");
        Some((Err(io::Error::other(error.to_string())), None))
    }))
}

/// The archive's bytes as they are written, sent on in chunks of [`CHUNK`] bytes. Sending waits
/// while [`CHUNKS_WAITING`] chunks wait for the client, until `deadline`.
struct Chunks {
    buffer: Vec<u8>,
    sender: mpsc::Sender<Bytes>,
    runtime: Handle,
    deadline: Instant,
}

impl Chunks {
    fn send(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK)));
        match self.runtime.block_on(tokio::time::timeout_at(self.deadline, self.sender.send(chunk))) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(io::Error::new(io::ErrorKind::BrokenPipe, "the download was given up")),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the download took longer than {} minutes", TIME_LIMIT.as_secs() / 60),
            )),
        }
    }
}

impl Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK {
            self.send()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

/// What the archive holds: the small files written already, and what the rest is read from.
struct Archive {
    about: Vec<u8>,
    /// Every thread of the team, to put in order before they are read.
    threads: Vec<(ThreadId, ThreadSource)>,
    machines: Vec<(MachineId, StoredMachine)>,
    /// The quotes' ids, a page at a time.
    quotes: Vec<Vec<QuoteId>>,
    settings: Vec<u8>,
    members: Vec<u8>,
    reads: Reads,
}

impl Archive {
    /// Writes the archive to `out`, then ends the read transaction.
    fn write(self, out: Chunks) -> anyhow::Result<()> {
        let Self { about, threads, machines, quotes, settings, members, reads } = self;
        let written = (|| {
            let mut zip = ZipWriter::new_stream(out);
            // Zip64 sizes: a file's size is known only once it is written.
            let options =
                SimpleFileOptions::default().compression_method(CompressionMethod::Deflated).large_file(true);
            zip.start_file("team.json", options)?;
            zip.write_all(&about)?;
            zip.start_file("threads.csv", options)?;
            reads.threads_csv(threads, &mut zip)?;
            zip.start_file("machines.json", options)?;
            write_json(&mut zip, &MachinesFile { machines, reads: &reads })?;
            zip.start_file("quotes.json", options)?;
            let quotes = Paged::new(|after: Option<&usize>| {
                let index = after.map_or(0, |page| page + 1);
                let Some(ids) = quotes.get(index) else { return Ok((Vec::new(), None)) };
                let page = reads.wait(repo::quotes::by_ids(&reads.txn, reads.team_id, ids))?;
                Ok((page, (index + 1 < quotes.len()).then_some(index)))
            });
            write_json(&mut zip, &quotes)?;
            zip.start_file("settings.json", options)?;
            zip.write_all(&settings)?;
            zip.start_file("members.json", options)?;
            zip.write_all(&members)?;
            zip.finish()?.into_inner().flush()?;
            anyhow::Ok(())
        })();
        let Reads { txn, runtime, .. } = reads;
        let ended = runtime.block_on(txn.rollback());
        written?;
        Ok(ended?)
    }
}

/// `value` as pretty JSON, as the rest of the API writes it, to a file of the archive (through a
/// buffer: the JSON writer writes a few bytes at a time).
fn write_json(out: &mut impl Write, value: &impl Serialize) -> anyhow::Result<()> {
    let mut out = BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, value)?;
    out.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(())
}

/// The archive's reads, made from the writer's thread, which waits for each: all in one read
/// transaction.
struct Reads {
    txn: DatabaseTransaction,
    team_id: TeamId,
    runtime: Handle,
}

impl Reads {
    fn wait<T>(&self, read: impl Future<Output = Result<T, RepoError>>) -> Result<T, RepoError> {
        self.runtime.block_on(read)
    }

    /// `threads.csv`: the inventory in the list's order by code, as the CSV export writes it
    /// (`routes::inventory::threads::csv_of`), a page of entries at a time.
    fn threads_csv(
        &self,
        mut threads: Vec<(ThreadId, ThreadSource)>,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        threads.sort_by_cached_key(|(_, source)| search::source_order(source));
        let ids: Vec<ThreadId> = threads.into_iter().map(|(id, _)| id).collect();
        out.write_all(csv::header().as_bytes())?;
        for page in ids.chunks(PAGE) {
            let entries = self.wait(repo::threads::by_ids(&self.txn, self.team_id, page))?;
            out.write_all(csv::rows(&entries, Catalogue::builtin()).as_bytes())?;
        }
        Ok(())
    }

    /// One page of a machine's log.
    fn log_page(
        &self,
        machine: MachineId,
        after: Option<&LogCursor>,
    ) -> Result<(Vec<repo::machines::LogRecord>, Option<LogCursor>), RepoError> {
        self.wait(repo::machines::log_page(&self.txn, machine, after, PAGE as u64))
    }
}

/// A JSON array read a page at a time while it is written: `next` answers the page after a
/// cursor (the first after `None`), and the cursor it ends at, `None` after the last page.
struct Paged<T, C, F> {
    next: F,
    rows: PhantomData<fn() -> (T, C)>,
}

impl<T, C, F> Paged<T, C, F>
where
    F: Fn(Option<&C>) -> Result<(Vec<T>, Option<C>), RepoError>,
{
    fn new(next: F) -> Self {
        Self { next, rows: PhantomData }
    }
}

impl<T, C, F> Serialize for Paged<T, C, F>
where
    T: Serialize,
    F: Fn(Option<&C>) -> Result<(Vec<T>, Option<C>), RepoError>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut array = serializer.serialize_seq(None)?;
        let mut after = None;
        loop {
            let (page, next) = (self.next)(after.as_ref()).map_err(S::Error::custom)?;
            for row in &page {
                array.serialize_element(row)?;
            }
            match next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        array.end()
    }
}

/// `machines.json`: each machine as `GET .../machines/{id}` answers it, its log read twice a
/// page at a time: first for what is due, which the machine's fields say before the log, then
/// for the entries.
struct MachinesFile<'a> {
    machines: Vec<(MachineId, StoredMachine)>,
    reads: &'a Reads,
}

/// A machine and its log, as [`machines::view`] with its log writes it (the log last).
#[derive(Serialize)]
#[serde(bound(
    serialize = "F: Fn(Option<&LogCursor>) -> Result<(Vec<LogEntry>, Option<LogCursor>), RepoError>"
))]
struct MachineWithLog<F> {
    #[serde(flatten)]
    machine: MachineView,
    maintenance: Paged<LogEntry, LogCursor, F>,
}

impl Serialize for MachinesFile<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut array = serializer.serialize_seq(None)?;
        for (id, stored) in &self.machines {
            let mut facts = LogFacts::default();
            let mut after = None;
            loop {
                let (page, next) = self.reads.log_page(*id, after.as_ref()).map_err(S::Error::custom)?;
                for entry in &page {
                    facts.add(entry);
                }
                match next {
                    Some(next) => after = Some(next),
                    None => break,
                }
            }
            let entries = Paged::new(|after: Option<&LogCursor>| {
                let (page, next) = self.reads.log_page(*id, after)?;
                Ok((page.iter().map(machines::entry_view).collect(), next))
            });
            array.serialize_element(&MachineWithLog {
                machine: machines::view_with(stored.clone(), &facts, false),
                maintenance: entries,
            })?;
        }
        array.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of numbers, and the position after it when more follow.
    type Page = Result<(Vec<u32>, Option<usize>), RepoError>;

    /// Pages of `rows`, `size` at a time, as a repo function answers them.
    fn pages(rows: &[u32], size: usize) -> impl Fn(Option<&usize>) -> Page {
        move |after| {
            let start = after.copied().unwrap_or(0);
            let page = rows[start..].iter().take(size).copied().collect::<Vec<_>>();
            let end = start + page.len();
            Ok((page, (end < rows.len()).then_some(end)))
        }
    }

    #[test]
    fn an_array_read_a_page_at_a_time_is_written_as_the_whole_array_would_be() {
        for rows in [vec![], vec![7], (0..10).collect()] {
            let paged = serde_json::to_string_pretty(&Paged::new(pages(&rows, 3))).unwrap();
            assert_eq!(paged, serde_json::to_string_pretty(&rows).unwrap());
        }
    }

    #[test]
    fn quotes_are_read_in_pages_of_bounded_size() {
        let ids: Vec<QuoteId> = (0..PAGE + 3).map(|_| QuoteId::new()).collect();
        let small: Vec<(QuoteId, u64)> = ids.iter().map(|id| (*id, 100)).collect();
        let pages = pages_of_quotes(small);
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [PAGE, 3]);
        assert_eq!(pages.concat(), ids, "every quote, in order");
        let large =
            vec![(ids[0], QUOTE_CHARACTERS / 2), (ids[1], QUOTE_CHARACTERS * 2), (ids[2], 1), (ids[3], 1)];
        let pages = pages_of_quotes(large);
        assert_eq!(pages, [vec![ids[0]], vec![ids[1]], vec![ids[2], ids[3]]]);
        assert!(pages_of_quotes(Vec::new()).is_empty());
    }

    #[test]
    fn a_page_that_cannot_be_read_fails_the_file() {
        let failing = Paged::new(|_: Option<&usize>| -> Page {
            Err(RepoError::Broken(anyhow::anyhow!("a row cannot be read")))
        });
        let error = serde_json::to_string(&failing).unwrap_err();
        assert!(error.to_string().contains("cannot be read"), "{error}");
    }
}
