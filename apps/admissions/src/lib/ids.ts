/** Time-ordered (UUIDv7) ids: unguessable enough for URLs, and index-friendly on both databases. */
export const newId = (): string => Bun.randomUUIDv7();

/** The canonical timestamp text stored in every TIMESTAMPTZ column (sorts correctly in SQLite). */
export const isoAt = (ms: number): string => new Date(ms).toISOString();
