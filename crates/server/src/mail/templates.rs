//! The auth service's e-mails: confirm a sign-up, sign in by link, reset a password, confirm a
//! new address. Each comes as a subject, a plain-text body and an HTML body, rendered from
//! `templates/mail/auth.txt` and `templates/mail/auth.html`.
//!
//! The bodies are askama templates rather than `format!` strings: askama checks them when the
//! server compiles (a misspelt field or an unclosed tag is a build error, not a broken e-mail)
//! and escapes every value in the HTML body by default, where `format!` would leave escaping to
//! each interpolation and to the memory of whoever edits the wording next. It renders without
//! reading files at run time, so the binary stays self-contained. Tera and minijinja were
//! rejected for that: they check templates only when they run.

use std::time::Duration;

use askama::Template;
use bobbin_core::contact::ContactMessage;
use url::Url;

/// Which e-mail to send. The names follow Supabase Auth's templates (`confirmation`,
/// `magic_link`, `recovery`, `email_change`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// Confirm the address of a new account.
    ConfirmSignup,
    /// Sign in without a password.
    MagicLink,
    /// Choose a new password.
    Recovery,
    /// Confirm a change of address (sent to the new address, and to the current one where
    /// both must confirm).
    EmailChange,
    /// Join a team ([`MailContext::invite`] says which, and as what).
    TeamInvite,
    /// To the owner of an address someone else asked to change their account's address to:
    /// nothing changed. (The asker is answered as for a free address, so the answer does not
    /// tell them the address has an account; its owner hears of it instead.)
    AddressTaken,
    /// To the address of an account its person deleted: it is done, and what went with it
    /// (docs/behaviour.md, "Deleting an account").
    AccountDeleted,
}

impl MailKind {
    /// Whether the e-mail carries a link that does something once (a notice only points at
    /// Bobbin).
    fn has_one_time_link(self) -> bool {
        !matches!(self, Self::AddressTaken | Self::AccountDeleted)
    }
}

/// What a team invite says: which team, who invites, and the role offered.
#[derive(Debug, Clone, Copy)]
pub struct InviteDetails<'a> {
    pub team_name: &'a str,
    /// The inviter's address, when their account still exists.
    pub invited_by: Option<&'a str>,
    pub role: &'a str,
}

/// What an e-mail says besides its kind. Both links must be absolute `http(s)` URLs; the
/// action link is used as given (it already holds the token and the redirect).
#[derive(Debug, Clone, Copy)]
pub struct MailContext<'a> {
    /// Where Bobbin is, for the footer.
    pub site_url: &'a Url,
    /// The link that does the thing: confirms, signs in, opens the reset form.
    pub action_link: &'a Url,
    /// A one-time code to type instead of following the link (Supabase's `{{ .Token }}`), if
    /// there is one.
    pub code: Option<&'a str>,
    /// The account's address (for an address change: the current one).
    pub email: &'a str,
    /// The address being changed to; only [`MailKind::EmailChange`] uses it.
    pub new_email: Option<&'a str>,
    /// How long the link works.
    pub valid_for: Duration,
    /// Only [`MailKind::TeamInvite`] uses it.
    pub invite: Option<InviteDetails<'a>>,
}

/// An e-mail ready to send as `multipart/alternative`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMail {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// What both templates see.
struct View<'a> {
    kind: MailKind,
    one_time_link: bool,
    subject: &'static str,
    site_url: &'a str,
    action_link: &'a str,
    code: Option<&'a str>,
    email: &'a str,
    new_email: Option<&'a str>,
    valid_for: String,
    invite: Option<InviteDetails<'a>>,
}

#[derive(Template)]
#[template(path = "mail/auth.txt")]
struct TextBody<'a> {
    mail: &'a View<'a>,
}

#[derive(Template)]
#[template(path = "mail/auth.html")]
struct HtmlBody<'a> {
    mail: &'a View<'a>,
}

