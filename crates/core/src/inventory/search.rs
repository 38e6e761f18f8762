//! Finding threads in an inventory: text (code, name, line, location, `#RRGGBB`, a colour word
//! such as "red": [`crate::colour_words`]), filters (line,
//! fibre, location, below the reorder point), "closest to this colour" (CIEDE2000, nearest
//! first, with the distance), sorting and pages. It works on the whole inventory in memory: a
//! large shop has a few thousand entries, which this sorts well within the time a page may take
//! (the `inventory` benchmark; docs/benchmarks.md, "Inventory list"), and colour distance cannot
//! be asked of a database anyway.

use crate::catalogue::{Catalogue, Fibre, code_key};
use crate::colour::{Rgb8, delta_e_2000};
use crate::colour_words::Family;

use super::amount::Hundredths;
use super::thread::{ThreadEntry, ThreadSource};

/// The most entries one page may hold.
pub const MAX_PER_PAGE: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    /// Line, then code (custom threads last, by name).
    #[default]
    Code,
    Name,
    Quantity,
    Location,
    /// Most recently changed first when descending.
    Updated,
}

/// What to look for. Empty fields do not filter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    pub text: String,
    /// Nearest first, whatever `sort` says; each hit gets its distance.
    pub closest_to: Option<Rgb8>,
    pub line: Option<String>,
    pub fibre: Option<Fibre>,
    /// Entries whose location holds this text, whatever its case ("drawer" finds "Drawer A").
    pub location: Option<String>,
    /// Only low entries ([`ThreadEntry::is_low`]), with `default_reorder_point` as the team's.
    pub low_only: bool,
    /// The team's default reorder point, for entries without their own.
    pub default_reorder_point: Option<Hundredths>,
    pub sort: SortKey,
    pub descending: bool,
    /// From 1.
    pub page: usize,
    pub per_page: usize,
}

/// An entry as the search sees it: the entry, when it last changed (Unix seconds).
#[derive(Debug, Clone, Copy)]
pub struct Stock<'a> {
    pub entry: &'a ThreadEntry,
    pub updated_at: i64,
}

/// One page of results: positions in the slice searched, with the colour distance when the
/// query asked for the closest.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub total: usize,
    pub hits: Vec<(usize, Option<f64>)>,
}

/// What the catalogue says of an entry, looked up once per search.
struct Facts {
    line_name: String,
    name: String,
    fibre: Option<Fibre>,
    colour: Option<Rgb8>,
}

fn facts(catalogue: &Catalogue, entry: &ThreadEntry) -> Facts {
    match &entry.source {
        ThreadSource::Catalogue { line, code } => {
            let index = catalogue.line_by_id(line).ok();
            let thread =
                index.and_then(|i| catalogue.find(i, code).ok()).map(|found| catalogue.thread(found[0]));
            Facts {
                line_name: index.map(|i| catalogue.line(i).display_name()).unwrap_or_default(),
                name: thread.map(|t| t.name.to_owned()).unwrap_or_default(),
                fibre: index.and_then(|i| catalogue.line(i).fibre),
                colour: thread.map(|t| t.rgb),
            }
        }
        ThreadSource::Custom { name, colour } => {
            Facts { line_name: String::new(), name: name.clone(), fibre: None, colour: Some(*colour) }
        }
    }
}

/// Where an entry goes in the list's default order (by code): catalogue threads by line and
/// code (numbers as numbers: 2 before 10), custom ones after, by name. [`search`] takes its stock
/// sorted by this key: `stock.sort_by_cached_key(|item| code_order(item.entry))`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CodeOrder(u8, String, u64, String);

pub fn code_order(entry: &ThreadEntry) -> CodeOrder {
    source_order(&entry.source)
}

/// [`code_order`] from the thread alone: for putting entries in order before they are read
/// (a team's archive reads the sources of its thousands of entries, then the entries a page at
/// a time in this order).
pub fn source_order(source: &ThreadSource) -> CodeOrder {
    match source {
        ThreadSource::Catalogue { line, code } => {
            let key = code_key(code).unwrap_or_default();
            CodeOrder(0, line.clone(), key.parse().unwrap_or(u64::MAX), key)
        }
        ThreadSource::Custom { name, .. } => CodeOrder(1, String::new(), 0, name.to_lowercase()),
    }
}

