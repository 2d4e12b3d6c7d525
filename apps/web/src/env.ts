import { existsSync, statSync } from "node:fs";
import {
  commonEnv,
  configErrorOf,
  metricsPort,
  parseEnv,
  port,
  EnvType as T,
  type VariableProblem,
} from "@platform/server";
import { contrastRatio, MIN_CONTRAST, SURFACES } from "./modules/branding/contrast.ts";

/** The largest logo accepted: it is served on every portal page. */
export const MAX_LOGO_BYTES = 256 * 1024;
export const LOGO_TYPES = { ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg" };

/** The site keeps no state of its own: where to listen, and whose portal it is. */
export const WebEnv = T.Object({
  ...commonEnv,
  WEB_PORT: port(3005, "Port the site listens on."),
  WEB_METRICS_PORT: metricsPort(0),
  WEB_INSTITUTION_NAME: T.String({
    minLength: 1,
    maxLength: 120,
    pattern: "^[^\\u0000-\\u001f\\u007f<>]+$",
    default: "Admissions portal",
    description:
      "The institution's name: beside the logo in every portal page's header, in every page title (`Sign in · <name>`) and in the footer.",
  }),
  WEB_INSTITUTION_LOGO: T.Optional(
    T.String({
      minLength: 1,
      pattern: "\\.(svg|png|jpg)$",
      description: `A logo file (\`.svg\`, \`.png\` or \`.jpg\`, at most ${MAX_LOGO_BYTES / 1024} KB), read at start-up and served under \`/assets/\` beside the name; unset: the name alone. Relative paths are from \`apps/web\`.`,
    }),
  ),
  WEB_PRIMARY_COLOUR: T.String({
    pattern: "^#[0-9a-fA-F]{6}$",
    default: "#0b5cad",
    description: `The portal's primary colour (\`#rrggbb\`): buttons, links and focus rings. Refused at start-up unless white text on it and it on the pages' backgrounds reach WCAG AA contrast (${MIN_CONTRAST}:1).`,
  }),
  WEB_CONTACT_EMAIL: T.Optional(
    T.String({
      format: "email",
      maxLength: 254,
      description:
        "The admissions office's address: in the portal's footer, and in the messages that tell a person to write to the office (a fee waiver, a failure that persists).",
    }),
  ),
});

export type WebEnv = typeof WebEnv.static;

/**
 * Parsed configuration. A primary colour that fails AA contrast would make every button and
 * link hard to read for many people, and a logo that cannot be read would leave a broken image
 * on every page: both stop the start, naming the variable.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): WebEnv {
  const env = parseEnv(WebEnv, source);
  const problems: VariableProblem[] = [];
  const colour = env.WEB_PRIMARY_COLOUR;
  const worst = Math.min(...SURFACES.map((surface) => contrastRatio(colour, surface)));
  if (worst < MIN_CONTRAST) {
    problems.push({
      variable: "WEB_PRIMARY_COLOUR",
      problem: `contrast ${worst.toFixed(2)}:1 against white text or the page background; WCAG AA needs ${MIN_CONTRAST}:1 (choose a darker colour)`,
      got: colour,
    });
  }
  const logo = env.WEB_INSTITUTION_LOGO;
  if (logo !== undefined) {
    const size = existsSync(logo) ? statSync(logo).size : -1;
    if (size <= 0 || size > MAX_LOGO_BYTES) {
      problems.push({
        variable: "WEB_INSTITUTION_LOGO",
        problem:
          size < 0
            ? "no such file"
            : `must be a file of 1 byte to ${MAX_LOGO_BYTES / 1024} KB (it is ${size} bytes)`,
        got: logo,
      });
    }
  }
  if (problems.length > 0) throw configErrorOf(problems);
  return env;
}
