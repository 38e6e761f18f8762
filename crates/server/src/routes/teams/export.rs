//! A team's data as one archive: `GET /api/v2/teams/{team_id}/export` (docs/behaviour.md,
//! "A team's data").

use std::{collections::BTreeMap, io::Write as _};

use axum::{
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use time::{OffsetDateTime, macros::format_description};
use zip::{CompressionMethod, ZipWriter, write::SimpleFileOptions};

use super::{Member, member_view, rank};
use crate::{
    entity::ids::TeamId,
    error::AppError,
    extract::TeamAdmin,
    repo::{
        self,
        quotes::QuoteView,
        settings::{self, Scope},
    },
    routes::inventory::{
        machines::{self, MachineView},
        threads::{self, ListParams},
    },
    state::AppState,
};

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
#[utoipa::path(
    get, path = "/teams/{team_id}/export", operation_id = "export_team", tag = "teams",
    responses(
        (status = 200, description = "The archive", content_type = "application/zip", body = Vec<u8>),
        (status = 403, description = "Only admins and owners take the team's data", body = crate::error::ErrorBody),
    ),
)]
pub async fn export(State(state): State<AppState>, member: TeamAdmin) -> Result<Response, AppError> {
    let team = &member.team;
    let threads_csv =
        threads::csv_of(&state, team.id, member.default_reorder_point, &ListParams::default()).await?;
    let machines: Vec<MachineView> = repo::machines::list(&state.db, team.id)
        .await?
        .into_iter()
        .map(|machine| machines::view(machine, true))
        .collect();
    let quotes: Vec<QuoteView> = repo::quotes::all(&state.db, team.id).await?;
    let team_settings = settings::all(&state.db, Scope::Team(team.id)).await?;
    let mut members: Vec<Member> =
        repo::members::of_team(&state.db, team.id).await?.into_iter().map(member_view).collect();
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
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("team.json", json(&about)?),
        ("threads.csv", threads_csv.into_bytes()),
        ("machines.json", json(&machines)?),
        ("quotes.json", json(&quotes)?),
        ("settings.json", json(&team_settings)?),
        ("members.json", json(&members)?),
    ];
    // Compressing is CPU work (a team's logs can run to megabytes): off the async workers.
    let archive = state.heavy_work.run(move || zip_of(files)).await??;
    let date = now.format(format_description!("[year]-[month]-[day]")).map_err(anyhow::Error::from)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bobbin-team-{}-{date}.zip\"", team.public_id),
            ),
        ],
        archive,
    )
        .into_response())
}

fn json(value: &impl Serialize) -> Result<Vec<u8>, AppError> {
    Ok(serde_json::to_vec_pretty(value).map_err(anyhow::Error::from)?)
}

/// The files in one zip archive, deflated.
fn zip_of(files: Vec<(&str, Vec<u8>)>) -> Result<Vec<u8>, AppError> {
    let mut archive = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, bytes) in files {
        archive.start_file(name, options).map_err(anyhow::Error::from)?;
        archive.write_all(&bytes).map_err(anyhow::Error::from)?;
    }
    Ok(archive.finish().map_err(anyhow::Error::from)?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use super::*;

    #[test]
    fn the_archive_holds_each_file_as_given() {
        let bytes = zip_of(vec![("a.json", b"{}".to_vec()), ("b.csv", b"x,y\n1,2\n".to_vec())]).unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 2);
        let mut text = String::new();
        archive.by_name("b.csv").unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "x,y\n1,2\n");
    }
}
