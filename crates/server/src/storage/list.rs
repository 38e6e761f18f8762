//! Listing a bucket as Supabase Storage does (`POST /object/list/{bucket}`): the prefix is a
//! folder, whose files are listed by their names below it and whose sub-folders each once, as an
//! entry without an id; `search` keeps the names that begin with it, whatever their case.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::repo::storage::Listed;

/// The most entries one list answers (Storage's own cap).
pub const MAX_LIMIT: u64 = 1_500;
/// Entries a list answers when it does not say.
pub const DEFAULT_LIMIT: u64 = 100;

/// What a list is ordered by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    #[default]
    Name,
    UpdatedAt,
    CreatedAt,
    LastAccessedAt,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

/// One entry of a list: a file, by its name below the prefix, or a folder below the prefix.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    File { name: String, object: &'a Listed },
    Folder { name: String },
}

/// The entries of `objects` below `prefix` whose names (below the prefix) begin with `search`,
/// ordered by `column` and `order`, from `offset`, at most `limit`.
pub fn list<'a>(
    objects: &'a [Listed],
    prefix: &str,
    search: &str,
    (column, order): (Column, Order),
    offset: u64,
    limit: u64,
) -> Vec<Entry<'a>> {
    let folder =
        if prefix.is_empty() || prefix.ends_with('/') { prefix.to_owned() } else { format!("{prefix}/") };
    let folder_lower = folder.to_lowercase();
    let wanted = format!("{folder_lower}{}", search.to_lowercase());
    let mut folders: BTreeMap<String, String> = BTreeMap::new();
    let mut files: Vec<(String, &Listed)> = Vec::new();
    for object in objects {
        let Some(rest) = after_prefix_ignoring_case(&object.name, &wanted) else { continue };
        // The name below the prefix (which `wanted` begins with).
        let below = after_prefix_ignoring_case(&object.name, &folder_lower).unwrap_or(&object.name);
        match rest.find('/') {
            Some(slash) => {
                // The folder's name below the prefix: up to the first `/` after the search.
                let name = below[..below.len() - rest.len() + slash].to_owned();
                folders.entry(format!("{}/", name.to_lowercase())).or_insert(name);
            }
            None => files.push((below.to_owned(), object)),
        }
    }
    let mut entries: Vec<(String, Entry<'a>)> = Vec::with_capacity(folders.len() + files.len());
    entries.extend(folders.into_iter().map(|(key, name)| (key, Entry::Folder { name })));
    entries
        .extend(files.into_iter().map(|(name, object)| (name.to_lowercase(), Entry::File { name, object })));
    match column {
        Column::Name => entries.sort_by(|(a, _), (b, _)| a.as_bytes().cmp(b.as_bytes())),
        Column::UpdatedAt | Column::CreatedAt | Column::LastAccessedAt => {
            entries.sort_by(|(a_key, a), (b_key, b)| {
                let time = |entry: &Entry<'_>| match entry {
                    Entry::Folder { .. } => None,
                    Entry::File { object, .. } => {
                        Some(if column == Column::CreatedAt { object.created_at } else { object.updated_at })
                    }
                };
                // Folders first, by name; then the files by the column, then by name.
                (time(a).is_some(), time(a), a_key.as_bytes()).cmp(&(
                    time(b).is_some(),
                    time(b),
                    b_key.as_bytes(),
                ))
            });
        }
    }
    if order == Order::Desc {
        if column == Column::Name {
            entries.reverse();
        } else {
            // Folders stay first.
            let first_file = entries
                .iter()
                .position(|(_, entry)| matches!(entry, Entry::File { .. }))
                .unwrap_or(entries.len());
            let (folders, files) = entries.split_at_mut(first_file);
            folders.reverse();
            files.reverse();
        }
    }
    let offset = usize::try_from(offset).unwrap_or(usize::MAX);
    let limit = usize::try_from(limit.min(MAX_LIMIT)).unwrap_or(usize::MAX);
    entries.into_iter().skip(offset).take(limit).map(|(_, entry)| entry).collect()
}

