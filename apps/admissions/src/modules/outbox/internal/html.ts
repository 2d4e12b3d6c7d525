/*
 * Every email goes out as plain text with an HTML alternative made from that same text, so the
 * two can never say different things and a template is written once. The HTML is deliberately
 * plain: escaped text, paragraphs, line breaks, "- " lines as a list, and links made clickable.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Only absolute http(s) links become anchors; the text around them stays escaped text. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;

const linkify = (escaped: string) =>
  escaped.replace(URL_IN_TEXT, (url) => `<a href="${url}">${url}</a>`);

function paragraph(block: string): string {
  const lines = block.split("\n");
  if (lines.every((line) => line.startsWith("- "))) {
    const items = lines.map((line) => `<li>${linkify(escapeHtml(line.slice(2)))}</li>`);
    return `<ul>${items.join("")}</ul>`;
  }
  return `<p>${lines.map((line) => linkify(escapeHtml(line))).join("<br>\n")}</p>`;
}

/** The HTML alternative of a plain-text email body. */
export function htmlOf(text: string, subject: string): string {
  const body = text
    .replace(/\r\n/g, "\n")
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== "")
    .map(paragraph)
    .join("\n");
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}
