import type { Bundle } from "../../build/bundle.ts";
import type { Branding } from "../branding/model.ts";
import { brandStyle, DEFAULT_BRANDING } from "../branding/service.ts";
import { escapeHtml } from "./escape.ts";
import { PAGES, type Page, type PageName } from "./model.ts";
import { renderWorkloads } from "./workloads.ts";

export { escapeHtml };

export type RenderOptions = {
  bundle: Bundle;
  liveReload: boolean;
  /** This response's style nonce (see security.ts), handed to the scripts in a meta tag. */
  styleNonce?: string;
  /** Whose site this is: the title's suffix; on the portal's pages, the header and footer too. */
  branding?: Branding;
};

function nav(current: string | undefined): string {
  const items = Object.values(PAGES as Record<PageName, Page>).map((page) => {
    const here = page.path === current ? ' aria-current="page"' : "";
    return `<li><a href="${page.path}"${here}>${escapeHtml(page.name)}</a></li>`;
  });
  return `<nav aria-label="Site"><ul>${items.join("")}</ul></nav>`;
}

/** The institution's logo and name, one link home (its words say where it goes). */
function institutionHeader(brand: Branding, homeLabel: string): string {
  const logo = brand.logo ? `<img class="brand-logo" src="${brand.logo.url}" alt="">` : "";
  return `<div class="brand-bar"><a class="brand" href="/portal/" aria-label="${escapeHtml(`${brand.name}: ${homeLabel}`)}">${logo}<span>${escapeHtml(brand.name)}</span></a></div>`;
}

function institutionFooter(brand: Branding, contactLabel: string): string {
  const contact = brand.contact
    ? ` · ${escapeHtml(contactLabel)} <a href="mailto:${escapeHtml(brand.contact)}">${escapeHtml(brand.contact)}</a>`
    : "";
  return `<footer class="site-footer"><p>${escapeHtml(brand.name)}${contact}</p></footer>`;
}

/**
 * The HTML shell of a page. Every page is readable before its script runs (heading and
 * description in the HTML), and scripts are external modules (deferred by nature) so the first
 * paint never waits for them and the CSP needs no inline allowance.
 */
export function renderDocument(
  opts: RenderOptions,
  page: Omit<Page, "path"> & {
    path?: string;
    /** The page's language (`<html lang>`) and its skip link's words; English by default. */
    lang?: string;
    skipLabel?: string;
    /**
     * The institution's own header (logo and name, linking to the portal) and footer (its
     * address) in place of the site's navigation: the portal's pages are the institution's.
     */
    institution?: { homeLabel: string; contactLabel: string };
  },
  body: string,
): string {
  const brand = opts.branding ?? DEFAULT_BRANDING;
  const own = page.institution;
  const scripts = [
    page.script ? opts.bundle.scripts[page.script] : undefined,
    opts.liveReload ? opts.bundle.scripts["live-reload"] : undefined,
  ]
    .filter((src): src is string => src !== undefined)
    .map((src) => `<script type="module" src="${src}"></script>`)
    .join("");
  return `<!doctype html>
<html lang="${escapeHtml(page.lang ?? "en")}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.name)} · ${escapeHtml(brand.name)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<link rel="icon" href="${brand.logo ? brand.logo.url : "data:,"}">
${opts.styleNonce ? `<meta name="style-nonce" content="${escapeHtml(opts.styleNonce)}">` : ""}
${page.worker ? `<meta name="worker-${page.worker}" content="${opts.bundle.workers[page.worker]}">` : ""}
<link rel="stylesheet" href="${opts.bundle.styles}">
${own && opts.styleNonce ? `<style nonce="${escapeHtml(opts.styleNonce)}">${brandStyle(brand)}</style>` : ""}
${own ? `<meta name="institution-name" content="${escapeHtml(brand.name)}">\n<meta name="institution-contact" content="${escapeHtml(brand.contact ?? "")}">` : ""}
${scripts}
</head>
<body>
<a class="skip-link" href="#main">${escapeHtml(page.skipLabel ?? "Skip to content")}</a>
<header class="site-header">${own ? institutionHeader(brand, own.homeLabel) : nav(page.path)}</header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(page.heading)}</h1>
<p class="lead">${escapeHtml(page.description)}</p>
${body}
</main>
${own ? institutionFooter(brand, own.contactLabel) : ""}
</body>
</html>`;
}

const HOME_LINKS = (["game", "playground", "bench", "portal"] as const).map((name) => PAGES[name]);

export function renderPage(name: PageName, opts: RenderOptions): string {
  const page: Page = PAGES[name];
  if (name === "home") {
    const cards = HOME_LINKS.map(
      (p) =>
        `<li class="card"><h2><a href="${p.path}">${escapeHtml(p.name)}</a></h2><p>${escapeHtml(p.description)}</p></li>`,
    ).join("");
    return renderDocument(opts, page, `<ul class="cards">${cards}</ul>`);
  }
  // Pages with a script: it renders into #app. The noscript line says why nothing appears.
  // The bench page's workloads are plain HTML after it, readable without the script.
  return renderDocument(
    opts,
    page,
    `<div id="app"></div><noscript><p>This page needs JavaScript.</p></noscript>${name === "bench" ? renderWorkloads() : ""}`,
  );
}

export function renderNotFound(path: string, opts: RenderOptions): string {
  return renderDocument(
    opts,
    { name: "Not found", heading: "Page not found", description: `Nothing lives at ${path}.` },
    `<p><a href="/">Back to the home page</a></p>`,
  );
}
