import type { Leaderboard as Board } from "@platform/contracts/leaderboard";
import { useEffect, useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";

/** The top 10, fetched again whenever `version` changes (after each submission). */
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
    void api.leaderboard().then((result) => {
      if (!current) return;
      if (result.ok) {
        setBoard(result.data);
        setFailure(null);
      } else setFailure(result);
    });
    return () => {
      current = false;
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
      {board?.length === 0 && <p>No scores yet: be the first.</p>}
    </section>
  );
}
