//! The operator's commands, `bobbin users …` and `bobbin teams …`: helping a person when no
//! e-mail can reach them (a server without SMTP, a lost mailbox), and seeing who is in which
//! team. They work on the configured database, SQLite or PostgreSQL, while the server runs; every
//! change goes through the same repository functions the API uses.

use std::{fmt::Write as _, io::BufRead as _};

use anyhow::{Context as _, bail};
use bobbin_core::team::Role;
use rand::seq::IndexedRandom as _;
use serde_json::{Value, json};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::Database;
use crate::{
    auth::{
        password::{self, PasswordPolicy},
        user::{full_name, parse_email, rfc3339},
    },
    config::{DatabaseArgs, TeamsAction, TeamsArgs, UsersAction, UsersArgs},
    db,
    entity::{ids::UserId, team, user},
    repo::{
        self,
        auth::{factors, sessions, sessions::Ending, users},
    },
    schema::SchemaState,
};

/// `bobbin users …`.
///
/// # Errors
///
/// An unknown person, a database that does not match this binary, or the database's.
pub async fn users(args: UsersArgs) -> anyhow::Result<()> {
    let db = open(&args.database).await?;
    let now = OffsetDateTime::now_utc();
    match args.action {
        UsersAction::List { json } => {
            let people = users::all(&db).await?;
            if json {
                print_json(&Value::Array(people.iter().map(user_summary).collect()))?;
            } else {
                print_table(
                    &["EMAIL", "NAME", "CONFIRMED", "STATE", "LAST SIGN-IN", "CREATED"],
                    people.iter().map(|person| {
                        vec![
                            person.email.clone(),
                            full_name(person).unwrap_or_default(),
                            yes_no(person.email_confirmed_at.is_some()),
                            state(person).to_owned(),
                            person.last_sign_in_at.map(day).unwrap_or_default(),
                            day(person.created_at),
                        ]
                    }),
                );
            }
        }
        UsersAction::Show { user, json } => {
            let person = find_user(&db, &user).await?;
            let details = user_details(&db, &person).await?;
            if json {
                print_json(&details)?;
            } else {
                print!("{}", user_text(&details));
            }
        }
        UsersAction::Confirm { user } => {
            let person = find_user(&db, &user).await?;
            if person.email_confirmed_at.is_some() {
                println!("{} was already confirmed.", person.email);
            } else {
                let person = users::confirm(&db, person, now).await?;
                println!("Confirmed {}: they can sign in with their password now.", person.email);
            }
        }
        UsersAction::ResetPassword { user, password_stdin } => {
            let person = find_user(&db, &user).await?;
            let (chosen, shown) =
                if password_stdin { (read_password()?, false) } else { (random_password(), true) };
            let hash = password::hash(&chosen)?;
            let person = users::change_password(&db, person, hash, Ending::All, now).await?;
            if shown {
                println!("New password for {}: {chosen}", person.email);
            } else {
                println!("New password set for {}.", person.email);
            }
            println!("Their sessions have ended. Ask them to choose a password of their own under Profile.");
            if factors::has_verified(&db, person.id).await? {
                println!("They still need their authenticator app: a second factor is set up.");
            }
        }
        UsersAction::Disable { user } => {
            let person = find_user(&db, &user).await?;
            let person = users::set_disabled(&db, person, Some(now), now).await?;
            println!("Disabled {}: they cannot sign in, and their sessions have ended.", person.email);
        }
        UsersAction::Enable { user } => {
            let person = find_user(&db, &user).await?;
            let person = users::set_disabled(&db, person, None, now).await?;
            println!("Enabled {}: they can sign in again.", person.email);
        }
    }
    db.close().await?;
    Ok(())
}

