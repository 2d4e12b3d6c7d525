import { type Logger, SpanKind, withSpan } from "@platform/server";
import { createTransport } from "nodemailer";
import { htmlOf } from "./html.ts";
import type { EmailAttachment } from "./queries.ts";

export type OutgoingEmail = {
  /** The outbox id: the Message-ID, so a resent copy can be recognised as the same message. */
  id: string;
  to: string;
  subject: string;
  body: string;
  /** The platform's links in `body`, exactly as written there: the HTML part's only anchors. */
  links: readonly string[];
  event: string;
  applicationId: string | null;
  /** Sent as a MIME attachment beside the text and HTML (an interview's .ics). */
  attachment?: EmailAttachment;
};

/** Delivers one email or throws; `name` is recorded as the transport that sent it. */
export type Mailer = { name: string; send(email: OutgoingEmail): Promise<void>; close(): void };

const headersOf = (email: OutgoingEmail) => ({
  "X-Admissions-Event": email.event,
  ...(email.applicationId ? { "X-Admissions-Application": email.applicationId } : {}),
});

/**
 * SMTP through nodemailer, e.g. `smtp://user:pass@mail.example.org:587` (STARTTLS when the
 * server offers it) or `smtps://…:465`. Timeouts are short so a stuck server fails the attempt
 * (it is retried) well within the outbox lease.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  const server = new URL(url).hostname;
  return {
    name: "smtp",
    async send(email) {
      // Traced, a span of its own (the outbox job sends outside any request): the server and
      // the event, never the recipient, subject or body.
      const attributes = { "server.address": server, "admissions.email.event": email.event };
      await withSpan("smtp.send", { kind: SpanKind.CLIENT, root: true, attributes }, () =>
        transport.sendMail({
          from,
          to: email.to,
          subject: email.subject,
          text: email.body,
          html: htmlOf(email.body, email.subject, email.links),
          messageId: `<${email.id}@admissions>`,
          headers: headersOf(email),
          attachments: email.attachment
            ? [
                {
                  filename: email.attachment.name,
                  content: email.attachment.content,
                  contentType: email.attachment.type,
                },
              ]
            : [],
        }),
      );
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP_URL (development, tests of other features, or production told so with
 * ADMISSIONS_MAIL_DROP=true): the email is not sent, and counts as sent. One line says which
 * email it was — its template (event), id and the recipient's domain — and never what it says:
 * a body holds sign-in links with their tokens, and names and addresses are personal data.
 */
export function dropMailer(logger: Logger): Mailer {
  return {
    name: "drop",
    async send(email) {
      logger.info("email dropped (no SMTP_URL)", {
        emailId: email.id,
        event: email.event,
        toDomain: email.to.slice(email.to.lastIndexOf("@") + 1),
        applicationId: email.applicationId,
      });
    },
    close: () => {},
  };
}
