import type { ApiFailure } from "./api.ts";

/** An API failure as the user reads it: the detail, each field error, and when to retry. */
export function ProblemMessage({ failure, testId }: { failure: ApiFailure; testId?: string }) {
  const { problem, retryAfter } = failure;
  return (
    <div class="problem" role="alert" data-testid={testId}>
      <p>
        <strong>{problem.title}.</strong> {problem.detail}
      </p>
      {problem.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
      {retryAfter !== null && (
        <p>
          Try again in {retryAfter} second{retryAfter === 1 ? "" : "s"}.
        </p>
      )}
    </div>
  );
}
