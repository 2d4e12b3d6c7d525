import type { Leaderboard as Board } from "@platform/contracts/leaderboard";
import { useEffect, useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";

/** Others play too: the board is read again this often while the page is visible. */
const REFRESH_MS = 30_000;

/** The top 10, read again after each submission (`version`) and every 30 s while visible. */
export function Leaderboard({
  version,
  highlightId,
}: {
  version: number;
  highlightId: string | null;
}) {
  const [board, setBoard] = useState<Board | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  useEffect(() => {
    let current = true;
    const read = () =>
      void api.leaderboard().then((result) => {
        if (!current) return;
        if (result.ok) {
          setBoard(result.data);
          setFailure(null);
        } else setFailure(result);
      });
    read();
    const timer = setInterval(() => {
      if (!document.hidden) read();
    }, REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [version]);

  return (
    <section aria-labelledby="leaderboard-heading" class="panel">
      <h2 id="leaderboard-heading">Top 10</h2>
      {failure && <ProblemMessage failure={failure} />}
      <table data-testid="leaderboard" aria-busy={board === null && failure === null}>
        <thead>
          <tr>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">Player</th>
            <th scope="col" class="num">
              Score
            </th>
          </tr>
        </thead>
        <tbody>
          {board?.map((entry, i) => (
            <tr
              key={entry.id}
              data-testid="leaderboard-row"
              aria-current={entry.id === highlightId ? "true" : undefined}
            >
              <td class="num">{i + 1}</td>
              <td>{entry.playerName}</td>
              <td class="num">{entry.score.toLocaleString("en")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {board === null && failure === null && (
        <p data-testid="leaderboard-loading">Loading the top 10…</p>
      )}
      {board?.length === 0 && <p data-testid="leaderboard-empty">No scores yet: be the first.</p>}
    </section>
  );
}
