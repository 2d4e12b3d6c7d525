import type { Asset } from "../../build/bundle.ts";

/** Names carry a content hash, so a cached copy is never stale: cache for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** q=0 refuses an encoding (RFC 9110 §12.5.3); anything else naming gzip accepts it. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export function assetResponse(asset: Asset, headers: Headers): Response {
  const common = {
    "content-type": asset.contentType,
    "cache-control": IMMUTABLE,
    etag: asset.etag,
    vary: "accept-encoding",
  };
  if (headers.get("if-none-match") === asset.etag) {
    return new Response(null, { status: 304, headers: common });
  }
  if (acceptsGzip(headers.get("accept-encoding"))) {
    return new Response(asset.gzip, { headers: { ...common, "content-encoding": "gzip" } });
  }
  return new Response(asset.body, { headers: common });
}
