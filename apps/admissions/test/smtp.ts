import { freePort } from "@platform/server/testing";
import { SMTPServer } from "smtp-server";

/** A message as it arrived at the test SMTP server, its headers and text decoded. */
export type Received = {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
};

/** Quoted-printable (RFC 2045) as nodemailer writes it: soft line breaks and =XX bytes. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? joined.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(joined[i]));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

export function parseMessage(raw: string): Omit<Received, "from" | "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = raw.slice(split + 4);
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return { headers, subject: headers.subject ?? "", text: text.replace(/\r\n/g, "\n") };
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
      stream.on("end", () => {
        if (control.refuse) {
          const error = Object.assign(new Error("Mailbox busy, try again later"), {
            responseCode: 451,
          });
          return callback(error);
        }
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMessage(Buffer.concat(chunks).toString("utf8")),
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
