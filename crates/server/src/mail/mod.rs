//! Sending Bobbin's e-mail: over SMTP when `BOBBIN_SMTP_URL` is set, otherwise into the outbox
//! table, which development mode shows at `/dev/mailbox` (see [`mailbox`]).

pub mod mailbox;
pub mod templates;

use std::time::Duration;

use anyhow::Context as _;
use lettre::{AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor, message::MultiPart};
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

#[derive(Debug, Clone)]
pub struct Mailer {
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: lettre::message::Mailbox,
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
                    .parse::<lettre::message::Mailbox>()
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
        reply_to: Option<&str>,
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
            message = message.reply_to(reply_to.parse().context("reply-to address")?);
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
