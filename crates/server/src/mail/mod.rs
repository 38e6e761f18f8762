//! Sending Bobbin's e-mail: over SMTP when `BOBBIN_SMTP_URL` is set, otherwise into the outbox
//! table, which development mode shows at `/dev/mailbox` (see [`mailbox`]).

pub mod mailbox;
pub mod templates;

use std::time::Duration;

use anyhow::Context as _;
use bobbin_core::email::{EmailAddress, EmailError};
use lettre::{
    AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor,
    message::{Mailbox, MultiPart},
};
use prometheus_client::metrics::counter::Counter;

use crate::db::Database;
use crate::{
    config::AuthArgs,
    mail::templates::RenderedMail,
    repo::auth::outbox::{self, NewMail},
};

/// Pauses before each delivery attempt: an SMTP server that is briefly away (restarting, say)
/// does not lose anyone's sign-up link.
const RETRY_PAUSES: [Duration; 4] =
    [Duration::ZERO, Duration::from_secs(1), Duration::from_secs(5), Duration::from_secs(30)];

/// An address Bobbin can send e-mail to, parsed where a request brings it: the core's
/// [`EmailAddress`] (trimmed, lower-cased, no characters that break a header or a link), read
/// whole as a mailbox by lettre's own parser, the one [`Mailer`] builds its messages with.
///
/// The core's check is deliberately plain, and lettre's is RFC 5322's: an address one accepts and
/// the other refuses (a comment, `a(x)@example.com`; a domain literal, `a@[127.0.0.1]`) would
/// pass the request and fail when the message is built, after the request had been counted and
/// stored. Rejected: teaching the core RFC 5322's grammar, a second parser that could disagree
/// with the one that sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailAddress {
    email: EmailAddress,
    mailbox: Mailbox,
}

impl MailAddress {
    /// Parses `raw`, as [`EmailAddress::parse`] and then as the mailer's [`Mailbox`].
    ///
    /// # Errors
    ///
    /// [`EmailError::Empty`] for blank input, [`EmailError::Invalid`] for anything either parser
    /// refuses, or that lettre reads as another address than the core does.
    pub fn parse(raw: &str) -> Result<Self, EmailError> {
        let email = EmailAddress::parse(raw)?;
        match email.as_str().parse::<Mailbox>() {
            Ok(mailbox)
                if mailbox.name.is_none() && AsRef::<str>::as_ref(&mailbox.email) == email.as_str() =>
            {
                Ok(Self { email, mailbox })
            }
            _ => Err(EmailError::Invalid(raw.trim().to_owned())),
        }
    }

    pub fn as_str(&self) -> &str {
        self.email.as_str()
    }

    pub fn into_email(self) -> EmailAddress {
        self.email
    }
}

#[derive(Debug, Clone)]
pub struct Mailer {
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
    /// Where the contact page's messages go (`BOBBIN_CONTACT_EMAIL`), checked at start.
    contact: Option<String>,
    counters: MailCounters,
}

/// What became of the e-mails this server sent, for `/metrics`.
#[derive(Debug, Clone, Default)]
pub struct MailCounters {
    /// Handed to the SMTP sender (which retries in the background), or stored in the outbox.
    pub queued: Counter,
    /// Accepted by the SMTP server.
    pub sent: Counter,
    /// Refused by the SMTP server, or given up on after every retry.
    pub failed: Counter,
}

impl Mailer {
    pub fn new(args: &AuthArgs) -> anyhow::Result<Self> {
        let from = args
            .mail_from
            .parse()
            .with_context(|| format!("BOBBIN_MAIL_FROM `{}` is not a mailbox", args.mail_from))?;
        let smtp = args
            .smtp_url
            .as_ref()
            .map(crate::config::Secret::expose)
            .map(|url| {
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map(lettre::transport::smtp::AsyncSmtpTransportBuilder::build)
                    // The URL may hold a password: never echo it.
                    .context("BOBBIN_SMTP_URL is not a valid SMTP URL (smtp://, smtps:// or smtp://...?tls=required)")
            })
            .transpose()?;
        let contact = args
            .contact_email
            .as_deref()
            .map(str::trim)
            .filter(|address| !address.is_empty())
            .map(|address| {
                address
                    .parse::<Mailbox>()
                    .map(|_| address.to_owned())
                    .with_context(|| format!("BOBBIN_CONTACT_EMAIL `{address}` is not an e-mail address"))
            })
            .transpose()?;
        Ok(Self { smtp, from, contact, counters: MailCounters::default() })
    }

