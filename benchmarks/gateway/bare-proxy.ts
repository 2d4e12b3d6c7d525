/**
 * Reference floor for the gateway benchmark: the least a Bun fetch-based reverse proxy can do
 * (no routing table, limits, timeouts, logging or header hygiene). Not for production.
 */
const upstream = process.env.UPSTREAM ?? "http://127.0.0.1:3002";
Bun.serve({
  port: Number(process.env.PORT ?? 3999),
  hostname: "127.0.0.1",
  reusePort: false,
  fetch(request) {
    const url = request.url;
    return fetch(upstream + url.slice(url.indexOf("/", 8)), {
      method: request.method,
      headers: request.headers,
      body: request.body,
      decompress: false,
    });
  },
});
