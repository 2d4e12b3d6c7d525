import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});
const get = (path: string) => app.handle(new Request(`http://web.test${path}`));

describe("the playground's TypeScript worker", () => {
  test("the page names the worker's script, and only the playground does", async () => {
    const html = await (await get("/playground/")).text();
    expect(html).toContain(
      `<meta name="worker-typescript" content="${bundle.workers.typescript}">`,
    );
    // Started by the page's code, never as a <script> that would delay the first paint.
    expect(html).not.toContain(`<script type="module" src="${bundle.workers.typescript}"`);
    expect(await (await get("/bench/")).text()).not.toContain("worker-typescript");
  });

  test("the worker is served as JavaScript, gzip, with the compiler and the ES libraries in it", async () => {
    const res = await app.handle(
      new Request(`http://web.test${bundle.workers.typescript}`, {
        headers: { "accept-encoding": "gzip" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const body = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())));
    expect(body).toContain("lib.es2023.d.ts");
    expect(body).toContain("lib.es5.d.ts");
    expect(body).toContain("createLanguageService");
  });
});

describe("the bench page's workloads", () => {
  test("each is described with the source of the kernel that runs, escaped", async () => {
    const html = await (await get("/bench/")).text();
    for (const [type, file] of [
      ["json", "json.ts"],
      ["array", "array.ts"],
      ["string", "string.ts"],
      ["crypto", "crypto.ts"],
    ] as const) {
      expect(html).toContain(`id="workload-${type}"`);
      const source = await Bun.file(
        Bun.resolveSync(`@platform/bench/kernels/${file}`, import.meta.dir),
      ).text();
      // The first line of code, as escaped HTML (the kernels hold quotes and arrows).
      const firstLine = source.split("\n")[0] ?? "";
      expect(html).toContain(firstLine.replace(/"/g, "&quot;"));
    }
    expect(html).toContain("export const jsonKernel");
    expect(html).not.toContain("=> b - a;\n"); // escaped: "&gt;"
    expect(html).toContain("=&gt; b - a;");
  });
});
