import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { LOGO_TYPES, loadEnv, type WebEnv } from "../../env.ts";
import type { Branding } from "./model.ts";

/** The institution's name, address, colour and logo (its bytes read once, at start-up). */
export function brandingOf(env: WebEnv): Branding {
  const path = env.WEB_INSTITUTION_LOGO;
  let logo: Branding["logo"] = null;
  if (path) {
    const body = new Uint8Array(readFileSync(path));
    const ext = extname(path).toLowerCase() as keyof typeof LOGO_TYPES;
    const hash = Bun.hash(body).toString(36);
    logo = {
      url: `/assets/logo-${hash}${ext}`,
      asset: {
        body,
        gzip: Bun.gzipSync(body, { level: 9 }),
        contentType: LOGO_TYPES[ext],
        etag: `"${hash}"`,
      },
    };
  }
  return {
    name: env.WEB_INSTITUTION_NAME,
    contact: env.WEB_CONTACT_EMAIL ?? null,
    colour: env.WEB_PRIMARY_COLOUR.toLowerCase(),
    logo,
  };
}

/** What a deployment that sets nothing gets (the tests' default, as production's). */
export const DEFAULT_BRANDING: Branding = brandingOf(loadEnv({}));

/** The primary colour as the style sheet's variable: one rule, in the page's nonce'd <style>. */
export const brandStyle = (branding: Branding) => `:root{--accent:${branding.colour}}`;
