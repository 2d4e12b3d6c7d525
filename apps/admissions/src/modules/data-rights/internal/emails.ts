import type { SQL } from "bun";
import { enqueueEmail } from "../../outbox/service.ts";

export type DataRightsEvent =
  | "data.exported"
  | "erasure.requested"
  | "erasure.cancelled"
  | "erasure.rejected"
  | "erasure.completed";

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeZone: "UTC" });
const when = (iso: string) =>
  `${new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })} UTC`;

type Facts = { at: string; portalUrl: string; note?: string | null; retainUntil?: string | null };

const SECURITY = "/account/security";
const DATA = "/account/data";

/** Each event's subject, its text before the link, and the portal page it links to (if any). */
const TEXTS: Record<DataRightsEvent, (f: Facts) => [string, string, string | null]> = {
  "data.exported": (f) => [
    "A copy of your data was downloaded",
    `A copy of everything we hold about you was downloaded from your admissions account on ${when(f.at)}.\n\nIf this was not you, change your password and contact the admissions office at once:`,
    SECURITY,
  ],
  "erasure.requested": (f) => [
    "We received your request to erase your account",
    `We received your request of ${when(f.at)} to erase your admissions account and the personal data we hold about you. An application of yours is still in progress, so a member of the admissions team will look at the request first; we will write to you when it is done.\n\nYou can follow or cancel the request here:`,
    DATA,
  ],
  "erasure.cancelled": (f) => [
    "Your erasure request was cancelled",
    `Your request to erase your admissions account was cancelled on ${when(f.at)}; your account stays as it is.\n\nYour data requests:`,
    DATA,
  ],
  "erasure.rejected": (f) => [
    "Your erasure request was not carried out",
    `Your request to erase your admissions account was not carried out. The admissions team wrote:\n\n${f.note ?? ""}\n\nYour data requests:`,
    DATA,
  ],
  "erasure.completed": (f) => [
    "Your account has been erased",
    `Your admissions account was erased on ${when(f.at)}, as you asked. Your personal details, documents and the contents of your applications are deleted, and you can no longer sign in. Records of payments you made are kept, without your name, until ${day(f.retainUntil ?? f.at)} as the law on financial records requires, and then deleted.\n\nThis is the last email we send to this address.`,
    null,
  ],
};

/** The email of a data-rights event; its one link (if any) is a page of the portal. */
export function dataRightsEmail(event: DataRightsEvent, facts: Facts) {
  const [subject, text, path] = TEXTS[event](facts);
  const link = path === null ? null : `${facts.portalUrl}${path}`;
  return { subject, body: link ? `${text} ${link}` : text, links: link ? [link] : [] };
}

/** Written in the caller's transaction: sent only if the change commits. */
export async function enqueueDataRightsEmail(
  tx: SQL,
  to: string,
  event: DataRightsEvent,
  facts: Facts,
) {
  const email = dataRightsEmail(event, facts);
  await enqueueEmail(tx, { applicationId: null, event, to, ...email }, facts.at);
}
