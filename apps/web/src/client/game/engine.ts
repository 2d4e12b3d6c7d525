import { GAME_SECONDS_MAX } from "@platform/contracts/limits";

/**
 * Star catcher's rules, with no DOM: the loop feeds it input and elapsed time, the renderer
 * draws what it holds, and the tests drive it directly. State is mutated in place because it
 * is stepped 60 times a second and nothing else keeps old copies.
 */
export const WIDTH = 480;
export const HEIGHT = 360;
export const PLAYER_WIDTH = 56;
export const PLAYER_HEIGHT = 14;
export const PLAYER_Y = HEIGHT - 28;
const PLAYER_SPEED = 300; // units per second
export const STAR_POINTS = 10;

export type Status = "ready" | "running" | "paused" | "over";
export type Thing = { kind: "star" | "rock"; x: number; y: number; r: number; vy: number };
export type Input = {
  left: boolean;
  right: boolean /** Where a finger or pointer is, if down. */;
  targetX: number | null;
};

export type GameState = {
  status: Status;
  playerX: number;
  things: Thing[];
  stars: number;
  elapsed: number;
  spawnIn: number;
  random: () => number;
};

/** Small, seedable PRNG (mulberry32), so a test can replay the same game. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function newGame(random: () => number = Math.random): GameState {
  return {
    status: "ready",
    playerX: WIDTH / 2,
    things: [],
    stars: 0,
    elapsed: 0,
    spawnIn: FIRST_SPAWN_S,
    random,
  };
}

/** Stars are worth 10; every whole second survived is worth 1. */
export const scoreOf = (state: GameState) => state.stars * STAR_POINTS + Math.floor(state.elapsed);

/** The fastest the game goes: 4× its starting speed and rate. */
export const LEVEL_MAX = 4;
/** When the first thing falls, and the shortest gap before the next at speed 1. */
export const FIRST_SPAWN_S = 0.5;
export const SPAWN_GAP_MIN_S = 0.55;

/** The game speeds up over the first two minutes, then holds. */
const difficulty = (elapsed: number) => Math.min(1 + elapsed / 40, LEVEL_MAX);

function spawn(state: GameState): void {
  const level = difficulty(state.elapsed);
  const rock = state.random() < 0.55;
  const r = rock ? 12 + state.random() * 10 : 9;
  state.things.push({
    kind: rock ? "rock" : "star",
    x: r + state.random() * (WIDTH - 2 * r),
    y: -r,
    r,
    vy: (90 + state.random() * 60) * level,
  });
  state.spawnIn = (SPAWN_GAP_MIN_S + state.random() * 0.45) / level;
}

/** Does a falling circle touch the paddle (nearest point of the rectangle within the radius)? */
function touches(thing: Thing, playerX: number): boolean {
  const nearestX = Math.max(
    playerX - PLAYER_WIDTH / 2,
    Math.min(thing.x, playerX + PLAYER_WIDTH / 2),
  );
  const nearestY = Math.max(PLAYER_Y, Math.min(thing.y, PLAYER_Y + PLAYER_HEIGHT));
  return (thing.x - nearestX) ** 2 + (thing.y - nearestY) ** 2 <= thing.r ** 2;
}

/**
 * Advances a running game by `dt` seconds. Returns true when this step ended it: a rock, or the
 * hour (GAME_SECONDS_MAX) run out. The hour is what gives the game a highest score, which the
 * leaderboard takes as its bound (SCORE_MAX).
 */
export function step(state: GameState, input: Input, dt: number): boolean {
  if (state.status !== "running") return false;
  state.elapsed = Math.min(state.elapsed + dt, GAME_SECONDS_MAX);
  let move = (input.right ? 1 : 0) - (input.left ? 1 : 0);
  if (input.targetX !== null && Math.abs(input.targetX - state.playerX) > 2) {
    move = Math.sign(input.targetX - state.playerX);
  }
  const half = PLAYER_WIDTH / 2;
  state.playerX = Math.max(half, Math.min(WIDTH - half, state.playerX + move * PLAYER_SPEED * dt));
  state.spawnIn -= dt;
  if (state.spawnIn <= 0) spawn(state);
  const kept: Thing[] = [];
  for (const thing of state.things) {
    thing.y += thing.vy * dt;
    if (touches(thing, state.playerX)) {
      if (thing.kind === "rock") {
        state.status = "over";
        return true;
      }
      state.stars += 1;
      continue;
    }
    if (thing.y - thing.r < HEIGHT) kept.push(thing);
  }
  state.things = kept;
  if (state.elapsed < GAME_SECONDS_MAX) return false;
  state.status = "over";
  return true;
}

/** Did the game end because its hour ran out (not on a rock)? */
export const timeIsUp = (state: GameState) => state.elapsed >= GAME_SECONDS_MAX;

export function start(state: GameState): void {
  if (state.status === "ready" || state.status === "paused") state.status = "running";
}

export function togglePause(state: GameState): void {
  if (state.status === "running") state.status = "paused";
  else if (state.status === "paused") state.status = "running";
}
