/**
 * The repository stands alone: every relative link in the README and docs/ leads to a file or
 * folder inside it (the spec lives in docs/spec/, not beside the repository).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];
/** `[text](target)` links, skipping URLs with a scheme and in-page anchors. */
const LINK = /\]\(([^)\s]+)\)/g;

describe("links in README.md and docs/", () => {
  for (const file of files) {
    test(relative(root, file), () => {
      const text = readFileSync(file, "utf8");
      for (const [, target = ""] of text.matchAll(LINK)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
        const path = resolve(dirname(file), target.split("#")[0] ?? "");
        expect({ target, inside: !relative(root, path).startsWith("..") }).toEqual({
          target,
          inside: true,
        });
        expect({ target, exists: existsSync(path) }).toEqual({ target, exists: true });
      }
    });
  }
});
