/*
 * WCAG 2.x contrast (1.4.3, AA): the relative luminance of two sRGB colours, and their ratio.
 * The primary colour is the background of white button text and the colour of links on the
 * pages' white and panel backgrounds, so it must reach AA against each of those.
 */

/** AA for normal-size text. */
export const MIN_CONTRAST = 4.5;

/** What the primary colour meets: white text on buttons, the page and the panels (site.css). */
export const SURFACES = ["#ffffff", "#f3f5f8"] as const;

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** Relative luminance of `#rrggbb` (WCAG 2.x definition). */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(channel) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** (lighter + 0.05) / (darker + 0.05): 1 for the same colour, 21 for black on white. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
