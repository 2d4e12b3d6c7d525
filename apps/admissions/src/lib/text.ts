import { FormatRegistry } from "@sinclair/typebox";
import { GetErrorFunction, SetErrorFunction, ValueErrorType } from "@sinclair/typebox/errors";
import { t } from "elysia";

/*
 * Person-facing text: what people type for other people to read (names, labels, places,
 * statements, reasons, notes). It reaches emails sent in the institution's name, staff's
 * screens, PDFs and CSV exports, so characters that are not text are refused at the door:
 *
 * - C0 controls (U+0000–U+001F), DEL and the C1 controls (U+007F–U+009F): line breaks forge
 *   paragraphs (or headers) in an email, escapes drive terminals, NUL cuts strings short;
 * - the Unicode line and paragraph separators (U+2028, U+2029): line breaks by another name;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they
 *   reorder the text around them, so "Dear <name>," can show words the sender never wrote
 *   where they sit. The bidi marks (U+200E, U+200F, U+061C) stay: they are how right-to-left
 *   names are written, and reorder nothing but themselves.
 *
 * One-line text (a name) holds none of them, tab included. Multi-line text (a statement, a
 * reason) may also hold line feeds, carriage returns and tabs. Neither may be blank: all
 * whitespace. An empty string is left to each field's minLength.
 */

/** The two rules, as JSON Schema `format`s: the published document shows which field has which. */
export const SINGLE_LINE_TEXT = "single-line-text";
export const MULTI_LINE_TEXT = "multi-line-text";

/** `\p{Cc}` is exactly C0, DEL and C1 (U+0000–U+001F, U+007F–U+009F). */
const NOT_TEXT = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const NOT_TEXT_IN_LINES = /(?![\t\n\r])[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Why `value` breaks `format`'s rule, in words for the person who typed it; null if it does not. */
export function textProblem(format: string, value: string): string | null {
  if (value !== "" && value.trim() === "") return "must not be blank";
  if (format === SINGLE_LINE_TEXT && NOT_TEXT.test(value)) {
    return "must be one line, without tabs or other control characters";
  }
  if (format === MULTI_LINE_TEXT && NOT_TEXT_IN_LINES.test(value)) {
    return "must not contain control characters other than line breaks and tabs";
  }
  return null;
}

for (const format of [SINGLE_LINE_TEXT, MULTI_LINE_TEXT]) {
  FormatRegistry.Set(format, (value) => textProblem(format, value) === null);
}

// A refusal says why in words (the 422's `errors[].message`, shown beside the field by the
// portal), not "Expected string to match 'single-line-text' format". TypeBox's own hook for
// its messages; every other message stays TypeBox's.
const typeboxMessage = GetErrorFunction();
SetErrorFunction((error) => {
  const format = (error.schema as { format?: unknown }).format;
  if (error.errorType === ValueErrorType.StringFormat && typeof format === "string") {
    const words = typeof error.value === "string" ? textProblem(format, error.value) : null;
    if (words) return words;
  }
  return typeboxMessage(error);
});

type StringOptions = NonNullable<Parameters<typeof t.String>[0]>;

/**
 * One line a person reads: a name, a label, a place. Request bodies only: responses carry what
 * was stored, which this rule must not turn into errors.
 */
export const singleLineText = (options: StringOptions) =>
  t.String({ ...options, format: SINGLE_LINE_TEXT });

/** Text a person writes at length (a statement, a reason, a note): lines and tabs allowed. */
export const multiLineText = (options: StringOptions) =>
  t.String({ ...options, format: MULTI_LINE_TEXT });
