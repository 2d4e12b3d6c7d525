import type { SQL } from "bun";

/**
 * Multi-row INSERTs in chunks: one statement per `chunkSize` rows instead of one per row.
 * 500 rows × ~16 columns stays far below both databases' bound-parameter limits (SQLite
 * 32 766, PostgreSQL 65 535). `table` comes from code, never from input.
 */
export async function insertRows(
  tx: SQL,
  table: string,
  rows: Record<string, unknown>[],
  chunkSize = 500,
): Promise<void> {
  for (let start = 0; start < rows.length; start += chunkSize) {
    await tx`INSERT INTO ${tx(table)} ${tx(rows.slice(start, start + chunkSize))}`;
  }
}
