import type { MessageKey } from "../i18n/index.ts";
import { t } from "../i18n/use.ts";

/** One term and its value in a `<dl>` (a receipt's, the bank details'), its words from the catalogue. */
export const termRow = (key: MessageKey, value: string, testId?: string) => (
  <div>
    <dt>{t(key)}</dt>
    <dd data-testid={testId}>{value}</dd>
  </div>
);
