import { describe, expect, test } from "bun:test";
import {
  HEIGHT,
  type Input,
  newGame,
  PLAYER_WIDTH,
  PLAYER_Y,
  STAR_POINTS,
  scoreOf,
  seededRandom,
  start,
  step,
  togglePause,
  WIDTH,
} from "../src/client/game/engine.ts";

const idle: Input = { left: false, right: false, targetX: null };
const FRAME = 1 / 60;

describe("star catcher's rules", () => {
  test("nothing moves until the game starts, or while it is paused", () => {
    const game = newGame(seededRandom(1));
    expect(step(game, { ...idle, right: true }, 1)).toBe(false);
    expect(game.playerX).toBe(WIDTH / 2);
    start(game);
    togglePause(game);
    step(game, { ...idle, right: true }, 1);
    expect(game.playerX).toBe(WIDTH / 2);
    expect(game.elapsed).toBe(0);
    togglePause(game);
    expect(game.status).toBe("running");
  });

  test("the paddle moves with the keys and stops at the walls", () => {
    const game = newGame(seededRandom(2));
    start(game);
    step(game, { ...idle, left: true }, 0.1);
    expect(game.playerX).toBeLessThan(WIDTH / 2);
    for (let i = 0; i < 200; i++) step(game, { ...idle, left: true }, FRAME);
    if (game.status === "running") expect(game.playerX).toBe(PLAYER_WIDTH / 2);
  });

  test("a touch target pulls the paddle towards it", () => {
    const game = newGame(seededRandom(3));
    start(game);
    step(game, { ...idle, targetX: WIDTH }, 0.1);
    expect(game.playerX).toBeGreaterThan(WIDTH / 2);
  });

  test("a star on the paddle scores; a rock ends the game", () => {
    const game = newGame(seededRandom(4));
    start(game);
    game.spawnIn = 10;
    game.things.push({ kind: "star", x: game.playerX, y: PLAYER_Y - 5, r: 9, vy: 0 });
    step(game, idle, FRAME);
    expect(game.stars).toBe(1);
    expect(scoreOf(game)).toBe(STAR_POINTS);
    game.things.push({ kind: "rock", x: game.playerX, y: PLAYER_Y - 5, r: 12, vy: 0 });
    expect(step(game, idle, FRAME)).toBe(true);
    expect(game.status).toBe("over");
    expect(step(game, idle, FRAME)).toBe(false);
  });

  test("things that fall past the bottom are dropped", () => {
    const game = newGame(seededRandom(5));
    start(game);
    game.spawnIn = 10;
    game.things.push({ kind: "star", x: 5, y: HEIGHT + 20, r: 9, vy: 10 });
    step(game, idle, FRAME);
    expect(game.things).toHaveLength(0);
  });

  test("a player who stands still loses within a minute, and the same seed plays the same game", () => {
    const play = (seed: number) => {
      const game = newGame(seededRandom(seed));
      start(game);
      let frames = 0;
      while (!step(game, idle, FRAME) && frames < 60 * 60) frames++;
      return { frames, score: scoreOf(game), status: game.status };
    };
    const first = play(42);
    expect(first.status).toBe("over");
    expect(play(42)).toEqual(first);
  });
});
