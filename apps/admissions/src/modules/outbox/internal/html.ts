/*
 * Every email goes out as plain text with an HTML alternative made from that same text, so the
 * two can never say different things and a template is written once. The HTML is deliberately
 * plain: escaped text, paragraphs, line breaks, "- " lines as a list. Only the links the
 * template declared (the platform's own, `links`) become anchors: a URL anywhere else in the
 * text, which may be what a person typed (a name, a programme's name, a note), stays text, so
 * nobody can put a link in an email sent in the institution's name.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * A URL as it stands in text: up to whitespace, less trailing punctuation. Only a whole one is
 * compared with the declared links, so a declared link inside a longer URL stays text.
 */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;

/** One line as HTML: escaped, with each declared link (and only those) an anchor. */
function lineOf(line: string, links: ReadonlySet<string>): string {
  let html = "";
  let from = 0;
  for (const match of line.matchAll(URL_IN_TEXT)) {
    if (!links.has(match[0])) continue;
    const url = escapeHtml(match[0]);
    html += `${escapeHtml(line.slice(from, match.index))}<a href="${url}">${url}</a>`;
    from = match.index + match[0].length;
  }
  return html + escapeHtml(line.slice(from));
}

function paragraph(block: string, links: ReadonlySet<string>): string {
  const lines = block.split("\n");
  if (lines.every((line) => line.startsWith("- "))) {
    const items = lines.map((line) => `<li>${lineOf(line.slice(2), links)}</li>`);
    return `<ul>${items.join("")}</ul>`;
  }
  return `<p>${lines.map((line) => lineOf(line, links)).join("<br>\n")}</p>`;
}

/** The HTML alternative of a plain-text email body, `links` (the platform's) as anchors. */
export function htmlOf(text: string, subject: string, links: readonly string[]): string {
  const own = new Set(links);
  const body = text
    .replace(/\r\n/g, "\n")
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== "")
    .map((block) => paragraph(block, own))
    .join("\n");
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}
