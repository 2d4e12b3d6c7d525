import type { OpenApiDocument } from "./document.ts";
import { canonical, isObject } from "./json-schema.ts";

/** One service's document, and which of its paths the merged document takes. */
export type DocumentPart = {
  /** The service's name: prefixes a component whose name another service gives another shape. */
  name: string;
  document: OpenApiDocument;
  includes: (path: string) => boolean;
};

const COMPONENT_KINDS = ["schemas", "headers", "securitySchemes"] as const;
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * Several services' documents as one (the gateway's, for the whole site). Paths come from the
 * service the gateway routes them to; components with the same name and the same content are
 * kept once (every service's Problem), and a name two services give different shapes is
 * prefixed with the second one's name, its `$ref`s rewritten. Tags are merged by name.
 */
export function mergeDocuments(
  base: Omit<OpenApiDocument, "paths" | "components">,
  parts: readonly DocumentPart[],
): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, object>();
  for (const part of parts) {
    const renames = new Map<string, string>();
    for (const kind of COMPONENT_KINDS) {
      for (const [name, value] of Object.entries(part.document.components[kind] ?? {})) {
        const taken = components[kind]?.[name];
        if (taken !== undefined && canonical(taken) !== canonical(value)) {
          renames.set(
            `#/components/${kind}/${name}`,
            `#/components/${kind}/${pascal(part.name)}${name}`,
          );
        }
      }
    }
    const { paths: ownPaths, components: ownComponents } = rewrite(part.document, renames);
    for (const [path, item] of Object.entries(ownPaths)) {
      if (part.includes(path)) paths[path] = item;
    }
    for (const kind of COMPONENT_KINDS) {
      for (const [name, value] of Object.entries(ownComponents[kind] ?? {})) {
        const renamed = renames.get(`#/components/${kind}/${name}`)?.split("/").at(-1) ?? name;
        components[kind] = { ...components[kind], [renamed]: value };
      }
    }
    for (const tag of part.document.tags ?? []) {
      const name = isObject(tag) ? String(tag.name) : "";
      if (!tags.has(name)) tags.set(name, tag);
    }
  }
  const used = JSON.stringify(paths);
  return {
    ...base,
    tags: [...tags.values()],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    // Only what the kept paths use (a left-out path's schemas go with it), and what those use.
    components: prune(components, used),
  };
}

/** The document's paths and components with every renamed `$ref` pointing at its new name. */
function rewrite(document: OpenApiDocument, renames: Map<string, string>) {
  let text = JSON.stringify({ paths: document.paths, components: document.components });
  for (const [from, to] of renames) text = text.replaceAll(`"${from}"`, `"${to}"`);
  return JSON.parse(text) as Pick<OpenApiDocument, "paths" | "components">;
}

function prune(components: Record<string, Record<string, unknown>>, paths: string) {
  const kept = new Set<string>();
  let pending = [paths];
  while (pending.length > 0) {
    const next: string[] = [];
    for (const text of pending) {
      for (const [, kind, name] of text.matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)) {
        const key = `${kind}/${name}`;
        const value = kind && name ? components[kind]?.[name] : undefined;
        if (kept.has(key) || value === undefined) continue;
        kept.add(key);
        next.push(JSON.stringify(value));
      }
    }
    pending = next;
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, entries] of Object.entries(components)) {
    const keep = Object.entries(entries).filter(
      ([name]) => kind === "securitySchemes" || kept.has(`${kind}/${name}`),
    );
    if (keep.length > 0) {
      out[kind] = Object.fromEntries(keep.sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return out;
}
