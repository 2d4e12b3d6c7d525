import type { Problem } from "@platform/contracts/problem";
import { ErrorSummary, type SummaryField } from "./ErrorSummary.tsx";

export { fieldError, problemText } from "./problems.ts";

/**
 * A refusal, announced where it happened, in the page's words: the error summary (GOV.UK's),
 * linking to each of `fields` the API named; the sentences beside the fields come from
 * `fieldError`. `testId` names the notice for the page's tests (`login-problem`…).
 */
export function ProblemNotice({
  problem,
  testId,
  fields,
  focus,
}: {
  problem: Problem;
  testId?: string;
  fields?: SummaryField[];
  /** Whether the summary takes the focus when it appears (not in a form saved as typed). */
  focus?: boolean;
}) {
  return (
    <div data-testid={testId}>
      <ErrorSummary problem={problem} fields={fields} focus={focus} />
    </div>
  );
}
