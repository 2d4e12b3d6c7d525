import { LIVES } from "./engine.ts";
import { formatScore, GAME_TEXT as T } from "./text.ts";

/** The score line above the canvas, as text a screen reader can read on request. */
export function Hud({
  score,
  level,
  lives,
  best,
}: {
  score: number;
  level: number;
  lives: number;
  best: number;
}) {
  return (
    <dl class="hud">
      <div>
        <dt class="hud-label">{T.score}</dt>
        <dd class="hud-value" data-testid="game-score">
          {formatScore(score)}
        </dd>
      </div>
      <div>
        <dt class="hud-label">{T.level}</dt>
        <dd class="hud-value" data-testid="game-level">
          {level}
        </dd>
      </div>
      <div>
        <dt class="hud-label">{T.lives}</dt>
        <dd class="hud-value" data-testid="game-lives" data-lives={lives}>
          <span aria-hidden="true" class="hearts">
            {"♥".repeat(lives)}
            <span class="lost">{"♥".repeat(Math.max(0, LIVES - lives))}</span>
          </span>
          <span class="visually-hidden">{T.livesLeft(lives)}</span>
        </dd>
      </div>
      <div>
        <dt class="hud-label">{T.best}</dt>
        <dd class="hud-value" data-testid="game-best">
          {formatScore(best)}
        </dd>
      </div>
    </dl>
  );
}
