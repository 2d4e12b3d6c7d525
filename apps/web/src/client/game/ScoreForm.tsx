import type { SubmittedEntry } from "@platform/contracts/leaderboard";
import { PLAYER_NAME_MAX } from "@platform/contracts/limits";
import { useEffect, useRef, useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";
import { describeProblem } from "../shared/problem-text.ts";
import { useCountdown } from "../shared/useCountdown.ts";
import { formatScore, GAME_TEXT as T } from "./text.ts";

type Props = { score: number; onSubmitted: (entry: SubmittedEntry) => void };

/**
 * At game over: the player's name, sent with the score. The rule is said in words beside the
 * field before anything is sent; the API is its one judge (apps/leaderboard normalizePlayerName),
 * so its 422 is shown next to the field instead of a second check here that could disagree.
 */
export function ScoreForm({ score, onSubmitted }: Props) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [saved, setSaved] = useState<SubmittedEntry | null>(null);
  const wait = useCountdown(failure?.status === 429 ? failure.retryAfter : null, failure);
  const input = useRef<HTMLInputElement>(null);

  // Keyboard players land in the name field when the game ends.
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const result = await api.submitScore({ playerName: name, score });
    setBusy(false);
    if (result.ok) {
      setSaved(result.data);
      setFailure(null);
      onSubmitted(result.data);
    } else setFailure(result);
  };

  if (saved) {
    return (
      <p class="success" role="status" data-testid="score-rank">
        {saved.rank === null
          ? T.savedOut(saved.playerName, formatScore(saved.score))
          : T.savedRank(saved.playerName, saved.rank)}
      </p>
    );
  }
  const fieldError = failure
    ? describeProblem(failure).fields.find((e) => e.path === "/body/playerName")
    : undefined;
  return (
    <form onSubmit={submit} aria-label={T.formLabel} data-score={score}>
      {failure && (
        <div id="score-problem">
          <ProblemMessage
            failure={failure}
            testId="score-error"
            fields={{ "/body/playerName": "score-name" }}
          />
        </div>
      )}
      <div class="row">
        <label for="score-name">{T.nameLabel}</label>
        <input
          id="score-name"
          ref={input}
          data-testid="score-name"
          autocomplete="nickname"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-invalid={fieldError ? "true" : undefined}
          aria-describedby={fieldError ? "score-name-hint score-name-error" : "score-name-hint"}
        />
        <button type="submit" data-testid="score-submit" disabled={busy || wait > 0}>
          {wait > 0 ? T.wait(wait) : T.submit}
        </button>
      </div>
      {fieldError && (
        <p class="field-error" id="score-name-error">
          {fieldError.text}
        </p>
      )}
      <p class="hint" id="score-name-hint" data-testid="score-name-hint">
        {T.nameRule(PLAYER_NAME_MAX)}
      </p>
    </form>
  );
}
