/*
 * Bulk changes, the CSV export and the statistics staff run over many applications.
 * The module's public face: its controller and the app's wiring import from here.
 */
export { type BulkDeps, bulkTransition } from "./internal/bulk.ts";
export { csvField, csvRow } from "./internal/csv.ts";
export { exportApplications } from "./internal/export.ts";
export { applicationStats } from "./internal/stats.ts";
