import { useState } from "preact/hooks";
import { mount } from "../shared/mount.ts";
import { Game } from "./Game.tsx";
import { Leaderboard } from "./Leaderboard.tsx";
import { ScoreForm } from "./ScoreForm.tsx";

function GamePage() {
  const [score, setScore] = useState<number | null>(null);
  // A new round (Restart) gets a fresh form; the board refreshes after each submission.
  const [round, setRound] = useState(0);
  const [version, setVersion] = useState(0);
  const [lastId, setLastId] = useState<string | null>(null);
  return (
    <div class="game-layout">
      <div>
        <Game
          onGameOver={setScore}
          onRestart={() => {
            setScore(null);
            setRound((n) => n + 1);
          }}
        />
        {score !== null && (
          <ScoreForm
            key={round}
            score={score}
            onSubmitted={(entry) => {
              setLastId(entry.id);
              setVersion((n) => n + 1);
            }}
          />
        )}
      </div>
      <Leaderboard version={version} highlightId={lastId} />
    </div>
  );
}

mount(<GamePage />);
