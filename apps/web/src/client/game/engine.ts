import { GAME_SECONDS_MAX } from "@platform/contracts/limits";

/**
 * Star catcher's rules, with no DOM: the loop feeds it input and elapsed time, the renderer
 * draws what it holds (and turns its events into sound and particles), and the tests drive it
 * directly. State is mutated in place because it is stepped 60 times a second and nothing else
 * keeps old copies.
 */
export const WIDTH = 480;
export const HEIGHT = 360;
export const PLAYER_WIDTH = 56;
export const PLAYER_HEIGHT = 14;
export const PLAYER_Y = HEIGHT - 28;
const PLAYER_SPEED = 300; // units per second

/** A star is worth this many points times the level it is caught at. */
export const STAR_POINTS = 10;
export const LIVES = 3;
/** After a rock, rocks pass through the paddle for this long (it blinks), so one cluster costs one life. */
export const HIT_GRACE_S = 1.5;
/** A new level every half minute, up to the seventh, where things fall 4× as fast and as often. */
export const LEVEL_SECONDS = 30;
export const LEVEL_MAX = 7;
/** When the first thing falls, and the shortest gap before the next at speed 1. */
export const FIRST_SPAWN_S = 0.5;
export const SPAWN_GAP_MIN_S = 0.55;

export type Status = "ready" | "running" | "paused" | "over";
export type Thing = {
  /** In order of spawning: the renderer picks a sprite and a spin from it. */
  id: number;
  kind: "star" | "rock";
  x: number;
  y: number;
  r: number;
  vy: number;
};
export type Input = {
  left: boolean;
  right: boolean;
  /** Where a finger or pointer is, if down. */
  targetX: number | null;
};
/** What happened in a step, for the page to play and draw; it empties the list each frame. */
export type GameEvent =
  | { kind: "catch"; x: number; y: number; points: number }
  | { kind: "hit"; x: number; y: number; livesLeft: number }
  | { kind: "level"; level: number }
  | { kind: "over" };

export type GameState = {
  status: Status;
  playerX: number;
  things: Thing[];
  /** Points from stars caught; the seconds survived are added by scoreOf. */
  points: number;
  stars: number;
  lives: number;
  level: number;
  /** Seconds left of the grace after a hit. */
  graceLeft: number;
  elapsed: number;
  spawnIn: number;
  spawned: number;
  events: GameEvent[];
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
    points: 0,
    stars: 0,
    lives: LIVES,
    level: 1,
    graceLeft: 0,
    elapsed: 0,
    spawnIn: FIRST_SPAWN_S,
    spawned: 0,
    events: [],
    random,
  };
}

/** Stars caught (10 × their level each), plus 1 for every whole second survived. */
export const scoreOf = (state: GameState) => state.points + Math.floor(state.elapsed);

export const levelAt = (elapsed: number) =>
  Math.min(1 + Math.floor(elapsed / LEVEL_SECONDS), LEVEL_MAX);

/** How fast and how often things fall at a level: 1× at the first, +0.5× a level, 4× at the last. */
export const speedOf = (level: number) => 1 + (level - 1) * 0.5;
export const SPEED_MAX = speedOf(LEVEL_MAX);

function spawn(state: GameState): void {
  const speed = speedOf(state.level);
  const rock = state.random() < 0.55;
  const r = rock ? 12 + state.random() * 10 : 9;
  state.things.push({
    id: state.spawned++,
    kind: rock ? "rock" : "star",
    x: r + state.random() * (WIDTH - 2 * r),
    y: -r,
    r,
    vy: (90 + state.random() * 60) * speed,
  });
  state.spawnIn = (SPAWN_GAP_MIN_S + state.random() * 0.45) / speed;
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

function movePlayer(state: GameState, input: Input, dt: number): void {
  let move = (input.right ? 1 : 0) - (input.left ? 1 : 0);
  if (input.targetX !== null && Math.abs(input.targetX - state.playerX) > 2) {
    move = Math.sign(input.targetX - state.playerX);
  }
  const half = PLAYER_WIDTH / 2;
  state.playerX = Math.max(half, Math.min(WIDTH - half, state.playerX + move * PLAYER_SPEED * dt));
}

function end(state: GameState): true {
  state.status = "over";
  state.events.push({ kind: "over" });
  return true;
}

/**
 * Advances a running game by `dt` seconds. Returns true when this step ended it: the last life
 * lost, or the hour (GAME_SECONDS_MAX) run out. The hour is what gives the game a highest score,
 * which the leaderboard takes as its bound (SCORE_MAX).
 */
export function step(state: GameState, input: Input, dt: number): boolean {
  if (state.status !== "running") return false;
  state.elapsed = Math.min(state.elapsed + dt, GAME_SECONDS_MAX);
  const level = levelAt(state.elapsed);
  if (level !== state.level) {
    state.level = level;
    state.events.push({ kind: "level", level });
  }
  state.graceLeft = Math.max(0, state.graceLeft - dt);
  movePlayer(state, input, dt);
  state.spawnIn -= dt;
  if (state.spawnIn <= 0) spawn(state);
  const kept: Thing[] = [];
  for (const thing of state.things) {
    thing.y += thing.vy * dt;
    if (touches(thing, state.playerX)) {
      if (thing.kind === "star") {
        const points = STAR_POINTS * state.level;
        state.stars += 1;
        state.points += points;
        state.events.push({ kind: "catch", x: thing.x, y: thing.y, points });
        continue;
      }
      if (state.graceLeft === 0) {
        state.lives -= 1;
        state.graceLeft = HIT_GRACE_S;
        state.events.push({ kind: "hit", x: thing.x, y: thing.y, livesLeft: state.lives });
        if (state.lives === 0) {
          state.things = [];
          return end(state);
        }
        continue;
      }
    }
    if (thing.y - thing.r < HEIGHT) kept.push(thing);
  }
  state.things = kept;
  if (state.elapsed < GAME_SECONDS_MAX) return false;
  return end(state);
}

/** Did the game end because its hour ran out (not on the last life)? */
export const timeIsUp = (state: GameState) => state.elapsed >= GAME_SECONDS_MAX;

export function start(state: GameState): void {
  if (state.status === "ready" || state.status === "paused") state.status = "running";
}

export function togglePause(state: GameState): void {
  if (state.status === "running") state.status = "paused";
  else if (state.status === "paused") state.status = "running";
}

/** Pauses a running game (the tab was hidden); true if it was running. */
export function pause(state: GameState): boolean {
  if (state.status !== "running") return false;
  state.status = "paused";
  return true;
}