/// `bobbin teams …`.
///
/// # Errors
///
/// An unknown team, a database that does not match this binary, or the database's.
pub async fn teams(args: TeamsArgs) -> anyhow::Result<()> {
    let db = open(&args.database).await?;
    match args.action {
        TeamsAction::List { json } => {
            let mut rows = Vec::new();
            for team in repo::teams::all(&db).await? {
                rows.push(team_details(&db, &team).await?);
            }
            if json {
                print_json(&Value::Array(rows))?;
            } else {
                print_table(
                    &["TEAM", "NAME", "OWNERS", "MEMBERS", "THREADS", "MACHINES", "QUOTES", "CREATED"],
                    rows.iter().map(|row| {
                        let owners: Vec<&str> = row["members"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter(|member| member["role"] == "owner")
                            .filter_map(|member| member["email"].as_str())
                            .collect();
                        vec![
                            text(&row["public_id"]),
                            text(&row["name"]),
                            owners.join(", "),
                            row["members"].as_array().map_or(0, Vec::len).to_string(),
                            row["holds"]["threads"].to_string(),
                            row["holds"]["machines"].to_string(),
                            row["holds"]["quotes"].to_string(),
                            text(&row["created_at"]).chars().take(10).collect(),
                        ]
                    }),
                );
            }
        }
        TeamsAction::Show { team, json } => {
            let found = repo::teams::by_public_or_id(&db, &team).await?.with_context(|| {
                format!("no team has the public id or id `{team}` (see `bobbin teams list`)")
            })?;
            let details = team_details(&db, &found).await?;
            if json {
                print_json(&details)?;
            } else {
                print!("{}", team_text(&details));
            }
        }
    }
    db.close().await?;
    Ok(())
}

/// Opens the database, which must be at this binary's schema: an older one lacks columns these
/// commands read, and a newer one may mean something else by them.
async fn open(database: &DatabaseArgs) -> anyhow::Result<Database> {
    let db = db::connect(database).await?;
    let schema = SchemaState::read(&db).await?;
    if schema.is_new() {
        bail!("the database is empty: start the server once (or run `bobbin migrate up`) to create it");
    }
    if !schema.agrees() {
        bail!("{} (`bobbin migrate status` lists them)", schema.summary());
    }
    Ok(db)
}

/// The account named by its e-mail address or its id.
async fn find_user(db: &Database, named: &str) -> anyhow::Result<user::Model> {
    let found = if let Ok(id) = Uuid::parse_str(named) {
        users::by_id(db, UserId(id)).await?
    } else {
        let email = parse_email(named)
            .map_err(|_| anyhow::anyhow!("`{named}` is neither an e-mail address nor an id"))?;
        users::by_email(db, &email).await?
    };
    found.with_context(|| format!("no account has the address or id `{named}` (see `bobbin users list`)"))
}

fn user_summary(person: &user::Model) -> Value {
    json!({
        "id": person.id,
        "email": person.email,
        "full_name": full_name(person),
        "confirmed_at": person.email_confirmed_at.map(rfc3339),
        "disabled_at": person.disabled_at.map(rfc3339),
        "last_sign_in_at": person.last_sign_in_at.map(rfc3339),
        "created_at": rfc3339(person.created_at),
    })
}

async fn user_details(db: &Database, person: &user::Model) -> anyhow::Result<Value> {
    let mut details = user_summary(person);
    let teams = repo::teams::of_user(db, person.id).await?;
    details["teams"] = teams
        .iter()
        .map(|joined| json!({ "public_id": joined.team.public_id, "name": joined.team.name, "role": joined.role.as_str() }))
        .collect();
    details["sessions"] = sessions::of_user(db, person.id)
        .await?
        .iter()
        .map(|session| {
            json!({
                "started_at": rfc3339(session.created_at),
                "refreshed_at": session.refreshed_at.map(rfc3339),
                "ip": session.ip,
                "user_agent": session.user_agent,
            })
        })
        .collect();
    details["second_factors"] = factors::of_user(db, person.id)
        .await?
        .iter()
        .map(|factor| json!({ "type": factor.factor_type, "name": factor.friendly_name, "status": factor.status }))
        .collect();
    Ok(details)
}

fn user_text(details: &Value) -> String {
    let mut out = String::new();
    let line = |out: &mut String, label: &str, value: &Value| {
        let _ = writeln!(out, "{label:<14} {}", if value.is_null() { "-".to_owned() } else { text(value) });
    };
    line(&mut out, "E-mail", &details["email"]);
    line(&mut out, "Name", &details["full_name"]);
    line(&mut out, "Id", &details["id"]);
    line(&mut out, "Confirmed", &details["confirmed_at"]);
    line(&mut out, "Disabled", &details["disabled_at"]);
    line(&mut out, "Last sign-in", &details["last_sign_in_at"]);
    line(&mut out, "Created", &details["created_at"]);
    let _ = writeln!(out, "Teams:");
    for joined in details["teams"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {} ({}), {}",
            text(&joined["name"]),
            text(&joined["public_id"]),
            text(&joined["role"])
        );
    }
    let sessions = details["sessions"].as_array().map_or(0, Vec::len);
    let _ = writeln!(out, "Sessions:      {sessions}");
    for factor in details["second_factors"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "Second factor: {} ({})", text(&factor["type"]), text(&factor["status"]));
    }
    out
}

