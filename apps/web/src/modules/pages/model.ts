import type { ClientEntry, WorkerEntry } from "../../build/bundle.ts";

export type Page = {
  path: string;
  /** In the nav and the <title>. */
  name: string;
  heading: string;
  description: string;
  /** The page's script; none for pages that are plain HTML. */
  script?: Exclude<ClientEntry, "live-reload">;
  /** The page edits rich text (CodeMirror): its CSP admits style attributes (security.ts). */
  editor?: boolean;
  /** A worker the page starts; its URL is handed over in `<meta name="worker-<name>">`. */
  worker?: WorkerEntry;
};

export const PAGES = {
  home: {
    path: "/",
    name: "Home",
    heading: "The platform",
    description: "A game with a leaderboard, a TypeScript playground and a micro-benchmark.",
  },
  game: {
    path: "/game/",
    name: "Game",
    heading: "Star catcher",
    description: "Catch the stars, dodge the rocks, and put your score on the board.",
    script: "game",
  },
  playground: {
    path: "/playground/",
    name: "Playground",
    heading: "TypeScript playground",
    description:
      "Write up to 1000 characters of TypeScript, see its type errors as you type, and run it in the sandbox.",
    script: "playground",
    editor: true,
    worker: "typescript",
  },
  bench: {
    path: "/bench/",
    name: "Bench",
    heading: "Micro-benchmark",
    description: "Time 10,000 iterations of a workload on the server.",
    script: "bench",
  },
  portal: {
    path: "/portal/",
    name: "Portal",
    heading: "Admissions portal",
    description: "Find a programme, apply, pay the fee and follow your application.",
    script: "portal",
  },
} as const satisfies Record<string, Page>;

export type PageName = keyof typeof PAGES;
