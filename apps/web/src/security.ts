import { Elysia } from "elysia";

/**
 * A page's policy: the site-wide one, plus a per-response nonce for <style> elements. CodeMirror
 * styles itself with a <style> element it creates (style-mod); the nonce lets exactly those in
 * (EditorView.cspNonce) without 'unsafe-inline'. Scripts get no nonce: none is inline.
 *
 * `styleAttributes` is for the editor's page only: when a selection spanning lines is replaced,
 * Chromium's own contenteditable editing writes style="" attributes to keep the look of what it
 * merged (CodeMirror then redraws from its model). Refusing them changes nothing visible but logs
 * an error per edit. Style attributes cannot run script or load anything under default-src, so
 * they are allowed there alone; <style> elements still need the nonce.
 */
export const pagePolicy = (styleNonce: string, opts: { styleAttributes?: boolean } = {}) =>
  CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'${opts.styleAttributes ? "; style-src-attr 'unsafe-inline'" : ""}`,
  );

/** 128 random bits, base64: what CSP3 asks of a nonce. */
export const newNonce = () =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");

/**
 * No inline script anywhere (every script is a hashed file under /assets), so script-src needs
 * nothing but 'self'; the pages may not be framed (clickjacking), and the APIs are same-origin,
 * so connect-src 'self' is all the browser code can reach.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  // frame-ancestors says the same; kept for browsers that predate CSP level 2.
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/** On every response, errors included: set before the handler runs, merged by Elysia after. */
export const securityHeaders = () =>
  new Elysia({ name: "security-headers" }).onRequest(({ set }) => {
    Object.assign(set.headers, SECURITY_HEADERS);
  });
