import { useState } from "preact/hooks";
import { mount } from "../shared/mount.ts";
import { Game } from "./Game.tsx";
import { GameOverPanel } from "./GameOverPanel.tsx";
import { Leaderboard } from "./Leaderboard.tsx";

function GamePage() {
  // A new round gets a fresh form; the board is read again after each submission.
  const [round, setRound] = useState(0);
  const [version, setVersion] = useState(0);
  const [lastId, setLastId] = useState<string | null>(null);
  return (
    <div class="game-layout">
      <Game
        onRestart={() => setRound((n) => n + 1)}
        renderOver={(over, playAgain) => (
          <GameOverPanel
            key={round}
            over={over}
            playAgain={playAgain}
            onSubmitted={(entry) => {
              setLastId(entry.id);
              setVersion((n) => n + 1);
            }}
          />
        )}
      />
      <Leaderboard version={version} highlightId={lastId} />
    </div>
  );
}

mount(<GamePage />);
