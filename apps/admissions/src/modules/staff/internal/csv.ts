/**
 * One CSV field (RFC 4180): always quoted, quotes doubled. A cell a spreadsheet would read as
 * a formula (starting with =, +, -, @, or a tab or carriage return that some strip first) is
 * prefixed with an apostrophe, so an applicant's name cannot run code on a staff machine
 * (OWASP "CSV injection").
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '""';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. */
export const csvRow = (values: readonly (string | number | null)[]): string =>
  `${values.map(csvField).join(",")}\r\n`;
