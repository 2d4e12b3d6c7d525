/**
 * A real SMTP server on loopback (the `smtp-server` package) for the admissions app's emails:
 * the tests open the links in them as an applicant would. Messages are decoded with mailparser
 * (MIME parts, quoted-printable), so a link is read as a mail client shows it.
 */

import { freePorts } from "@platform/server/testing";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type Mail = { to: string[]; event: string; text: string };

export async function startMailbox() {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const parsed = await simpleParser(Buffer.concat(chunks));
        const event = parsed.headers.get("x-admissions-event");
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          event: typeof event === "string" ? event : "",
          text: parsed.text ?? "",
        });
        callback();
      });
    },
  });
  const [port] = await freePorts(1);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The newest email of this event to this address, once it has arrived. */
    async mail(to: string, event: string, timeoutMs = 20_000): Promise<Mail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = messages.findLast((m) => m.event === event && m.to.includes(to));
        if (mail) return mail;
        await Bun.sleep(100);
      }
      throw new Error(`no ${event} email reached ${to} in ${timeoutMs} ms`);
    },
    /** The link of the newest email of this event to this address, once it has arrived. */
    async link(to: string, event: string, timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = messages.findLast((m) => m.event === event && m.to.includes(to));
        const link = mail?.text.match(/https?:\/\/\S+\?token=[\w-]+/)?.[0];
        if (link) return link;
        await Bun.sleep(100);
      }
      throw new Error(`no ${event} email with a link reached ${to} in ${timeoutMs} ms`);
    },
    /** Every email of this event to this address that has arrived so far. */
    count: (to: string, event: string) =>
      messages.filter((m) => m.event === event && m.to.includes(to)).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