/// Renders the e-mail of `kind`.
///
/// # Panics
///
/// Never in practice: askama fails only when a value's `Display` fails, and these are strings.
#[must_use]
pub fn render(kind: MailKind, context: &MailContext<'_>) -> RenderedMail {
    debug_assert!(
        ["http", "https"].contains(&context.action_link.scheme()),
        "an e-mailed link must be a web address, not {}",
        context.action_link.scheme()
    );
    let subject = match kind {
        MailKind::ConfirmSignup => "Confirm your e-mail address for Bobbin",
        MailKind::MagicLink => "Your Bobbin sign-in link",
        MailKind::Recovery => "Reset your Bobbin password",
        MailKind::EmailChange => "Confirm your new e-mail address for Bobbin",
        MailKind::TeamInvite => "You are invited to a team on Bobbin",
        MailKind::AddressTaken => "Someone tried to use your e-mail address on Bobbin",
        MailKind::AccountDeleted => "Your Bobbin account is deleted",
    };
    let view = View {
        kind,
        one_time_link: kind.has_one_time_link(),
        subject,
        site_url: context.site_url.as_str(),
        action_link: context.action_link.as_str(),
        code: context.code,
        email: context.email,
        new_email: context.new_email,
        valid_for: describe_duration(context.valid_for),
        invite: context.invite,
    };
    RenderedMail {
        subject: subject.to_owned(),
        text: TextBody { mail: &view }.render().expect("the text template renders"),
        html: HtmlBody { mail: &view }.render().expect("the HTML template renders"),
    }
}

/// What the contact e-mail's templates see.
struct ContactView<'a> {
    name: &'a str,
    reply_to: &'a str,
    /// The address of the account that sent it (which may differ from `reply_to`).
    account: &'a str,
    subject: &'a str,
    message: &'a str,
    site_url: &'a str,
}

#[derive(Template)]
#[template(path = "mail/contact.txt")]
struct ContactText<'a> {
    contact: &'a ContactView<'a>,
}

#[derive(Template)]
#[template(path = "mail/contact.html")]
struct ContactHtml<'a> {
    contact: &'a ContactView<'a>,
}

/// The e-mail a contact page message becomes, to the people who run the server, from the person
/// signed in as `account`.
///
/// # Panics
///
/// Never in practice, as [`render`].
#[must_use]
pub fn render_contact(message: &ContactMessage, account: &str, site_url: &Url) -> RenderedMail {
    let view = ContactView {
        name: message.name(),
        reply_to: message.reply_to().as_str(),
        account,
        subject: message.subject(),
        message: message.message(),
        site_url: site_url.as_str(),
    };
    RenderedMail {
        subject: format!("[Bobbin contact] {}", message.subject()),
        text: ContactText { contact: &view }.render().expect("the text template renders"),
        html: ContactHtml { contact: &view }.render().expect("the HTML template renders"),
    }
}

/// What a quote's e-mail to its customer says. Every field is ready to show (money and dates
/// formatted); `link` and `pdf_link` are absolute `http(s)` URLs holding the link's token.
#[derive(Debug, Clone, Copy)]
pub struct QuoteMail<'a> {
    pub shop: &'a str,
    pub shop_details: &'a str,
    pub customer_name: &'a str,
    /// `Q-0007`.
    pub number: &'a str,
    pub title: &'a str,
    /// "€1,009.20 for 50 pieces", or "3 options, from 24 to 96 pieces".
    pub summary: &'a str,
    pub valid_until: &'a str,
    pub link: &'a str,
    pub pdf_link: &'a str,
}

#[derive(Template)]
#[template(path = "mail/quote.txt")]
struct QuoteText<'a> {
    quote: &'a QuoteMail<'a>,
}

#[derive(Template)]
#[template(path = "mail/quote.html")]
struct QuoteHtml<'a> {
    quote: &'a QuoteMail<'a>,
}

/// The e-mail that sends a quote to its customer.
///
/// # Panics
///
/// Never in practice, as [`render`].
#[must_use]
pub fn render_quote(quote: &QuoteMail<'_>) -> RenderedMail {
    RenderedMail {
        subject: format!("Quote {} from {}: {}", quote.number, quote.shop, quote.title),
        text: QuoteText { quote }.render().expect("the text template renders"),
        html: QuoteHtml { quote }.render().expect("the HTML template renders"),
    }
}

