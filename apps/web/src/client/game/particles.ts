/** Sparks and debris, drawn in code; cosmetic, so Math.random rather than the game's seed. */
type Particle = {
  x: number;
  y: number;
  vx: number;
  vy: number;
  life: number;
  ttl: number;
  size: number;
  color: string;
};

const GRAVITY = 260;
/** A cap, so a long burst of catches cannot make a frame slow. */
const MAX_PARTICLES = 400;

export type Particles = {
  burst: (x: number, y: number, kind: "catch" | "hit") => void;
  update: (dt: number) => void;
  draw: (ctx: CanvasRenderingContext2D) => void;
  clear: () => void;
};

export function createParticles(): Particles {
  let all: Particle[] = [];
  return {
    burst(x, y, kind) {
      const count = kind === "catch" ? 14 : 24;
      for (let i = 0; i < count && all.length < MAX_PARTICLES; i++) {
        const angle = Math.random() * Math.PI * 2;
        const speed = (kind === "catch" ? 60 : 90) + Math.random() * 120;
        const ttl = 0.4 + Math.random() * 0.5;
        all.push({
          x,
          y,
          vx: Math.cos(angle) * speed,
          vy: Math.sin(angle) * speed - 80,
          life: ttl,
          ttl,
          size: kind === "catch" ? 2 + Math.random() * 2 : 2 + Math.random() * 4,
          color:
            kind === "catch"
              ? i % 3 === 0
                ? "#fff6c2"
                : "#ffd447"
              : i % 4 === 0
                ? "#ff6b5b"
                : "#a78a73",
        });
      }
    },
    update(dt) {
      for (const p of all) {
        p.life -= dt;
        p.vy += GRAVITY * dt;
        p.x += p.vx * dt;
        p.y += p.vy * dt;
      }
      all = all.filter((p) => p.life > 0);
    },
    draw(ctx) {
      for (const p of all) {
        ctx.globalAlpha = Math.max(0, p.life / p.ttl);
        ctx.fillStyle = p.color;
        ctx.fillRect(p.x - p.size / 2, p.y - p.size / 2, p.size, p.size);
      }
      ctx.globalAlpha = 1;
    },
    clear() {
      all = [];
    },
  };
}
