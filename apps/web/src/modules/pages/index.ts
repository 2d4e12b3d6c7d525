import { HttpProblem } from "@platform/server";
import { Elysia } from "elysia";
import { newNonce, pagePolicy } from "../../security.ts";
import { PAGES, type Page, type PageName } from "./model.ts";
import { type RenderOptions, renderNotFound, renderPage } from "./service.ts";

export type PagesDeps = { render: () => RenderOptions };

const html = (body: string, status = 200) =>
  new Response(body, {
    status,
    // Pages name the current assets, so they are revalidated; the assets are cached forever.
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
  });

/** A browser asking for a page gets an HTML 404; an API client gets the usual problem+json. */
const wantsHtml = (request: Request) =>
  (request.method === "GET" || request.method === "HEAD") &&
  (request.headers.get("accept") ?? "").includes("text/html");

/** The path as the visitor typed it (decoded; escaped later, when rendered). */
function readable(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export const pages = ({ render }: PagesDeps) => {
  const app = new Elysia({ name: "pages" });
  for (const name of Object.keys(PAGES) as PageName[]) {
    // The portal's pages have their own module (modules/portal): language, no-referrer, routes.
    if (name === "portal") continue;
    app.get(PAGES[name].path, ({ set }) => {
      const styleNonce = newNonce();
      const page: Page = PAGES[name];
      set.headers["content-security-policy"] = pagePolicy(styleNonce, {
        styleAttributes: page.editor,
      });
      return html(renderPage(name, { ...render(), styleNonce }));
    });
  }
  return app.all("/*", ({ request }) => {
    const path = new URL(request.url).pathname;
    if (wantsHtml(request)) return html(renderNotFound(readable(path), render()), 404);
    throw new HttpProblem("NOT_FOUND", { detail: `No resource at ${request.method} ${path}` });
  });
};