async fn team_details(db: &Database, found: &team::Model) -> anyhow::Result<Value> {
    let mut members = repo::members::of_team(db, found.id).await?;
    members.sort_by(|a, b| rank(a.role).cmp(&rank(b.role)).then_with(|| a.user.email.cmp(&b.user.email)));
    let holds = repo::teams::holdings(db, found.id).await?;
    Ok(json!({
        "id": found.id,
        "public_id": found.public_id,
        "name": found.name,
        "created_at": rfc3339(found.created_at),
        "members": members.iter().map(|member| json!({
            "email": member.user.email,
            "full_name": full_name(&member.user),
            "role": member.role.as_str(),
            "joined_at": rfc3339(member.joined_at),
        })).collect::<Vec<_>>(),
        "holds": holds,
    }))
}

fn team_text(details: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", text(&details["name"]), text(&details["public_id"]));
    let _ = writeln!(out, "Id:       {}", text(&details["id"]));
    let _ = writeln!(out, "Created:  {}", text(&details["created_at"]));
    let holds = &details["holds"];
    let _ = writeln!(
        out,
        "Holds:    {} threads, {} machines, {} quotes",
        holds["threads"], holds["machines"], holds["quotes"]
    );
    let _ = writeln!(out, "Members:");
    for member in details["members"].as_array().into_iter().flatten() {
        let name = member["full_name"].as_str().map(|name| format!(" ({name})")).unwrap_or_default();
        let _ = writeln!(out, "  {:<7} {}{name}", text(&member["role"]), text(&member["email"]));
    }
    out
}

/// A password of 20 letters and digits (about 115 bits), without the look-alikes `0O1lI`, so it
/// can be read out over the phone.
fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..20).filter_map(|_| ALPHABET.choose(&mut rng).map(|&byte| char::from(byte))).collect()
}

/// The first line of standard input, held to the rules a person's own password meets.
fn read_password() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).context("reading the password from standard input")?;
    let chosen = line.trim_end_matches(['\r', '\n']).to_owned();
    password::check_max_length(&chosen).map_err(|_| anyhow::anyhow!("the password is too long"))?;
    PasswordPolicy::default().check(&chosen).map_err(|weak| anyhow::anyhow!(weak.message()))?;
    Ok(chosen)
}

/// Owners first, viewers last.
fn rank(role: Role) -> usize {
    Role::ALL.iter().position(|each| *each == role).unwrap_or(usize::MAX)
}

fn state(person: &user::Model) -> &'static str {
    if person.disabled_at.is_some() { "disabled" } else { "active" }
}

fn yes_no(value: bool) -> String {
    if value { "yes" } else { "no" }.to_owned()
}

fn day(at: OffsetDateTime) -> String {
    rfc3339(at).chars().take(10).collect()
}

/// A JSON value as plain text: strings without their quotes.
fn text(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_owned)
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Columns padded to their widest cell (by characters, so names with accents line up).
fn print_table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    let rows: Vec<Vec<String>> = rows.collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .chain([header[column].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let render = |cells: Vec<String>| {
        let padded: Vec<String> =
            cells.iter().zip(&widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
        println!("{}", padded.join("  ").trim_end());
    };
    render(header.iter().map(|cell| (*cell).to_owned()).collect());
    for row in rows {
        render(row);
    }
}
