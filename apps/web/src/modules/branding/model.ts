import type { Asset } from "../../build/bundle.ts";

/** Whose portal this is (WEB_INSTITUTION_*, WEB_PRIMARY_COLOUR, WEB_CONTACT_EMAIL). */
export type Branding = {
  name: string;
  /** The office's address; null when not configured. */
  contact: string | null;
  /** `#rrggbb`, AA-contrast checked at start-up. */
  colour: string;
  /** The logo, served at `url` (content-hashed, immutable); null: the name alone. */
  logo: { url: string; asset: Asset } | null;
};
