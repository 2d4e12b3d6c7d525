import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";

/** The newest ES library the playground checks against (what Bun, the runner's engine, runs). */
const TOP_LIB = "es2023";

/**
 * Each ES library file the top one pulls in, through its `/// <reference lib>` lines (61 files,
 * about 500 KB), read from the installed `typescript` package.
 */
async function readLibs(): Promise<Record<string, string>> {
  const dir = dirname(require.resolve("typescript/lib/lib.es5.d.ts"));
  const libs: Record<string, string> = {};
  const visit = async (name: string) => {
    const file = `lib.${name}.d.ts`;
    if (file in libs) return;
    const text = await Bun.file(join(dir, file)).text();
    libs[file] = text;
    for (const [, next] of text.matchAll(/\/\/\/ <reference lib="([^"]+)" \/>/g)) {
      if (next) await visit(next);
    }
  };
  await visit(TOP_LIB);
  return libs;
}

/**
 * `import LIBS from "virtual:typescript-libs"`: the library files as one module of strings, so
 * the browser's worker has them without a file system or a fetch per file.
 */
export const typescriptLibs: BunPlugin = {
  name: "typescript-libs",
  setup(build) {
    build.onResolve({ filter: /^virtual:typescript-libs$/ }, () => ({
      path: "typescript-libs",
      namespace: "typescript-libs",
    }));
    build.onLoad({ filter: /.*/, namespace: "typescript-libs" }, async () => ({
      contents: `export default ${JSON.stringify(await readLibs())};`,
      loader: "js",
    }));
  },
};
