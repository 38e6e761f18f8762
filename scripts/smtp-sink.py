#!/usr/bin/python3
"""smtp-sink.py PORT : a real SMTP server (aiosmtpd, Debian's python3-aiosmtpd) on 127.0.0.1:PORT
that accepts every message and prints it to stdout as one JSON line:
{"from": ..., "to": [...], "reply_to": ..., "subject": ..., "text": ..., "html": ...}, bodies
decoded (`reply_to` null without that header).

The Rust tests start it to check that Bobbin's e-mail really goes out over SMTP. It stops when
its standard input closes (the test process ended), so it never outlives the tests.
"""

import email
import email.policy
import json
import sys

from aiosmtpd.controller import Controller


class Printer:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        parts = {"text/plain": None, "text/html": None}
        for part in message.walk():
            if part.get_content_type() in parts and parts[part.get_content_type()] is None:
                parts[part.get_content_type()] = part.get_content()
        print(
            json.dumps(
                {
                    "from": envelope.mail_from,
                    "to": envelope.rcpt_tos,
                    "reply_to": str(message["reply-to"]) if message["reply-to"] else None,
                    "subject": str(message["subject"]),
                    "text": parts["text/plain"],
                    "html": parts["text/html"],
                }
            ),
            flush=True,
        )
        return "250 Message accepted for delivery"


controller = Controller(Printer(), hostname="127.0.0.1", port=int(sys.argv[1]))
controller.start()
print("ready", flush=True)
sys.stdin.read()
controller.stop()
