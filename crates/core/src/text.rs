//! Names people give things (a team, themselves) that other people then read: in the app, in a
//! team switcher, in an invite e-mail. Such a name must not be able to lie about what it says.
//!
//! Bidirectional formatting characters are the way it could: `U+202E` (right-to-left override)
//! turns "Stitch Co\u{202E}moc.evil" into what reads as "Stitch Colive.com" in a mail program, and
//! the isolates and marks do the same more quietly. They are dropped, as are control characters
//! (which no one types into a name on purpose). Text in a right-to-left script needs none of
//! them: the Unicode bidi algorithm orders Hebrew or Arabic letters by their own direction.

/// Whether `c` is one of Unicode's explicit bidirectional formatting characters: the embeddings
/// and overrides (`U+202A` to `U+202E`), the isolates (`U+2066` to `U+2069`), and the marks
/// (`U+200E`, `U+200F`, `U+061C`).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `raw` without bidirectional formatting characters, then trimmed.
pub fn without_bidi_controls(raw: &str) -> String {
    raw.chars().filter(|c| !is_bidi_control(*c)).collect::<String>().trim().to_owned()
}

/// The longest name shown, in characters: a name is not a place for a message.
pub const NAME_MAX_CHARS: usize = 100;

/// A person's name as others see it: without control or bidirectional formatting characters,
/// with runs of white space made one space, trimmed, and at most [`NAME_MAX_CHARS`] long;
/// `None` if nothing is left.
pub fn display_name(raw: &str) -> Option<String> {
    let cleaned: String =
        raw.chars().filter(|c| !is_bidi_control(*c)).map(|c| if c.is_control() { ' ' } else { c }).collect();
    let name = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    let name: String = name.chars().take(NAME_MAX_CHARS).collect();
    let name = name.trim_end();
    (!name.is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_cannot_reverse_what_a_name_says() {
        assert_eq!(display_name("Stitch Co\u{202E}moc.evil"), Some("Stitch Comoc.evil".to_owned()));
        assert_eq!(without_bidi_controls(" \u{2067}Ada\u{2069} "), "Ada");
    }

    #[test]
    fn control_characters_and_runs_of_space_become_one_space() {
        assert_eq!(display_name("Ada\n\tLovelace\u{0007}"), Some("Ada Lovelace".to_owned()));
        assert_eq!(display_name("\u{200F}\u{0000} "), None);
    }

    #[test]
    fn a_name_is_at_most_a_hundred_characters() {
        assert_eq!(display_name(&"é".repeat(8000)).unwrap().chars().count(), NAME_MAX_CHARS);
    }

    #[test]
    fn right_to_left_scripts_are_kept() {
        assert_eq!(display_name("רקמה של שרה"), Some("רקמה של שרה".to_owned()));
        assert_eq!(display_name("تطريز"), Some("تطريز".to_owned()));
    }
}
