import type { ComponentChild } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  type GameEvent,
  type GameState,
  type Input,
  newGame,
  pause as pauseIfRunning,
  scoreOf,
  start,
  timeIsUp,
  togglePause,
  WIDTH,
} from "./engine.ts";
import { Hud } from "./Hud.tsx";
import { listenForKeys } from "./keys.ts";
import { createSound } from "./sound.ts";
import { offerBest, readBest, readMuted, writeMuted } from "./storage.ts";
import { GAME_TEXT as T } from "./text.ts";
import { type LoopView, useGameLoop } from "./useGameLoop.ts";
import { useMedia } from "./useMedia.ts";

export type GameOver = { score: number; best: number; newBest: boolean; timeUp: boolean };

const idle = (): Input => ({ left: false, right: false, targetX: null });

export function Game({
  renderOver,
  onRestart,
}: {
  /** What follows the canvas at game over (the score form); `playAgain` starts a new game. */
  renderOver: (over: GameOver, playAgain: () => void) => ComponentChild;
  onRestart: () => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const game = useRef<GameState>(newGame());
  const input = useRef<Input>(idle());
  const [status, setStatus] = useState(game.current.status);
  const [hud, setHud] = useState({ score: 0, level: 1, lives: game.current.lives });
  const [best, setBest] = useState(readBest);
  const [over, setOver] = useState<GameOver | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [muted, setMuted] = useState(readMuted);
  const sound = useMemo(() => createSound(readMuted()), []);
  const reducedMotion = useMedia("(prefers-reduced-motion: reduce)");
  const touch = useMedia("(pointer: coarse)");

  const begin = () => {
    if (game.current.status === "ready") sound.play("start");
    start(game.current);
    setStatus(game.current.status);
    setAnnouncement("");
  };
  const pause = () => {
    togglePause(game.current);
    setStatus(game.current.status);
    setAnnouncement(game.current.status === "paused" ? T.paused : "");
  };
  const restart = () => {
    game.current = newGame();
    input.current = idle();
    setOver(null);
    setHud({ score: 0, level: 1, lives: game.current.lives });
    onRestart();
    begin();
  };
  const toggleMute = () => {
    setMuted((was) => {
      sound.setMuted(!was);
      writeMuted(!was);
      return !was;
    });
  };

  const onEvents = (events: GameEvent[]) => {
    const state = game.current;
    for (const event of events) {
      if (event.kind === "catch") sound.play("catch");
      else if (event.kind === "level") {
        sound.play("level");
        setAnnouncement(T.levelUp(event.level));
      } else if (event.kind === "hit") {
        sound.play(event.livesLeft > 0 ? "hit" : "over");
        if (event.livesLeft > 0) setAnnouncement(T.hit(event.livesLeft));
      } else if (event.kind === "over") {
        const score = scoreOf(state);
        const newBest = offerBest(score);
        if (newBest) setBest(score);
        setStatus("over");
        setAnnouncement("");
        setOver({ score, best: Math.max(best, score), newBest, timeUp: timeIsUp(state) });
      }
    }
  };
  // The loop reads these each frame; a fresh object per render keeps them current.
  const view = useRef<LoopView>({ message: () => null, motion: () => true, onEvents });
  view.current = {
    message: () =>
      status === "ready"
        ? touch
          ? T.canvasReadyTouch
          : T.canvasReadyKeys
        : status === "paused"
          ? T.canvasPaused
          : status === "over"
            ? T.canvasOver
            : null,
    motion: () => !reducedMotion,
    onEvents,
  };
  useGameLoop(canvasRef, game, input, view);

  // The score line changes once a second at most (seconds, stars): read it a few times a second
  // instead of re-rendering the page every frame.
  useEffect(() => {
    const timer = setInterval(() => {
      const state = game.current;
      const next = { score: scoreOf(state), level: state.level, lives: state.lives };
      setHud((was) =>
        was.score === next.score && was.level === next.level && was.lives === next.lives
          ? was
          : next,
      );
    }, 100);
    return () => clearInterval(timer);
  }, []);

  // Keys on the whole page; a hidden tab pauses the game, so no one comes back to a lost one.
  const keys = useRef({ begin, pause, restart, toggleMute, status });
  keys.current = { begin, pause, restart, toggleMute, status };
  useEffect(() => {
    const stop = listenForKeys({
      steer: (side, down) => {
        input.current[side] = down;
      },
      primary: () => {
        const { status: now, begin: go, pause: hold, restart: again } = keys.current;
        if (now === "over") again();
        else if (now === "ready") go();
        else hold();
      },
      pause: () => keys.current.status !== "ready" && keys.current.pause(),
      restart: () => keys.current.restart(),
      mute: () => keys.current.toggleMute(),
      gesture: () => sound.unlock(),
    });
    const onHidden = () => {
      if (document.hidden && pauseIfRunning(game.current)) {
        setStatus("paused");
        setAnnouncement(T.paused);
      }
    };
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, []);

  // Touch and mouse: the ship follows the finger along the canvas.
  const onPointer = (event: PointerEvent) => {
    sound.unlock();
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
    <section aria-labelledby="game-heading" class="game">
      <h2 id="game-heading" class="visually-hidden">
        {T.heading}
      </h2>
      <Hud {...hud} best={best} />
      {/* Focusable so a keyboard user can land on the game; the keys are read page-wide. */}
      <div
        class="game-area"
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: role="application" is a widget that takes keys itself; Biome does not count it as interactive.
        tabIndex={0}
        data-testid="game-area"
        data-motion={reducedMotion ? "reduced" : "full"}
        aria-label={T.area}
        onPointerDown={onPointer}
        onPointerMove={onPointer}
        onPointerUp={release}
        onPointerCancel={release}
      >
        <canvas ref={canvasRef} class="game-canvas" data-testid="game-canvas" />
      </div>
      <div class="touch-controls" aria-hidden="true">
        <button type="button" tabIndex={-1} {...hold("left")}>
          ◀
        </button>
        <button type="button" tabIndex={-1} {...hold("right")}>
          ▶
        </button>
      </div>
      <div class="row game-controls">
        {status === "ready" && (
          <button type="button" onClick={begin}>
            {T.start}
          </button>
        )}
        {(status === "running" || status === "paused") && (
          <button type="button" onClick={pause} data-testid="game-pause">
            {status === "paused" ? T.resume : T.pause}
          </button>
        )}
        {(status === "running" || status === "paused") && (
          <button type="button" class="secondary" onClick={restart}>
            {T.restart}
          </button>
        )}
        <button
          type="button"
          class="secondary toggle"
          data-testid="sound-toggle"
          aria-pressed={!muted}
          onClick={() => {
            sound.unlock();
            toggleMute();
          }}
        >
          {T.soundLabel}
        </button>
        <p role="status" data-testid="game-status" class="game-status">
          {announcement}
        </p>
      </div>
      <p class="hint">{touch ? T.touchHelp : T.keysHelp}</p>
      {over && renderOver(over, restart)}
    </section>
  );
}
