/**
 * The upstream of `observability.ts` by default: the leaderboard's GET answered with a fixed
 * body (ten entries, as the benchmark seeds the real app with), at the least CPU Bun can answer.
 */
const body = JSON.stringify(
  Array.from({ length: 10 }, (_, i) => ({
    rank: i + 1,
    playerName: `player${i}`,
    score: 1000 - i,
  })),
);
Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
