import { freePort } from "@platform/server/testing";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as it arrived at the test SMTP server, its headers and text decoded. */
export type Received = {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  /** The HTML alternative ("" when the message has none). */
  html: string;
  /** Attached files: name, MIME type with its parameters (e.g. method=REQUEST), text. */
  attachments: {
    filename: string;
    contentType: string;
    params: Record<string, string>;
    content: string;
  }[];
};

/** A raw message as a mail client reads it (mailparser: MIME parts, encodings). */
export async function parseMessage(raw: Buffer): Promise<Omit<Received, "from" | "to">> {
  const parsed = await simpleParser(raw);
  const headers: Record<string, string> = {};
  for (const line of parsed.headerLines) {
    headers[line.key] = line.line.slice(line.line.indexOf(":") + 1).trim();
  }
  return {
    headers,
    subject: parsed.subject ?? "",
    text: (parsed.text ?? "").replace(/\r\n/g, "\n"),
    html: typeof parsed.html === "string" ? parsed.html : "",
    attachments: parsed.attachments.map((a) => {
      const header = a.headers.get("content-type") as
        | { params?: Record<string, string> }
        | undefined;
      return {
        filename: a.filename ?? "",
        contentType: a.contentType,
        params: header?.params ?? {},
        content: a.content.toString("utf8"),
      };
    }),
  };
}

/**
 * A real SMTP server on a loopback port (the `smtp-server` package): what nodemailer delivers
 * lands in `messages`. `refuse` makes it answer the message with a temporary failure (451).
 */
export async function startSmtpServer() {
  const messages: Received[] = [];
  const control = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (control.refuse) {
          const error = Object.assign(new Error("Mailbox busy, try again later"), {
            responseCode: 451,
          });
          return callback(error);
        }
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...(await parseMessage(Buffer.concat(chunks))),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