/// Searches `stock`, which must be in code order ([`code_order`]), and answers the requested
/// page. The order is the caller's to keep, made once for many searches: the default sort then
/// sorts nothing, and the other sorts break ties by position instead of by making each entry's
/// key again (the server's list sorted 1,000 entries' keys with every request before).
pub fn search(catalogue: &Catalogue, stock: &[Stock<'_>], query: &Query) -> Page {
    let text = query.text.trim().to_lowercase();
    let text_colour = Rgb8::parse_hex(&text).ok().filter(|_| text.starts_with('#'));
    let text_code = code_key(&text);
    let location = query.location.as_deref().map(str::to_lowercase);
    let target = query.closest_to.map(Rgb8::to_lab);

    // The catalogue is asked only when the query needs what it knows: most list views (by code,
    // low stock, a location) never do.
    let needs_facts =
        !text.is_empty() || query.fibre.is_some() || target.is_some() || query.sort == SortKey::Name;
    // Sized for every entry at once: most views find most of them, and a vector grown by doubling
    // copied a thousand entries' hits several times over.
    let mut found: Vec<(usize, Option<Facts>, Option<f64>)> = Vec::with_capacity(stock.len());
    found.extend(stock.iter().enumerate().filter_map(|(index, item)| {
        let entry = item.entry;
        if query.low_only && !entry.is_low(query.default_reorder_point) {
            return None;
        }
        let line = match &entry.source {
            ThreadSource::Catalogue { line, .. } => Some(line.as_str()),
            ThreadSource::Custom { .. } => None,
        };
        if query.line.as_deref().is_some_and(|wanted| Some(wanted) != line) {
            return None;
        }
        if location.as_deref().is_some_and(|wanted| !entry.location.to_lowercase().contains(wanted)) {
            return None;
        }
        if !needs_facts {
            return Some((index, None, None));
        }
        let facts = facts(catalogue, entry);
        if query.fibre.is_some() && facts.fibre != query.fibre {
            return None;
        }
        if !text.is_empty() && !matches_text(entry, &facts, &text, text_code.as_deref(), text_colour) {
            return None;
        }
        let distance = target.zip(facts.colour).map(|(target, colour)| delta_e_2000(target, colour.to_lab()));
        Some((index, Some(facts), distance))
    }));

    if target.is_some() {
        found.sort_by(|a, b| a.2.unwrap_or(f64::MAX).total_cmp(&b.2.unwrap_or(f64::MAX)));
    } else {
        // `found` is in code order already, as `stock` is. Each key is made once per entry, not
        // once per comparison; the sort is stable, so ties keep that order.
        if query.sort != SortKey::Code {
            found
                .sort_by_cached_key(|(index, facts, _)| sort_key(query.sort, &stock[*index], facts.as_ref()));
        }
        if query.descending {
            found.reverse();
        }
    }
    let per_page = query.per_page.clamp(1, MAX_PER_PAGE);
    let start = query.page.max(1).saturating_sub(1).saturating_mul(per_page);
    Page {
        total: found.len(),
        hits: found
            .into_iter()
            .skip(start)
            .take(per_page)
            .map(|(index, _, distance)| (index, distance))
            .collect(),
    }
}

/// For each colour of `colours`, the entry of `stock` nearest it (CIEDE2000), with the distance:
/// what [`search`] with `closest_to` and no other filter puts first, the same entry on the same
/// ties (the first in code order; an entry whose colour the catalogue no longer knows only when
/// none has one), for many colours at once. `None` for an empty stock. Each entry's colour is
/// looked up once, then each colour compared with every entry: no sort, so a design's threads
/// cost what one search each would, and less.
pub fn nearest(
    catalogue: &Catalogue,
    stock: &[Stock<'_>],
    colours: &[Rgb8],
) -> Vec<Option<(usize, Option<f64>)>> {
    let labs: Vec<_> =
        stock.iter().map(|item| facts(catalogue, item.entry).colour.map(Rgb8::to_lab)).collect();
    colours
        .iter()
        .map(|colour| {
            let target = colour.to_lab();
            let mut best: Option<(usize, Option<f64>)> = None;
            for (index, lab) in labs.iter().enumerate() {
                let distance = lab.map(|lab| delta_e_2000(target, lab));
                let nearer = best.is_none_or(|(_, best)| {
                    distance.unwrap_or(f64::MAX).total_cmp(&best.unwrap_or(f64::MAX)).is_lt()
                });
                if nearer {
                    best = Some((index, distance));
                }
            }
            best
        })
        .collect()
}

fn matches_text(
    entry: &ThreadEntry,
    facts: &Facts,
    text: &str,
    code: Option<&str>,
    colour: Option<Rgb8>,
) -> bool {
    if let Some(colour) = colour {
        return facts.colour == Some(colour);
    }
    let code_matches = match &entry.source {
        ThreadSource::Catalogue { code: own, .. } => code.is_some_and(|wanted| {
            code_key(own).is_some_and(|key| key.to_lowercase().starts_with(wanted.to_lowercase().as_str()))
        }),
        ThreadSource::Custom { .. } => false,
    };
    code_matches
        || facts.name.to_lowercase().contains(text)
        || facts.line_name.to_lowercase().contains(text)
        || entry.location.to_lowercase().contains(text)
        // A colour word finds the threads of that colour, whatever their names ("red" finds
        // "Poinsettia").
        || Family::from_word(text).is_some_and(|family| facts.colour.is_some_and(|c| Family::of(c) == family))
}

/// What an entry sorts by, before its place in code order.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Primary {
    Number(i64),
    Text(String),
}

fn sort_key(key: SortKey, item: &Stock<'_>, facts: Option<&Facts>) -> Primary {
    match key {
        // Not sorted by: the stock is in code order already.
        SortKey::Code => Primary::Number(0),
        SortKey::Name => Primary::Text(facts.map(|f| f.name.to_lowercase()).unwrap_or_default()),
        SortKey::Quantity => Primary::Number(item.entry.quantity.hundredths()),
        SortKey::Location => Primary::Text(item.entry.location.to_lowercase()),
        SortKey::Updated => Primary::Number(item.updated_at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::ThreadDraft;

    fn entry(line: &str, code: &str, quantity: &str, location: &str, reorder: &str) -> ThreadEntry {
        ThreadDraft {
            line: line.into(),
            code: code.into(),
            quantity: quantity.into(),
            location: location.into(),
            reorder_point: reorder.into(),
            ..ThreadDraft::default()
        }
        .parse(Catalogue::builtin())
        .unwrap()
    }

    fn inventory() -> Vec<ThreadEntry> {
        vec![
            entry("madeira-polyneon", "1800", "3", "Shelf A", "1"),
            entry("madeira-polyneon", "1801", "0.5", "Shelf B", "1"),
            entry("madeira-polyneon", "1610", "10", "Shelf A", ""),
            ThreadDraft {
                name: "Fair gold".into(),
                colour: "#C9A227".into(),
                quantity: "1".into(),
                ..ThreadDraft::default()
            }
            .parse(Catalogue::builtin())
            .unwrap(),
        ]
    }

    /// `entries` as the search takes them, in code order: each with its index in `entries`, and
    /// that index as the second it changed.
    fn stock(entries: &[ThreadEntry]) -> (Vec<Stock<'_>>, Vec<usize>) {
        let mut indexed: Vec<(usize, &ThreadEntry)> = entries.iter().enumerate().collect();
        indexed.sort_by_cached_key(|(_, entry)| code_order(entry));
        indexed
            .into_iter()
            .map(|(i, entry)| (Stock { entry, updated_at: i64::try_from(i).unwrap() }, i))
            .unzip()
    }

    /// The indices in `entries` of the first page's hits.
    fn run(entries: &[ThreadEntry], query: Query) -> Vec<usize> {
        let (stock, indices) = stock(entries);
        search(Catalogue::builtin(), &stock, &Query { per_page: 50, ..query })
            .hits
            .into_iter()
            .map(|(i, _)| indices[i])
            .collect()
    }

    #[test]
    fn text_finds_codes_names_lines_locations_and_exact_colours() {
        let entries = inventory();
        assert_eq!(run(&entries, Query { text: "180".into(), ..Query::default() }), [0, 1], "code prefix");
        assert_eq!(run(&entries, Query { text: "black".into(), ..Query::default() }), [0], "name");
        assert_eq!(run(&entries, Query { text: "gold".into(), ..Query::default() }), [3], "custom name");
        assert_eq!(run(&entries, Query { text: "shelf b".into(), ..Query::default() }), [1], "location");
        assert_eq!(run(&entries, Query { text: "#c9a227".into(), ..Query::default() }), [3], "exact colour");
        assert_eq!(
            run(&entries, Query { text: "polyneon".into(), ..Query::default() }).len(),
            3,
            "line name"
        );
    }

    // Issue 52: "Searching the inventory for a colour word ('red') also finds threads of that
    // colour, not only names that contain the word."
    #[test]
    fn a_colour_word_finds_the_threads_of_that_colour_whatever_their_names() {
        let mut entries = inventory();
        entries.push(
            ThreadDraft {
                name: "Poinsettia".into(),
                colour: "#C8102E".into(),
                quantity: "2".into(),
                ..ThreadDraft::default()
            }
            .parse(Catalogue::builtin())
            .unwrap(),
        );
        assert_eq!(run(&entries, Query { text: "red".into(), ..Query::default() }), [4]);
        assert_eq!(
            run(&entries, Query { text: "Yellow".into(), ..Query::default() }),
            [3],
            "gold is a yellow"
        );
        // Madeira Polyneon 1800 is Black by name and by colour: found once.
        assert_eq!(run(&entries, Query { text: "black".into(), ..Query::default() }), [0]);
    }

    #[test]
    fn filters_narrow_and_sorting_orders() {
        let entries = inventory();
        assert_eq!(run(&entries, Query { low_only: true, ..Query::default() }), [1]);
        let team_default = Some(Hundredths::parse("10").unwrap());
        assert_eq!(
            run(&entries, Query { low_only: true, default_reorder_point: team_default, ..Query::default() }),
            [2, 1, 3],
            "the team's default where an entry has no point of its own; 1800's own point is 1"
        );
        assert_eq!(run(&entries, Query { location: Some("shelf a".into()), ..Query::default() }), [2, 0]);
        // Part of a location is enough: the field is typed, not picked from a list.
        assert_eq!(run(&entries, Query { location: Some("SHELF".into()), ..Query::default() }).len(), 3);
        assert_eq!(
            run(&entries, Query { line: Some("madeira-polyneon".into()), ..Query::default() }),
            [2, 0, 1]
        );
        assert_eq!(
            run(&entries, Query { fibre: Some(Fibre::Cotton), ..Query::default() }),
            Vec::<usize>::new()
        );
        assert_eq!(run(&entries, Query::default()), [2, 0, 1, 3], "by line and numeric code, custom last");
        assert_eq!(
            run(&entries, Query { sort: SortKey::Quantity, descending: true, ..Query::default() }),
            [2, 0, 3, 1]
        );
        assert_eq!(
            run(&entries, Query { sort: SortKey::Updated, descending: true, ..Query::default() }),
            [3, 2, 1, 0]
        );
    }

    #[test]
    fn ties_keep_the_code_order() {
        let entries = inventory();
        let (mut stock, indices) = stock(&entries);
        for item in &mut stock {
            item.updated_at = 0;
        }
        let by = |sort, descending| {
            let page = search(
                Catalogue::builtin(),
                &stock,
                &Query { sort, descending, per_page: 9, ..Query::default() },
            );
            page.hits.iter().map(|&(i, _)| indices[i]).collect::<Vec<_>>()
        };
        assert_eq!(by(SortKey::Updated, false), [2, 0, 1, 3], "all changed at once: by line and code");
        assert_eq!(by(SortKey::Updated, true), [3, 1, 0, 2]);
        assert_eq!(by(SortKey::Code, true), [3, 1, 0, 2]);
    }

    #[test]
    fn closest_colour_comes_first_with_its_distance() {
        let entries = inventory();
        let (stock, indices) = stock(&entries);
        let near_black = Rgb8::parse_hex("#303030").unwrap();
        let page = search(
            Catalogue::builtin(),
            &stock,
            &Query { closest_to: Some(near_black), per_page: 2, page: 1, ..Query::default() },
        );
        assert_eq!(page.total, 4);
        assert_eq!(page.hits.len(), 2);
        assert_eq!(indices[page.hits[0].0], 0, "Polyneon 1800 Black is nearest");
        let (first, second) = (page.hits[0].1.unwrap(), page.hits[1].1.unwrap());
        assert!(first < 2.0 && first <= second, "{first} {second}");
    }

    #[test]
    fn nearest_answers_what_a_closest_search_puts_first_for_each_colour() {
        let entries = inventory();
        let (stock, _) = stock(&entries);
        let colours: Vec<Rgb8> = ["#303030", "#C9A227", "#FFFFFF", "#C9A227", "#123456"]
            .iter()
            .map(|hex| Rgb8::parse_hex(hex).unwrap())
            .collect();
        let nearest = nearest(Catalogue::builtin(), &stock, &colours);
        assert_eq!(nearest.len(), colours.len());
        for (colour, found) in colours.iter().zip(&nearest) {
            let page = search(
                Catalogue::builtin(),
                &stock,
                &Query { closest_to: Some(*colour), per_page: 1, page: 1, ..Query::default() },
            );
            assert_eq!(found.as_ref(), page.hits.first(), "{colour}");
        }
        assert_eq!(nearest[1].unwrap().1, Some(0.0), "the custom gold itself");
        assert_eq!(super::nearest(Catalogue::builtin(), &[], &colours), vec![None; colours.len()]);
    }

    #[test]
    fn pages_split_the_results() {
        let entries = inventory();
        let (stock, _) = stock(&entries);
        let second =
            search(Catalogue::builtin(), &stock, &Query { page: 2, per_page: 3, ..Query::default() });
        assert_eq!((second.total, second.hits.len()), (4, 1));
        let past = search(Catalogue::builtin(), &stock, &Query { page: 9, per_page: 3, ..Query::default() });
        assert!(past.hits.is_empty());
    }
}
