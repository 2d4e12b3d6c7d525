import type { OfficeQueueQuery } from "../office/types.ts";

/**
 * The office queue's filters as the address bar holds them (`?status=…&paymentState=…`), so a
 * filtered view can be kept, shared or reloaded, and the CSV link names the same set.
 */
export type QueueFilters = {
  status: string;
  programId: string;
  intakeId: string;
  reviewerId: string;
  paymentState: string;
  scoreMin: string;
  scoreMax: string;
  flag: string;
  search: string;
  ordering: NonNullable<OfficeQueueQuery["ordering"]>;
};

/** The statuses awaiting a decision: what the office works on unless it asks for others. */
export const AWAITING = "submitted,under_review,interviewing";

export const ORDERINGS = [
  "submittedAt",
  "-submittedAt",
  "-score",
  "score",
  "deadline",
  "applicant",
] as const satisfies readonly QueueFilters["ordering"][];

export const PAYMENT_STATES = ["paid", "waived", "not_required", "pending", "unpaid"] as const;
export const FLAGS = ["unassigned", "unscored", "disagreement", "conflict"] as const;

export const DEFAULT_FILTERS: QueueFilters = {
  status: AWAITING,
  programId: "",
  intakeId: "",
  reviewerId: "",
  paymentState: "",
  scoreMin: "",
  scoreMax: "",
  flag: "",
  search: "",
  ordering: "submittedAt",
};

const KEYS = Object.keys(DEFAULT_FILTERS) as (keyof QueueFilters)[];

export function filtersFromAddress(search = location.search): QueueFilters {
  const params = new URLSearchParams(search);
  const filters = { ...DEFAULT_FILTERS };
  for (const key of KEYS) {
    const value = params.get(key);
    if (value !== null) (filters as Record<string, string>)[key] = value;
  }
  if (!(ORDERINGS as readonly string[]).includes(filters.ordering))
    filters.ordering = "submittedAt";
  return filters;
}

/** The filters that differ from the defaults, as a query (`status` always: "" means every one). */
export function addressOf(filters: QueueFilters): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    if (filters[key] !== DEFAULT_FILTERS[key] || key === "status") params.set(key, filters[key]);
  }
  return params.toString();
}

/** The API's query: the filters (an empty status: every status), ordering, the page. */
export function apiQuery(filters: QueueFilters, page?: { limit: number; offset: number }) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key].trim();
    if (value && !(key === "ordering" && !page)) params.set(key, value);
  }
  if (page) {
    params.set("limit", String(page.limit));
    params.set("offset", String(page.offset));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
