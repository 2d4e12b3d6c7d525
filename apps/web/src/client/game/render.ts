import {
  type GameState,
  HEIGHT,
  PLAYER_HEIGHT,
  PLAYER_WIDTH,
  PLAYER_Y,
  scoreOf,
  WIDTH,
} from "./engine.ts";

const MESSAGES: Record<GameState["status"], string | null> = {
  ready: "Press Space or Start",
  running: null,
  paused: "Paused: press P or Resume",
  over: "Game over: press R or Restart",
};

/** Draws one frame. The canvas is sized in device pixels; the game in its own units. */
export function draw(ctx: CanvasRenderingContext2D, state: GameState, scale: number): void {
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = "#10233d";
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  for (const thing of state.things) {
    ctx.beginPath();
    ctx.arc(thing.x, thing.y, thing.r, 0, Math.PI * 2);
    ctx.fillStyle = thing.kind === "star" ? "#ffd447" : "#9a7b64";
    ctx.fill();
  }
  ctx.fillStyle = "#7fd1ff";
  ctx.fillRect(state.playerX - PLAYER_WIDTH / 2, PLAYER_Y, PLAYER_WIDTH, PLAYER_HEIGHT);
  ctx.fillStyle = "#ffffff";
  ctx.font = "bold 18px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.fillText(`Score ${scoreOf(state)}`, 12, 26);
  const message = MESSAGES[state.status];
  if (message) {
    ctx.fillStyle = "rgba(0, 0, 0, 0.55)";
    ctx.fillRect(0, HEIGHT / 2 - 30, WIDTH, 60);
    ctx.fillStyle = "#ffffff";
    ctx.textAlign = "center";
    ctx.fillText(message, WIDTH / 2, HEIGHT / 2 + 6);
  }
}
