import { useEffect, useRef, useState } from "preact/hooks";
import {
  type GameState,
  HEIGHT,
  type Input,
  newGame,
  scoreOf,
  start,
  step,
  timeIsUp,
  togglePause,
  WIDTH,
} from "./engine.ts";
import { draw } from "./render.ts";

/** Longest step taken at once: after a stall the game slows down rather than jumping. */
const MAX_STEP_S = 0.05;

const KEYS_LEFT = new Set(["ArrowLeft", "a", "A"]);
const KEYS_RIGHT = new Set(["ArrowRight", "d", "D"]);

export function Game({
  onGameOver,
  onRestart,
}: {
  onGameOver: (score: number) => void;
  onRestart: () => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const game = useRef<GameState>(newGame());
  const input = useRef<Input>({ left: false, right: false, targetX: null });
  const [status, setStatus] = useState(game.current.status);
  const [finalScore, setFinalScore] = useState<number | null>(null);
  // Read inside the animation loop, which is set up once.
  const callbacks = useRef({ onGameOver });
  callbacks.current = { onGameOver };

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const scale = Math.min(window.devicePixelRatio || 1, 2);
    canvas.width = WIDTH * scale;
    canvas.height = HEIGHT * scale;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const dt = Math.min((now - last) / 1000, MAX_STEP_S);
      last = now;
      if (step(game.current, input.current, dt)) {
        const score = scoreOf(game.current);
        setStatus("over");
        setFinalScore(score);
        callbacks.current.onGameOver(score);
      }
      draw(ctx, game.current, scale);
      frame = requestAnimationFrame(tick);
    });
    // A hidden tab gets no frames; pause so the player does not come back to a lost game.
    const onHidden = () => {
      if (document.hidden && game.current.status === "running") {
        togglePause(game.current);
        setStatus("paused");
      }
    };
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, []);

  const begin = () => {
    start(game.current);
    setStatus(game.current.status);
    areaRef.current?.focus();
  };
  const pause = () => {
    togglePause(game.current);
    setStatus(game.current.status);
  };
  const restart = () => {
    game.current = newGame();
    input.current = { left: false, right: false, targetX: null };
    setFinalScore(null);
    onRestart();
    begin();
  };

  const onKey = (down: boolean) => (event: KeyboardEvent) => {
    const { key } = event;
    if (KEYS_LEFT.has(key)) input.current.left = down;
    else if (KEYS_RIGHT.has(key)) input.current.right = down;
    else if (!down) return;
    else if (key === " " || key === "Enter") {
      if (status === "over") restart();
      else if (status === "ready") begin();
      else pause();
    } else if (key === "p" || key === "P" || key === "Escape") pause();
    else if (key === "r" || key === "R") restart();
    else return;
    // The page must not scroll while the arrows steer.
    event.preventDefault();
  };

  // Touch and mouse: the paddle follows the finger along the canvas.
  const onPointer = (event: PointerEvent) => {
    const canvas = canvasRef.current;
    if (!canvas || (event.type === "pointermove" && event.buttons === 0)) return;
    const box = canvas.getBoundingClientRect();
    input.current.targetX = ((event.clientX - box.left) / box.width) * WIDTH;
  };
  const release = () => {
    input.current.targetX = null;
  };
  const hold = (side: "left" | "right") => ({
    onPointerDown: () => {
      input.current[side] = true;
    },
    onPointerUp: () => {
      input.current[side] = false;
    },
    onPointerLeave: () => {
      input.current[side] = false;
    },
  });

  return (
    <section aria-labelledby="game-heading">
      <h2 id="game-heading" class="visually-hidden">
        Game
      </h2>
      {/* The focusable wrapper takes the keys; the canvas itself is only a picture. */}
      <div
        class="game-area"
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: role="application" is a widget that takes keys itself; Biome does not count it as interactive.
        tabIndex={0}
        ref={areaRef}
        data-testid="game-area"
        aria-label="Game area. Left and right arrow keys (or A and D) move; Space starts or pauses; P pauses; R restarts."
        onKeyDown={onKey(true)}
        onKeyUp={onKey(false)}
        onPointerDown={onPointer}
        onPointerMove={onPointer}
        onPointerUp={release}
        onPointerCancel={release}
      >
        <canvas ref={canvasRef} class="game-canvas" />
      </div>
      <div class="row">
        {status === "ready" && (
          <button type="button" onClick={begin}>
            Start
          </button>
        )}
        {(status === "running" || status === "paused") && (
          <button type="button" onClick={pause} data-testid="game-pause">
            {status === "paused" ? "Resume" : "Pause"}
          </button>
        )}
        {status !== "ready" && (
          <button type="button" class="secondary" onClick={restart}>
            Restart
          </button>
        )}
        <p role="status" data-testid="game-status">
          {status === "over"
            ? `${timeIsUp(game.current) ? "Time's up: an hour of play" : "Game over"}. Your score: ${finalScore}`
            : status === "paused"
              ? "Paused"
              : ""}
        </p>
      </div>
      <div class="touch-controls" aria-hidden="true">
        <button type="button" tabIndex={-1} {...hold("left")}>
          ◀
        </button>
        <button type="button" tabIndex={-1} {...hold("right")}>
          ▶
        </button>
      </div>
    </section>
  );
}
