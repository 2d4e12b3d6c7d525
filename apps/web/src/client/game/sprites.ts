/**
 * The game's pictures, drawn in code once into small canvases (no image files), then stamped
 * with drawImage each frame: cheaper than tracing paths and gradients for every falling thing.
 */
export type Sprite = { image: HTMLCanvasElement; size: number };

function canvasOf(size: number, scale: number, paint: (ctx: CanvasRenderingContext2D) => void) {
  const image = document.createElement("canvas");
  image.width = Math.ceil(size * scale);
  image.height = Math.ceil(size * scale);
  const ctx = image.getContext("2d");
  if (ctx) {
    ctx.scale(scale, scale);
    ctx.translate(size / 2, size / 2);
    paint(ctx);
  }
  return { image, size };
}

/** A five-pointed star with a soft glow; `r` is the engine's radius, the glow reaches past it. */
export function starSprite(r: number, scale: number): Sprite {
  return canvasOf(r * 4, scale, (ctx) => {
    const glow = ctx.createRadialGradient(0, 0, 0, 0, 0, r * 2);
    glow.addColorStop(0, "rgba(255, 230, 120, 0.55)");
    glow.addColorStop(1, "rgba(255, 230, 120, 0)");
    ctx.fillStyle = glow;
    ctx.fillRect(-r * 2, -r * 2, r * 4, r * 4);
    ctx.beginPath();
    for (let i = 0; i < 10; i++) {
      const radius = i % 2 === 0 ? r * 1.25 : r * 0.55;
      const angle = -Math.PI / 2 + (i * Math.PI) / 5;
      ctx.lineTo(Math.cos(angle) * radius, Math.sin(angle) * radius);
    }
    ctx.closePath();
    const fill = ctx.createLinearGradient(0, -r, 0, r);
    fill.addColorStop(0, "#fff3a3");
    fill.addColorStop(1, "#ffb62e");
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.strokeStyle = "#b86e00";
    ctx.lineWidth = 1;
    ctx.stroke();
  });
}

/** A lumpy rock with craters, one of a few shapes (`variant`), drawn at radius 1 and scaled. */
export function rockSprite(variant: number, scale: number): Sprite {
  const R = 24;
  return canvasOf(R * 2.2, scale, (ctx) => {
    // A fixed wobble per variant, so each rock keeps its outline as it spins.
    const points = 11;
    ctx.beginPath();
    for (let i = 0; i < points; i++) {
      const wobble = 0.78 + 0.22 * Math.abs(Math.sin((i + 1) * (variant + 2) * 1.7));
      const angle = (i / points) * Math.PI * 2;
      ctx.lineTo(Math.cos(angle) * R * wobble, Math.sin(angle) * R * wobble);
    }
    ctx.closePath();
    const fill = ctx.createRadialGradient(-R * 0.3, -R * 0.3, R * 0.1, 0, 0, R);
    fill.addColorStop(0, "#b89a82");
    fill.addColorStop(1, "#5d4737");
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.strokeStyle = "#3b2c22";
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.fillStyle = "rgba(40, 28, 20, 0.45)";
    for (const [x, y, size] of [
      [0.3, -0.2, 0.22],
      [-0.35, 0.25, 0.16],
      [0.1, 0.45, 0.12],
    ] as const) {
      ctx.beginPath();
      ctx.arc(x * R * (variant % 2 ? -1 : 1), y * R, size * R, 0, Math.PI * 2);
      ctx.fill();
    }
  });
}

export const ROCK_RADIUS = 24;
export const ROCK_VARIANTS = 3;
