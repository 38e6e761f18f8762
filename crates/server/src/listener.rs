//! The server's TCP listener, whose connections give hyper's own error answers the API's JSON
//! error shape.
//!
//! hyper answers a request it cannot read by itself, before any of our code runs: a request
//! line over 64 KiB (`http::Uri` holds no more) gets `414`, a head over hyper's buffer (about
//! 400 KiB) `431`, malformed HTTP `400`; each with no body, then the connection closes. hyper has
//! no setting for that answer, so each connection's output is watched instead: an answer that
//! is exactly such a head, and that our router did not make (every answer of the router carries
//! `x-request-id`), is replaced by the same status with a JSON body ([`status_error_body`]).
//! Everything else passes through untouched.

use std::{
    fmt::Write as _,
    io,
    net::SocketAddr,
    pin::Pin,
    task::{Context, Poll, ready},
};

use axum::http::StatusCode;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
};

use crate::error::status_error_body;

/// A [`TcpListener`] whose connections are [`JsonErrors`].
#[derive(Debug)]
pub struct JsonErrorsListener(pub TcpListener);

impl axum::serve::Listener for JsonErrorsListener {
    type Io = JsonErrors<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        // axum's own accept loop, which also waits out errors such as too many open files.
        let (stream, address) = axum::serve::Listener::accept(&mut self.0).await;
        (JsonErrors { inner: stream, replacement: None }, address)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// A connection that writes [`json_answer_for`] in place of hyper's bodiless error answers.
#[derive(Debug)]
pub struct JsonErrors<T> {
    inner: T,
    /// The replacement answer, and how much of it is written.
    replacement: Option<(Vec<u8>, usize)>,
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes out the replacement answer, if there is one, before anything else.
    fn poll_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((answer, written)) = &mut self.replacement {
            if *written == answer.len() {
                self.replacement = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &answer[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `head` as written when it is one of hyper's own error answers: its replacement
    /// goes out instead, on this call and the ones after.
    fn replace(&mut self, cx: &mut Context<'_>, head: &[u8]) -> Option<Poll<io::Result<usize>>> {
        let answer = json_answer_for(head)?;
        self.replacement = Some((answer, 0));
        Some(match self.poll_replacement(cx) {
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            // hyper flushes next, which finishes the replacement.
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Ready(Ok(head.len())),
        })
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_replacement(cx))?;
        if let Some(written) = self.replace(cx, buf) {
            return written;
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_replacement(cx))?;
        // hyper queues a response's head as the first buffer, its body after.
        if let Some(first) = bufs.iter().find(|buf| !buf.is_empty())
            && let Some(written) = self.replace(cx, first)
        {
            return written;
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_replacement(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_replacement(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The statuses hyper answers by itself when it cannot read a request.
const HYPER_STATUSES: [StatusCode; 3] =
    [StatusCode::BAD_REQUEST, StatusCode::URI_TOO_LONG, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE];

/// The JSON answer to send instead of `written`, when `written` is one of hyper's own answers:
/// a whole response head alone, with one of [`HYPER_STATUSES`], `content-length: 0`, and no
/// `x-request-id` (which the router puts on everything it answers).
fn json_answer_for(written: &[u8]) -> Option<Vec<u8>> {
    // Every answer's head passes here: its status is read first, so that any other costs a few
    // comparisons.
    let code = written.strip_prefix(b"HTTP/1.1 ").or_else(|| written.strip_prefix(b"HTTP/1.0 "))?;
    let status = StatusCode::from_bytes(code.get(..3)?).ok()?;
    if !HYPER_STATUSES.contains(&status) {
        return None;
    }
    let head = std::str::from_utf8(written).ok()?.strip_suffix("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let headers: Vec<(&str, &str)> = lines
        .map(|line| line.split_once(':').map(|(name, value)| (name, value.trim())))
        .collect::<Option<_>>()?;
    let value_of = |wanted: &str| {
        headers.iter().find(|(name, _)| name.eq_ignore_ascii_case(wanted)).map(|(_, value)| *value)
    };
    if value_of("content-length") != Some("0") || value_of("x-request-id").is_some() {
        return None;
    }
    let body = serde_json::to_vec(&status_error_body(status)).ok()?;
    let mut answer = format!(
        "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    // hyper's other headers (the date) stay; the three that describe the body are rewritten.
    for (name, value) in headers {
        if !["content-length", "content-type", "connection"].iter().any(|n| name.eq_ignore_ascii_case(n)) {
            // Writing to a `String` cannot fail.
            let _ = write!(answer, "{name}: {value}\r\n");
        }
    }
    answer.push_str("\r\n");
    let mut answer = answer.into_bytes();
    answer.extend_from_slice(&body);
    Some(answer)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn split(answer: &[u8]) -> (String, Value) {
        let text = std::str::from_utf8(answer).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        (head.to_owned(), serde_json::from_str(body).unwrap())
    }

    #[test]
    fn hypers_own_answer_gets_a_json_body_and_keeps_its_other_headers() {
        let hyper =
            b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 10:00:00 GMT\r\n\r\n";
        let (head, body) = split(&json_answer_for(hyper).expect("replaced"));
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(head.contains("\r\ncontent-type: application/json\r\n"), "{head}");
        assert!(head.contains("\r\ndate: Wed, 25 Nov 2026 10:00:00 GMT"), "{head}");
        assert!(head.contains("\r\nconnection: close"), "{head}");
        assert_eq!(body["code"], "uri_too_long");
        let announced: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length: "))
            .and_then(|length| length.parse().ok())
            .unwrap();
        assert_eq!(announced, serde_json::to_vec(&body).unwrap().len());
    }

    #[test]
    fn answers_of_the_router_and_other_writes_pass_unchanged() {
        for written in [
            &b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\nx-request-id: 1\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ntransfer-encoding: chunked\r\n\r\n",
            b"{\"code\":\"not_found\"}",
        ] {
            assert_eq!(json_answer_for(written), None, "{}", String::from_utf8_lossy(written));
        }
    }
}
