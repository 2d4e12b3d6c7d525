import type { ApiFailure } from "./api.ts";
import { describeProblem } from "./problem-text.ts";

/**
 * An API failure as a person reads it: what happened in words, each field problem linked to its
 * field (GOV.UK's error summary), when to try again, and the request id to quote.
 */
export function ProblemMessage({
  failure,
  testId,
  fields = {},
}: {
  failure: ApiFailure;
  testId?: string;
  /** The id of the input for each field path, so its problem links to it. */
  fields?: Record<string, string>;
}) {
  const text = describeProblem(failure);
  const { requestId } = failure.problem;
  return (
    <div class="problem" role="alert" data-testid={testId} data-code={failure.problem.code}>
      <p>
        <strong>{text.summary}</strong>
      </p>
      {text.fields.length > 0 && (
        <ul>
          {text.fields.map((field) => {
            const id = fields[field.path];
            return (
              <li key={field.path}>{id ? <a href={`#${id}`}>{field.text}</a> : field.text}</li>
            );
          })}
        </ul>
      )}
      {text.retry && <p>{text.retry}</p>}
      {requestId && <p class="hint">Reference: {requestId}</p>}
    </div>
  );
}
