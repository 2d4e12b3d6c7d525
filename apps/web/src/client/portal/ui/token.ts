/**
 * An emailed link's token, read once and then dropped from the address bar (replaceState), so it
 * stays in neither the history nor a bookmark; the page is served with Referrer-Policy
 * no-referrer, so it never leaves in a Referer either. Never logged.
 */
export function takeToken(): string | null {
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (token !== null) {
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return token;
}
