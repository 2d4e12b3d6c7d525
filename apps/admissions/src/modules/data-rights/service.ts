import type { Page } from "../../lib/pagination.ts";
import { toPage } from "../../lib/pagination.ts";
import type { User } from "../users/model.ts";
import type { DataRightsDeps } from "./internal/deps.ts";
import type { RequestsQuery } from "./model.ts";
import { findRequest, reload, requestsPage } from "./queries.ts";

/*
 * An applicant's rights over their data: the export (internal/download.ts), erasure requests
 * and their decisions (internal/requests.ts), the erasure itself (internal/erase.ts) and the
 * purge of payment records once their retention ends (internal/purge.ts).
 */
export type { DataRightsDeps } from "./internal/deps.ts";
export { exportData } from "./internal/download.ts";
export { purgeExpiredPayments } from "./internal/purge.ts";
export {
  approveErasure,
  cancelErasure,
  rejectErasure,
  requestErasure,
} from "./internal/requests.ts";

export const listRequests = (
  deps: DataRightsDeps,
  viewer: User,
  query: RequestsQuery,
  page: Page,
  requestUrl: string,
) =>
  deps.db.run(async (sql) => {
    const { count, results } = await requestsPage(sql, viewer, query, page);
    return toPage(requestUrl, page, count, results);
  });

export const getRequest = (deps: DataRightsDeps, viewer: User, id: string) =>
  deps.db.run(async (sql) => {
    await findRequest(sql, id, viewer);
    return reload(sql, id);
  });
