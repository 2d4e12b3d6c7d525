import {
  type GameState,
  HEIGHT,
  HIT_GRACE_S,
  PLAYER_HEIGHT,
  PLAYER_WIDTH,
  PLAYER_Y,
  WIDTH,
} from "./engine.ts";
import type { Particles } from "./particles.ts";
import { ROCK_RADIUS, ROCK_VARIANTS, rockSprite, type Sprite, starSprite } from "./sprites.ts";

/** The paddle's colour: the browser tests find the paddle by it in the row through its middle. */
export const PADDLE_COLOUR = "#7fd1ff";

export type Scene = {
  draw: (state: GameState, view: { message: string | null; motion: boolean }) => void;
};

/** A fixed starfield, so the sky looks the same every game. */
const SKY = Array.from({ length: 60 }, (_, i) => ({
  x: (i * 97) % WIDTH,
  y: (i * 61) % HEIGHT,
  size: i % 7 === 0 ? 2 : 1,
  speed: 6 + (i % 5) * 5,
}));

export function createScene(
  ctx: CanvasRenderingContext2D,
  scale: number,
  particles: Particles,
): Scene {
  const star: Sprite = starSprite(9, scale);
  const rocks = Array.from({ length: ROCK_VARIANTS }, (_, v) => rockSprite(v, scale));
  let skyTime = 0;
  let last = performance.now();

  return {
    draw(state, { message, motion }) {
      const now = performance.now();
      if (motion) skyTime += (now - last) / 1000;
      last = now;
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      const sky = ctx.createLinearGradient(0, 0, 0, HEIGHT);
      sky.addColorStop(0, "#0b1830");
      sky.addColorStop(1, "#1a3558");
      ctx.fillStyle = sky;
      ctx.fillRect(0, 0, WIDTH, HEIGHT);
      ctx.fillStyle = "rgba(255, 255, 255, 0.6)";
      for (const dot of SKY) {
        const y = (dot.y + skyTime * dot.speed) % HEIGHT;
        ctx.fillRect(dot.x, y, dot.size, dot.size);
      }
      for (const thing of state.things) {
        if (thing.kind === "star") {
          ctx.drawImage(star.image, thing.x - 18, thing.y - 18, star.size, star.size);
          continue;
        }
        const sprite = rocks[thing.id % ROCK_VARIANTS] ?? star;
        const size = (sprite.size * thing.r) / ROCK_RADIUS;
        ctx.save();
        ctx.translate(thing.x, thing.y);
        if (motion) ctx.rotate(state.elapsed * (thing.id % 2 ? 1.2 : -0.9));
        ctx.drawImage(sprite.image, -size / 2, -size / 2, size, size);
        ctx.restore();
      }
      drawPaddle(ctx, state);
      if (motion) particles.draw(ctx);
      if (message) drawMessage(ctx, message);
    },
  };
}

function drawPaddle(ctx: CanvasRenderingContext2D, state: GameState): void {
  const left = state.playerX - PLAYER_WIDTH / 2;
  // The body: one solid colour across its middle row (the tests read it), a cockpit above it.
  ctx.fillStyle = PADDLE_COLOUR;
  ctx.fillRect(left, PLAYER_Y, PLAYER_WIDTH, PLAYER_HEIGHT);
  ctx.fillStyle = "#2b7bb0";
  ctx.fillRect(left, PLAYER_Y + PLAYER_HEIGHT - 3, PLAYER_WIDTH, 3);
  ctx.fillStyle = "#d8f3ff";
  ctx.beginPath();
  ctx.ellipse(state.playerX, PLAYER_Y, 10, 6, 0, Math.PI, 0);
  ctx.fill();
  ctx.fillStyle = "#ff9f43";
  ctx.fillRect(left + 6, PLAYER_Y + PLAYER_HEIGHT, 6, 3);
  ctx.fillRect(left + PLAYER_WIDTH - 12, PLAYER_Y + PLAYER_HEIGHT, 6, 3);
  if (state.graceLeft > 0) {
    // The grace after a hit: a shield over the paddle that fades as it runs out.
    ctx.strokeStyle = `rgba(127, 209, 255, ${(0.3 + 0.7 * (state.graceLeft / HIT_GRACE_S)).toFixed(2)})`;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.ellipse(state.playerX, PLAYER_Y + 2, PLAYER_WIDTH / 2 + 8, 18, 0, Math.PI, 0);
    ctx.stroke();
  }
}

function drawMessage(ctx: CanvasRenderingContext2D, message: string): void {
  ctx.fillStyle = "rgba(0, 0, 0, 0.6)";
  ctx.fillRect(0, HEIGHT / 2 - 30, WIDTH, 60);
  ctx.fillStyle = "#ffffff";
  ctx.font = "bold 20px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.fillText(message, WIDTH / 2, HEIGHT / 2 + 7);
}
