import { join } from "node:path";
import { typescriptLibs } from "./typescript-libs.ts";

/** One built file, held in memory with its gzip form so each request costs a lookup. */
export type Asset = {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
};

/** What the pages need: the URL of each entry's script, each worker's and the style sheet. */
export type Bundle = {
  assets: Map<string, Asset>;
  scripts: Record<ClientEntry, string>;
  workers: Record<WorkerEntry, string>;
  styles: string;
  builtAt: number;
};

export const CLIENT_ENTRIES = ["game", "playground", "bench", "portal", "live-reload"] as const;
export type ClientEntry = (typeof CLIENT_ENTRIES)[number];

/** Scripts a page starts as a Worker (their URL is in the page), never as a <script>. */
export const WORKER_ENTRIES = ["typescript"] as const;
export type WorkerEntry = (typeof WORKER_ENTRIES)[number];

export const CLIENT_DIR = join(import.meta.dir, "..", "client");
const ENTRY_FILES: Record<ClientEntry | "site" | "ts-worker", string> = {
  game: "game/game-page.tsx",
  playground: "playground/playground-page.tsx",
  bench: "bench/bench-page.tsx",
  portal: "portal/portal-page.tsx",
  "live-reload": "dev/live-reload.ts",
  "ts-worker": "playground/worker/ts-worker.ts",
  site: "shared/site.css",
};

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json; charset=utf-8",
};

/**
 * Bundles the browser code with Bun's bundler, in memory: no build step before `bun src/index.ts`
 * and no output folder to keep in step with the source (the one Dockerfile starts every app the
 * same way). Entry and chunk names carry a content hash, so assets are cached forever and a new
 * build can never be mixed with an old one. Shared code (Preact, the API client) is split into
 * chunks that every page reuses.
 */
export async function buildClient(opts: { production: boolean }): Promise<Bundle> {
  const result = await Bun.build({
    entrypoints: Object.values(ENTRY_FILES).map((file) => join(CLIENT_DIR, file)),
    root: CLIENT_DIR,
    target: "browser",
    format: "esm",
    splitting: true,
    // Said here rather than left to tsconfig.json: the image's pruned tree may lack the base
    // config that file extends.
    jsx: { runtime: "automatic", importSource: "preact", development: !opts.production },
    minify: opts.production,
    sourcemap: opts.production ? "none" : "linked",
    naming: {
      entry: "[name]-[hash].[ext]",
      chunk: "chunk-[hash].[ext]",
      asset: "[name]-[hash].[ext]",
    },
    define: {
      "process.env.NODE_ENV": JSON.stringify(opts.production ? "production" : "development"),
    },
    plugins: [typescriptLibs],
    throw: false,
  });
  if (!result.success) {
    const messages = result.logs.map((log) => String(log.message)).join("\n");
    throw new Error(`the client bundle did not build:\n${messages}`);
  }
  const assets = new Map<string, Asset>();
  const urls = new Map<string, string>();
  for (const output of result.outputs) {
    const name = output.path.replace(/^\.\//, "");
    const body = new Uint8Array(await output.arrayBuffer());
    const ext = name.slice(name.lastIndexOf(".") + 1);
    assets.set(name, {
      body,
      gzip: Bun.gzipSync(body, { level: 9 }),
      contentType: CONTENT_TYPES[ext] ?? "application/octet-stream",
      etag: `"${Bun.hash(body).toString(36)}"`,
    });
    // A CSS entry comes out as an "asset" when bundled together with scripts.
    if (output.kind === "entry-point" || output.kind === "asset") {
      urls.set(name.slice(0, name.lastIndexOf("-")), `/assets/${name}`);
    }
  }
  const url = (entry: string) => {
    const found = urls.get(entry);
    if (!found) throw new Error(`the bundle has no output for entry "${entry}"`);
    return found;
  };
  return {
    assets,
    scripts: {
      game: url("game-page"),
      playground: url("playground-page"),
      bench: url("bench-page"),
      portal: url("portal-page"),
      "live-reload": url("live-reload"),
    },
    workers: { typescript: url("ts-worker") },
    styles: url("site"),
    builtAt: Date.now(),
  };
}
