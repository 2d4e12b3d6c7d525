/**
 * The accessibility check itself: WCAG 2.2 AA's target size (2.5.8) is among the rules every
 * browser test runs, so two adjacent 10×10 px buttons are reported and a 24×24 px pair is not.
 */
import { expect, test } from "bun:test";
import { axeViolations, hasChromium, launch } from "./chromium.ts";

const page = (size: number) =>
  `<!doctype html><html lang="en"><head><title>Targets</title></head><body><main><h1>Targets</h1>${[
    "a",
    "b",
  ]
    .map(
      (label) =>
        `<button style="width:${size}px;height:${size}px;padding:0;margin:0;border:0">${label}</button>`,
    )
    .join("")}</main></body></html>`;

test.skipIf(!hasChromium)(
  "axe checks WCAG 2.2 AA target size (24×24 px)",
  async () => {
    const browser = await launch();
    try {
      const tab = await browser.context.newPage();
      await tab.setContent(page(10));
      expect((await axeViolations(tab)).filter((v) => v.startsWith("target-size"))).toHaveLength(1);
      await tab.setContent(page(24));
      expect(await axeViolations(tab)).toEqual([]);
    } finally {
      await browser.close();
    }
  },
  30_000,
);
