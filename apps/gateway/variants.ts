import { createLogger, parseTrustedProxies, platform } from "@platform/server";
import { Elysia } from "elysia";
import { forward } from "./src/modules/proxy/service.ts";

const route = {
  upstream: "leaderboard" as const,
  prefixes: ["/api/leaderboard"],
  target: process.env.UP ?? "",
  timeoutMs: 5000,
  maxBodyBytes: 1 << 20,
};
const trusted = parseTrustedProxies("none");
const mode = process.env.MODE;
const port = Number(process.env.P);
const logger = createLogger({ service: "g", level: (process.env.LVL as "info") ?? "info" });
if (mode === "B") {
  Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch(req, server) {
      const u = req.url;
      return forward(req, route, u.slice(u.indexOf("/", 8)), {
        peer: server.requestIP(req)?.address,
        trusted,
        requestId: "x",
      });
    },
  });
} else if (mode === "C") {
  new Elysia()
    .all(
      "/*",
      ({ request, server }) => {
        const u = request.url;
        return forward(request, route, u.slice(u.indexOf("/", 8)), {
          peer: server?.requestIP(request)?.address,
          trusted,
          requestId: "x",
        });
      },
      { parse: "none" },
    )
    .listen({ port, hostname: "127.0.0.1" });
} else if (mode === "D") {
  new Elysia()
    .use(platform({ service: "g", logger, parseBodies: false }))
    .all(
      "/*",
      ({ request, server, set }) => {
        const u = request.url;
        return forward(request, route, u.slice(u.indexOf("/", 8)), {
          peer: server?.requestIP(request)?.address,
          trusted,
          requestId: String(set.headers["x-request-id"]),
        });
      },
      { parse: "none" },
    )
    .listen({ port, hostname: "127.0.0.1" });
}
