/**
 * The repository stands alone: every relative link in the README and docs/ leads to a file or
 * folder inside it (the spec lives in docs/spec/, not beside the repository), and a link to a
 * section (`page.md#section`, `#section`) to a heading that exists there.
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

/** Text outside fenced code blocks, where a `#` line is a comment, not a heading. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, `-` for spaces. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ""] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
/** `[text](target)` links, skipping URLs with a scheme and in-page anchors. */
const LINK = /\]\(([^)\s]+)\)/g;

describe("links in README.md and docs/", () => {
  for (const file of files) {
    test(relative(root, file), () => {
      const text = readFileSync(file, "utf8");
      for (const [, target = ""] of prose(text).matchAll(LINK)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [page = "", anchor] = target.split("#");
        const path = page === "" ? file : resolve(dirname(file), page);
        expect({ target, inside: !relative(root, path).startsWith("..") }).toEqual({
          target,
          inside: true,
        });
        expect({ target, exists: existsSync(path) }).toEqual({ target, exists: true });
        if (anchor === undefined || !path.endsWith(".md")) continue;
        const found = anchorsOf(readFileSync(path, "utf8")).has(anchor);
        expect({ target, anchorFound: found }).toEqual({ target, anchorFound: true });
      }
    });
  }
});

describe("docs/README.md", () => {
  test("is the map: it links every page of docs/", () => {
    const map = join(root, "docs", "README.md");
    const linked = new Set(
      [...readFileSync(map, "utf8").matchAll(LINK)].map(([, target = ""]) =>
        resolve(dirname(map), target.split("#")[0] ?? ""),
      ),
    );
    const unlisted = markdownFiles(join(root, "docs"))
      .filter((page) => page !== map && !linked.has(page))
      .map((page) => relative(root, page));
    expect(unlisted).toEqual([]);
  });
});
