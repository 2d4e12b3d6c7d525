import type { ComponentChildren } from "preact";
import type { PageOf } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { Pager } from "./Pager.tsx";
import { ScrollTable } from "./ScrollTable.tsx";

/**
 * One page of a staff list as a table: how many there are in all (announced to screen readers
 * as it changes), a row per entry, and previous / next. The audit log, the outbox and the staff
 * users are each this with their own columns.
 */
export function PagedTable<T>(props: {
  /** What usePaged gives (spread it in): nothing is shown until a page has come. */
  page: PageOf<T> | null;
  offset: number;
  setOffset: (offset: number) => void;
  /** The table's data-testid. */
  testId: string;
  /** The table's caption, for screen readers (the page's heading says it to everyone else). */
  caption: MessageKey;
  /** The column headings, in order. */
  columns: MessageKey[];
  /** One `<tr>` per entry, its cells in the columns' order. */
  row: (entry: T) => ComponentChildren;
}) {
  const { page } = props;
  if (!page) return null;
  return (
    <>
      <p role="status">{t("staff.list.count", { count: page.count })}</p>
      <ScrollTable label={t(props.caption)}>
        <table data-testid={props.testId}>
          <caption class="visually-hidden">{t(props.caption)}</caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th scope="col" key={column}>
                  {t(column)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{page.results.map(props.row)}</tbody>
        </table>
      </ScrollTable>
      <Pager offset={props.offset} count={page.count} onGo={props.setOffset} />
    </>
  );
}
