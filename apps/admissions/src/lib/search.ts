/**
 * A LIKE pattern matching `term` anywhere, case-insensitively, with the term's own `%`, `_`
 * and `\` taken literally. Queries use it as `lower(column) LIKE ${pattern} ESCAPE '\'`, which
 * both databases read the same way; the term is always a bound parameter, never SQL text.
 */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
