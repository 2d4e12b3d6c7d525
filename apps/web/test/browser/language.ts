/**
 * "No English on a French page": every piece of text a French page shows is held against the
 * English catalogue. A text node that is an English message (exactly, or its template with the
 * placeholders filled) and not the French one is a string the page forgot to translate.
 */
import { en } from "../../src/client/portal/i18n/en.ts";
import { fr } from "../../src/client/portal/i18n/fr.ts";
import type { Page } from "./chromium.ts";

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** English messages that French does not share, as patterns ({name} matches anything). */
const ENGLISH = (Object.keys(en) as (keyof typeof en)[])
  .filter((key) => en[key] !== fr[key] && en[key].replace(/\{\w+\}/g, "").trim().length > 3)
  .map((key) => ({
    key,
    pattern: new RegExp(`^${literal(en[key].trim()).replace(/\\\{\w+\\\}/g, ".+")}$`),
  }));

/** The page's visible text, node by node (scripts, styles and hidden nodes left out). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, " ").trim() ?? "";
      if (!parent || text === "" || ["SCRIPT", "STYLE", "NOSCRIPT"].includes(parent.tagName))
        continue;
      if (parent.closest("[hidden]")) continue;
      found.push(text);
    }
    // What a screen reader hears instead of text: labels, and alternatives of images.
    for (const el of document.querySelectorAll("[aria-label], img[alt]")) {
      const value = el.getAttribute("aria-label") ?? el.getAttribute("alt") ?? "";
      if (value.trim()) found.push(value.trim());
    }
    return found;
  });
}

/** The English messages a French page shows, with their keys (empty when it is all French). */
export async function englishOnFrenchPage(page: Page): Promise<string[]> {
  const texts = await visibleTexts(page);
  return texts.flatMap((text) =>
    ENGLISH.filter(({ pattern }) => pattern.test(text)).map(({ key }) => `${key}: "${text}"`),
  );
}
