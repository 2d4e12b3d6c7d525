import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";
import { type GameEvent, type GameState, HEIGHT, type Input, step, WIDTH } from "./engine.ts";
import { createParticles } from "./particles.ts";
import { createScene } from "./render.ts";

/** Longest step taken at once: after a stall the game slows down rather than jumping. */
const MAX_STEP_S = 0.05;

export type LoopView = {
  /** The line over the canvas (start, paused, over), or none while playing. */
  message: () => string | null;
  /** False under prefers-reduced-motion: no particles, spin or drifting sky. */
  motion: () => boolean;
  /** What the engine reported this frame, in order. */
  onEvents: (events: GameEvent[]) => void;
};

/**
 * One requestAnimationFrame loop for the page's life: steps the game by the real time between
 * frames, hands its events over, and draws. Set up once; it reads the current game and view
 * through refs, so a restart swaps the state without restarting the loop.
 */
export function useGameLoop(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  game: RefObject<GameState>,
  input: RefObject<Input>,
  view: RefObject<LoopView>,
): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const scale = Math.min(window.devicePixelRatio || 1, 2);
    canvas.width = WIDTH * scale;
    canvas.height = HEIGHT * scale;
    const particles = createParticles();
    const scene = createScene(ctx, scale, particles);
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const dt = Math.min((now - last) / 1000, MAX_STEP_S);
      last = now;
      const state = game.current;
      const current = view.current;
      if (state && input.current && current) {
        step(state, input.current, dt);
        if (state.events.length > 0) {
          const events = state.events;
          state.events = [];
          if (current.motion()) {
            for (const e of events)
              if (e.kind === "catch" || e.kind === "hit") particles.burst(e.x, e.y, e.kind);
          }
          current.onEvents(events);
        }
        particles.update(dt);
        scene.draw(state, { message: current.message(), motion: current.motion() });
      }
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, []);
}