/// What follows `wanted` (lower-case) at the start of `name`, compared without regard to case;
/// `None` when `name` does not begin so.
fn after_prefix_ignoring_case<'n>(name: &'n str, wanted: &str) -> Option<&'n str> {
    let mut rest = wanted;
    for (index, character) in name.char_indices() {
        if rest.is_empty() {
            return Some(&name[index..]);
        }
        let lower: String = character.to_lowercase().collect();
        rest = rest.strip_prefix(lower.as_str())?;
    }
    rest.is_empty().then_some("")
}

#[cfg(test)]
mod tests {
    use time::{Duration, OffsetDateTime};

    use super::*;
    use crate::entity::ids::ObjectId;

    fn objects(names: &[&str]) -> Vec<Listed> {
        let start = OffsetDateTime::UNIX_EPOCH;
        names
            .iter()
            .enumerate()
            .map(|(index, name)| Listed {
                id: ObjectId::new(),
                name: (*name).to_owned(),
                sha256: String::new(),
                size: 1,
                mimetype: String::new(),
                cache_control: String::new(),
                created_at: start,
                updated_at: start + Duration::seconds(i64::try_from(index).unwrap()),
            })
            .collect()
    }

    fn names(entries: &[Entry<'_>]) -> Vec<String> {
        entries
            .iter()
            .map(|entry| match entry {
                Entry::File { name, .. } => name.clone(),
                Entry::Folder { name } => format!("{name}/"),
            })
            .collect()
    }

    const BY_NAME: (Column, Order) = (Column::Name, Order::Asc);

    #[test]
    fn a_prefix_is_a_folder_whose_sub_folders_are_listed_once() {
        let all = objects(&["a/b.dst", "a/c/d.pes", "a/c/e.pes", "ab.jef", "top.exp"]);
        assert_eq!(names(&list(&all, "a", "", BY_NAME, 0, 100)), ["b.dst", "c/"]);
        assert_eq!(names(&list(&all, "a/", "", BY_NAME, 0, 100)), ["b.dst", "c/"]);
        assert_eq!(names(&list(&all, "", "", BY_NAME, 0, 100)), ["a/", "ab.jef", "top.exp"]);
        assert_eq!(names(&list(&all, "a/c", "", BY_NAME, 0, 100)), ["d.pes", "e.pes"]);
    }

    #[test]
    fn search_keeps_names_that_begin_with_it_whatever_their_case() {
        let all = objects(&["Rose.DST", "rosebud.pes", "primrose.jef", "roses/red.dst"]);
        assert_eq!(names(&list(&all, "", "ROSE", BY_NAME, 0, 100)), ["Rose.DST", "rosebud.pes", "roses/"]);
        assert_eq!(names(&list(&all, "", "roses/r", BY_NAME, 0, 100)), ["roses/red.dst"]);
    }

    #[test]
    fn names_sort_without_regard_to_case_files_and_folders_together() {
        let all = objects(&["b.dst", "A.pes", "a/x.dst", "a0.jef", "a-b.exp"]);
        assert_eq!(
            names(&list(&all, "", "", BY_NAME, 0, 100)),
            ["a-b.exp", "A.pes", "a/", "a0.jef", "b.dst"]
        );
        assert_eq!(
            names(&list(&all, "", "", (Column::Name, Order::Desc), 0, 100)),
            ["b.dst", "a0.jef", "a/", "A.pes", "a-b.exp"]
        );
    }

    #[test]
    fn by_time_folders_come_first_and_offset_and_limit_page() {
        let all = objects(&["old.dst", "f/x.dst", "new.dst"]);
        let newest_first = (Column::UpdatedAt, Order::Desc);
        assert_eq!(names(&list(&all, "", "", newest_first, 0, 100)), ["f/", "new.dst", "old.dst"]);
        assert_eq!(
            names(&list(&all, "", "", (Column::UpdatedAt, Order::Asc), 0, 100)),
            ["f/", "old.dst", "new.dst"]
        );
        assert_eq!(names(&list(&all, "", "", BY_NAME, 1, 1)), ["new.dst"]);
        assert_eq!(list(&all, "", "", BY_NAME, 0, 100_000).len(), 3);
    }
}
