/**
 * The draft-ietf-httpapi-ratelimit-headers-09 fields our APIs send (decisions.md, Client IP and
 * rate limits): `RateLimit-Policy: "<name>";q=<limit>;w=<window s>` and
 * `RateLimit: "<name>";r=<remaining>;t=<seconds until a unit returns>`.
 */
export type RateLimitState = {
  policy: string;
  limit: number | null;
  windowSeconds: number | null;
  remaining: number;
  resetSeconds: number;
};

/** `"name";a=1;b=2` → { name, params }; the first item of a list only (we send one policy). */
function parseItem(field: string): { name: string; params: Map<string, number> } | null {
  const first = field.split(",")[0]?.trim();
  if (!first) return null;
  const [rawName, ...rest] = first.split(";");
  const name = rawName?.trim().replace(/^"(.*)"$/, "$1") ?? "";
  const params = new Map<string, number>();
  for (const part of rest) {
    const [key, value] = part.split("=");
    const n = Number(value);
    if (key && value !== undefined && Number.isFinite(n)) params.set(key.trim(), n);
  }
  return { name, params };
}

export function readRateLimit(headers: Headers): RateLimitState | null {
  const current = headers.get("ratelimit");
  if (!current) return null;
  const item = parseItem(current);
  const remaining = item?.params.get("r");
  const reset = item?.params.get("t");
  if (!item || remaining === undefined || reset === undefined) return null;
  const policy = parseItem(headers.get("ratelimit-policy") ?? "");
  return {
    policy: item.name,
    limit: policy?.params.get("q") ?? null,
    windowSeconds: policy?.params.get("w") ?? null,
    remaining,
    resetSeconds: reset,
  };
}