    /// Where the contact page's messages go; `None` when this server has no address for them.
    pub fn contact(&self) -> Option<&str> {
        self.contact.as_deref()
    }

    /// The counts of e-mails queued, sent and failed since the server started.
    pub fn counters(&self) -> &MailCounters {
        &self.counters
    }

    pub fn uses_smtp(&self) -> bool {
        self.smtp.is_some()
    }

    /// Sends `mail` to `to`. Over SMTP the delivery runs in the background, so that how long
    /// a request takes never tells whether an e-mail went out (and so whether an address has
    /// an account); a failed delivery is logged. Without SMTP the mail is stored in the outbox
    /// before this returns.
    pub async fn send(&self, db: &Database, to: &str, mail: RenderedMail) -> anyhow::Result<()> {
        self.send_answerable(db, to, None, mail).await
    }

    /// As [`Self::send`], with `reply_to` as the address an answer goes to (the contact page's
    /// messages: the sender is Bobbin, the answer is for the person who wrote). The outbox keeps
    /// no `Reply-To`: development mode only shows what was sent.
    pub async fn send_answerable(
        &self,
        db: &Database,
        to: &str,
        reply_to: Option<&MailAddress>,
        mail: RenderedMail,
    ) -> anyhow::Result<()> {
        let Some(smtp) = self.smtp.clone() else {
            let stored =
                NewMail { to: to.to_owned(), subject: mail.subject, text: mail.text, html: mail.html };
            outbox::store(db, stored).await.context("storing mail in the outbox")?;
            self.counters.queued.inc();
            return Ok(());
        };
        let mut message =
            Message::builder().from(self.from.clone()).to(to.parse().context("recipient address")?);
        if let Some(reply_to) = reply_to {
            message = message.reply_to(reply_to.mailbox.clone());
        }
        let message = message
            .subject(mail.subject)
            .multipart(MultiPart::alternative_plain_html(mail.text, mail.html))
            .context("building the message")?;
        self.counters.queued.inc();
        let counters = self.counters.clone();
        tokio::spawn(async move {
            for (attempt, pause) in RETRY_PAUSES.iter().enumerate() {
                tokio::time::sleep(*pause).await;
                match smtp.send(message.clone()).await {
                    Ok(_) => {
                        counters.sent.inc();
                        return;
                    }
                    Err(error) if error.is_permanent() => {
                        counters.failed.inc();
                        tracing::error!(error = %error, "the SMTP server refused an e-mail");
                        return;
                    }
                    Err(error) => {
                        tracing::warn!(error = %error, attempt = attempt + 1, "sending e-mail over SMTP failed");
                    }
                }
            }
            counters.failed.inc();
            tracing::error!("an e-mail could not be delivered to the SMTP server; giving up");
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_the_core_takes_but_lettre_refuses_are_refused() {
        for address in ["a(x)@evil.test", "a@[127.0.0.1]", "a..b@example.com", "a@-example.com"] {
            assert!(EmailAddress::parse(address).is_ok(), "{address}: the core alone took it");
            assert_eq!(
                MailAddress::parse(address),
                Err(EmailError::Invalid(address.to_owned())),
                "{address}"
            );
        }
        assert_eq!(MailAddress::parse("  "), Err(EmailError::Empty));
    }

    #[test]
    fn plain_addresses_are_kept_as_the_core_writes_them() {
        for (raw, kept) in [
            ("  Ada@Example.COM ", "ada@example.com"),
            ("grace.hopper+quotes@navy.example.org", "grace.hopper+quotes@navy.example.org"),
            ("o'brien@example.ie", "o'brien@example.ie"),
        ] {
            let address = MailAddress::parse(raw).unwrap();
            assert_eq!(address.as_str(), kept);
            assert_eq!(address.mailbox.email.to_string(), kept);
        }
    }
}
