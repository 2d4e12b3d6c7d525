import type { SubmittedEntry } from "@platform/contracts/leaderboard";
import { useEffect, useRef, useState } from "preact/hooks";
import type { GameOver } from "./Game.tsx";
import { ScoreForm } from "./ScoreForm.tsx";
import { formatScore, GAME_TEXT as T } from "./text.ts";

/**
 * Straight after the last life: the score, the personal best, and the name field with the
 * keyboard already in it. Once sent, "Play again" takes the focus, so Enter plays on.
 */
export function GameOverPanel({
  over,
  playAgain,
  onSubmitted,
}: {
  over: GameOver;
  playAgain: () => void;
  onSubmitted: (entry: SubmittedEntry) => void;
}) {
  const [sent, setSent] = useState(false);
  const again = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sent) again.current?.focus();
  }, [sent]);
  return (
    <section class="panel game-over" data-testid="game-over" aria-labelledby="game-over-heading">
      <h2 id="game-over-heading">{over.timeUp ? T.timeUp : T.over}</h2>
      <p>
        {T.finalScore(formatScore(over.score))}{" "}
        <strong data-testid="game-best-news">
          {over.newBest ? T.newBest : T.bestWas(formatScore(over.best))}
        </strong>
      </p>
      <ScoreForm
        score={over.score}
        onSubmitted={(entry) => {
          setSent(true);
          onSubmitted(entry);
        }}
      />
      <button type="button" ref={again} class="secondary" onClick={playAgain}>
        {T.playAgain}
      </button>
    </section>
  );
}
