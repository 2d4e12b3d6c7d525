import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { QUEUE_PAGE } from "../api.ts";
import { officeApi, queueExportUrl } from "../office/api.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import type { StaffSession } from "../ui/session.ts";
import { BulkActions } from "./BulkActions.tsx";
import { BulkAssign } from "./BulkAssign.tsx";
import {
  addressOf,
  apiQuery,
  filtersFromAddress,
  ORDERINGS,
  type QueueFilters,
} from "./filters.ts";
import { OfficeQueueTable } from "./OfficeQueueTable.tsx";
import { QueueFilterForm } from "./QueueFilterForm.tsx";

/**
 * The admin's queue: filters, sort, the counts per status, a page of rows from the API (it
 * filters, sorts and pages: 10,000 applications cost one page here), the CSV of the filtered
 * set, and work on the ticked rows (moves, a reviewer).
 */
export function OfficeQueue({ session }: { session: StaffSession }) {
  const [filters, setFilters] = useState<QueueFilters>(filtersFromAddress());
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [reloads, setReloads] = useState(0);
  const query = apiQuery(filters, { limit: QUEUE_PAGE, offset });
  const queue = useLoad(session, () => officeApi.queue(query), [query, reloads]);
  const apply = (next: QueueFilters) => {
    setOffset(0);
    setSelected([]);
    setFilters(next);
    const address = addressOf(next);
    history.replaceState(null, "", address ? `?${address}` : location.pathname);
  };
  const rows = queue.data?.results ?? [];
  const names = Object.fromEntries(
    rows.map((r) => [r.application.id, r.application.applicant.fullName]),
  );
  const moved = () => {
    setSelected([]);
    setReloads((n) => n + 1);
  };
  return (
    <>
      <QueueFilterForm
        session={session}
        filters={filters}
        counts={queue.data?.countsByStatus ?? null}
        onApply={apply}
      />
      <div class="queue-tools">
        <div class="field">
          <label for="queue-sort">{t("office.queue.sort")}</label>
          <select
            id="queue-sort"
            value={filters.ordering}
            onChange={(e) =>
              apply({ ...filters, ordering: inputValue(e) as QueueFilters["ordering"] })
            }
            data-testid="queue-sort"
          >
            {ORDERINGS.map((o) => (
              <option key={o} value={o}>
                {t(`office.queue.sort.${o}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <a href={queueExportUrl(apiQuery(filters))} download data-testid="queue-export">
          {t("office.queue.export")}
        </a>
      </div>
      <Loaded loading={!queue.data} failure={queue.failure}>
        {queue.data && (
          <>
            <p role="status" data-testid="queue-count" aria-busy={queue.loading}>
              {t("staff.queue.count", { count: queue.data.count })}
            </p>
            {/* The table stays (staff-queue is the queue whether or not it has rows); an empty
                one is said in words below its headings. */}
            <OfficeQueueTable
              rows={rows}
              selected={selected}
              onTick={(id, on) =>
                setSelected((now) => (on ? [...now, id] : now.filter((x) => x !== id)))
              }
            />
            {rows.length === 0 && <p data-testid="queue-empty">{t("office.queue.none")}</p>}
            <nav aria-label={t("programs.pages")} class="pager">
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - QUEUE_PAGE))}
              >
                {t("common.previous")}
              </button>
              <span class="muted">
                {t("office.queue.pageOf", {
                  page: Math.floor(offset / QUEUE_PAGE) + 1,
                  pages: Math.max(1, Math.ceil(queue.data.count / QUEUE_PAGE)),
                })}
              </span>
              <button
                type="button"
                disabled={offset + QUEUE_PAGE >= queue.data.count}
                onClick={() => setOffset(offset + QUEUE_PAGE)}
                data-testid="queue-next"
              >
                {t("common.next")}
              </button>
            </nav>
            <div class="bulk-tools">
              <BulkActions selected={selected} onMoved={moved} />
              <BulkAssign session={session} selected={selected} names={names} onAssigned={moved} />
            </div>
          </>
        )}
      </Loaded>
    </>
  );
}