/// What a notice to the team of a customer's answer says.
#[derive(Debug, Clone, Copy)]
pub struct QuoteNotice<'a> {
    /// "Q-0007 was approved by Ada Lovelace": also the subject.
    pub headline: &'a str,
    /// The answer's details, lines the customer may have typed.
    pub detail: &'a str,
    /// The quote's page in Bobbin.
    pub link: &'a str,
}

#[derive(Template)]
#[template(path = "mail/quote_notice.txt")]
struct NoticeText<'a> {
    notice: &'a QuoteNotice<'a>,
}

#[derive(Template)]
#[template(path = "mail/quote_notice.html")]
struct NoticeHtml<'a> {
    notice: &'a QuoteNotice<'a>,
}

/// The e-mail telling the team of a customer's answer to a quote.
///
/// # Panics
///
/// Never in practice, as [`render`].
#[must_use]
pub fn render_quote_notice(notice: &QuoteNotice<'_>) -> RenderedMail {
    RenderedMail {
        subject: notice.headline.to_owned(),
        text: NoticeText { notice }.render().expect("the text template renders"),
        html: NoticeHtml { notice }.render().expect("the HTML template renders"),
    }
}

/// "24 hours", "1 hour", "15 minutes", "7 days": how people say it, rounded up to a minute.
fn describe_duration(duration: Duration) -> String {
    let minutes = duration.as_secs().div_ceil(60).max(1);
    let (count, unit) = if !minutes.is_multiple_of(60) {
        (minutes, "minute")
    } else if minutes >= 48 * 60 && minutes.is_multiple_of(24 * 60) {
        (minutes / (24 * 60), "day")
    } else {
        (minutes / 60, "hour")
    };
    if count == 1 { format!("1 {unit}") } else { format!("{count} {unit}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [MailKind; 4] =
        [MailKind::ConfirmSignup, MailKind::MagicLink, MailKind::Recovery, MailKind::EmailChange];

    fn urls() -> (Url, Url) {
        (
            Url::parse("https://bobbin.example/").unwrap(),
            Url::parse("https://bobbin.example/auth/v1/verify?token=abc123&type=signup&redirect_to=https%3A%2F%2Fbobbin.example%2F").unwrap(),
        )
    }

    fn render_with(kind: MailKind, email: &str, new_email: Option<&str>) -> RenderedMail {
        let (site_url, action_link) = urls();
        render(
            kind,
            &MailContext {
                site_url: &site_url,
                action_link: &action_link,
                code: None,
                email,
                new_email,
                valid_for: Duration::from_hours(24),
                invite: None,
            },
        )
    }

    #[test]
    fn the_confirmation_text_reads_as_written() {
        let mail = render_with(MailKind::ConfirmSignup, "ada@example.com", None);
        assert_eq!(mail.subject, "Confirm your e-mail address for Bobbin");
        assert_eq!(
            mail.text,
            "Welcome to Bobbin!\n\
             \n\
             Please confirm that ada@example.com is your e-mail address by opening this link:\n\
             \n\
             https://bobbin.example/auth/v1/verify?token=abc123&type=signup&redirect_to=https%3A%2F%2Fbobbin.example%2F\n\
             \n\
             The link works once, for 24 hours.\n\
             \n\
             If you didn't sign up for Bobbin, you can ignore this e-mail: \
             the account can't be used until the address is confirmed.\n\
             \n\
             -- \n\
             Bobbin\n\
             https://bobbin.example/"
        );
    }

    #[test]
    fn every_mail_has_its_subject_the_link_the_validity_and_what_to_do_if_unasked() {
        let subjects = [
            "Confirm your e-mail address for Bobbin",
            "Your Bobbin sign-in link",
            "Reset your Bobbin password",
            "Confirm your new e-mail address for Bobbin",
        ];
        let (site_url, _) = urls();
        for (kind, subject) in ALL.into_iter().zip(subjects) {
            let mail = render_with(kind, "ada@example.com", Some("ada@lovelace.example"));
            assert_eq!(mail.subject, subject);
            for body in [&mail.text, &mail.html] {
                assert!(body.contains("Bobbin"), "{kind:?}: {body}");
                assert!(body.contains("24 hours"), "{kind:?}: {body}");
                assert!(body.contains("If you didn't"), "{kind:?}: {body}");
                assert!(body.contains(site_url.as_str()), "{kind:?}: {body}");
            }
            assert!(
                mail.text
                    .contains("https://bobbin.example/auth/v1/verify?token=abc123&type=signup&redirect_to="),
                "{kind:?}: {}",
                mail.text
            );
            // In HTML the `&` between query parameters is escaped (askama writes `&#38;`), in the
            // button and in the copyable link.
            let escaped =
                "https://bobbin.example/auth/v1/verify?token=abc123&#38;type=signup&#38;redirect_to=";
            assert_eq!(mail.html.matches(escaped).count(), 2, "{kind:?}: {}", mail.html);
        }
    }

    #[test]
    fn each_mail_says_what_the_link_does() {
        let says = [
            (MailKind::ConfirmSignup, "confirm that ada@example.com is your e-mail address"),
            (MailKind::MagicLink, "sign in to Bobbin as ada@example.com"),
            (MailKind::Recovery, "reset the password of the Bobbin account for ada@example.com"),
            (MailKind::EmailChange, "from ada@example.com to ada@lovelace.example"),
        ];
        for (kind, phrase) in says {
            let mail = render_with(kind, "ada@example.com", Some("ada@lovelace.example"));
            assert!(mail.text.contains(phrase), "{kind:?}: {}", mail.text);
            let html = mail.html.replace("<strong>", "").replace("</strong>", "");
            assert!(html.contains(phrase), "{kind:?}: {html}");
        }
    }

    #[test]
    fn a_code_is_offered_beside_the_link_when_given() {
        let (site_url, action_link) = urls();
        let mail = render(
            MailKind::MagicLink,
            &MailContext {
                site_url: &site_url,
                action_link: &action_link,
                code: Some("204815"),
                email: "ada@example.com",
                new_email: None,
                valid_for: Duration::from_hours(1),
                invite: None,
            },
        );
        assert!(
            mail.text.contains(&format!(
                "{action_link}\n\nOr enter this code: 204815\n\nThe link and the code work once, for 1 hour.\n"
            )),
            "{}",
            mail.text
        );
        assert!(mail.html.contains(">204815</strong>"), "{}", mail.html);
        assert!(mail.html.contains("The link and the code work once, for 1 hour."), "{}", mail.html);
    }

    #[test]
    fn a_team_invite_names_the_team_the_inviter_and_the_role_and_escapes_them() {
        let (site_url, _) = urls();
        let link = Url::parse("https://bobbin.example/profile/invites/accept?token=t0k3n").unwrap();
        let mail = render(
            MailKind::TeamInvite,
            &MailContext {
                site_url: &site_url,
                action_link: &link,
                code: None,
                email: "sam@example.com",
                new_email: None,
                valid_for: Duration::from_hours(7 * 24),
                invite: Some(InviteDetails {
                    team_name: "<b>Stitch</b> & Co",
                    invited_by: Some("ada@example.com"),
                    role: "admin",
                }),
            },
        );
        assert_eq!(mail.subject, "You are invited to a team on Bobbin");
        assert!(
            mail.text.starts_with(
                "Join <b>Stitch</b> & Co on Bobbin\n\nada@example.com invites sam@example.com to join the team \"<b>Stitch</b> & Co\" on Bobbin as admin."
            ),
            "{}",
            mail.text
        );
        assert!(mail.text.contains("once, for 7 days"), "{}", mail.text);
        assert!(mail.html.contains("Accept the invite"), "{}", mail.html);
        assert!(mail.html.contains("&#60;b&#62;Stitch&#60;/b&#62; &#38; Co"), "{}", mail.html);
        assert!(!mail.html.contains("<b>Stitch"), "{}", mail.html);
    }

    #[test]
    fn an_address_change_without_the_new_address_still_reads_well() {
        let mail = render_with(MailKind::EmailChange, "ada@example.com", None);
        assert!(mail.text.contains("from ada@example.com to this address"), "{}", mail.text);
    }

    #[test]
    fn every_value_in_the_html_is_escaped() {
        let (site_url, _) = urls();
        let action_link = Url::parse("https://bobbin.example/verify?a=1&b=2").unwrap();
        let hostile = r#""><script>alert(1)</script>@example.com"#;
        for kind in ALL {
            let mail = render(
                kind,
                &MailContext {
                    site_url: &site_url,
                    action_link: &action_link,
                    code: Some(hostile),
                    email: hostile,
                    new_email: Some(hostile),
                    valid_for: Duration::from_hours(1),
                    invite: None,
                },
            );
            assert!(!mail.html.contains("<script>"), "{kind:?}: {}", mail.html);
            assert!(mail.html.contains("&#34;&#62;&#60;script&#62;"), "{kind:?}: {}", mail.html);
            assert!(!mail.html.contains("a=1&b=2"), "{kind:?}: {}", mail.html);
            assert!(mail.html.contains("a=1&#38;b=2"), "{kind:?}: {}", mail.html);
            // The plain-text body is not HTML: the address appears as typed.
            assert!(mail.text.contains(hostile), "{kind:?}: {}", mail.text);
        }
    }

    #[test]
    fn the_notice_about_a_taken_address_offers_no_link_that_changes_anything() {
        let site = Url::parse("https://bobbin.example/").unwrap();
        let mail = render(
            MailKind::AddressTaken,
            &MailContext {
                site_url: &site,
                action_link: &site,
                code: None,
                email: "owner@example.com",
                new_email: None,
                valid_for: Duration::ZERO,
                invite: None,
            },
        );
        assert_eq!(mail.subject, "Someone tried to use your e-mail address on Bobbin");
        assert!(mail.text.contains("That is the address of your Bobbin account, so nothing has changed"));
        for body in [&mail.text, &mail.html] {
            assert!(!body.contains("works once") && !body.contains("verify"), "{body}");
        }
    }

    #[test]
    fn the_notice_of_a_deleted_account_says_what_went_and_offers_no_one_time_link() {
        let site = Url::parse("https://bobbin.example/").unwrap();
        let mail = render(
            MailKind::AccountDeleted,
            &MailContext {
                site_url: &site,
                action_link: &site,
                code: None,
                email: "ada@example.com",
                new_email: None,
                valid_for: Duration::ZERO,
                invite: None,
            },
        );
        assert_eq!(mail.subject, "Your Bobbin account is deleted");
        assert!(mail.text.contains("The Bobbin account for ada@example.com is deleted"), "{}", mail.text);
        for body in [&mail.text, &mail.html] {
            assert!(body.contains("former member"), "{body}");
            assert!(!body.contains("works once") && !body.contains("verify"), "{body}");
        }
    }

    #[test]
    fn the_html_is_a_whole_document_with_a_button() {
        let mail = render_with(MailKind::Recovery, "ada@example.com", None);
        assert!(mail.html.starts_with("<!DOCTYPE html>"), "{}", mail.html);
        assert!(mail.html.trim_end().ends_with("</html>"), "{}", mail.html);
        assert!(mail.html.contains(">Choose a new password</a>"), "{}", mail.html);
        assert!(mail.html.contains("<title>Reset your Bobbin password</title>"), "{}", mail.html);
    }

    #[test]
    fn durations_are_said_the_way_people_say_them() {
        let cases = [
            (1, "1 minute"),
            (60, "1 minute"),
            (61, "2 minutes"),
            (15 * 60, "15 minutes"),
            (90 * 60, "90 minutes"),
            (3600, "1 hour"),
            (24 * 3600, "24 hours"),
            (36 * 3600, "36 hours"),
            (48 * 3600, "2 days"),
            (7 * 24 * 3600, "7 days"),
        ];
        for (seconds, said) in cases {
            assert_eq!(describe_duration(Duration::from_secs(seconds)), said, "{seconds} s");
        }
    }
}
