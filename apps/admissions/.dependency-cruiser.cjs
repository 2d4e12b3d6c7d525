/**
 * The admissions app's import rules, checked by `bun run deps` (dependency-cruiser):
 *
 *   lib, db, problems.ts  <  users, auth  <  workflow  <  catalog  <  the feature modules
 *     <  app.ts, areas.ts, wiring.ts, index.ts, cli/, seed/
 *
 * Each layer imports only the layers left of it, so a change low down never has to know about
 * what sits above it, and no import can close a cycle. Between modules only the public face
 * (`service.ts`, `model.ts`) is imported, plus `auth/guard.ts`, the plugin whose `auth` macro
 * every controller switches on per route; a module's `internal/` is its own.
 * @type {import("dependency-cruiser").IConfiguration}
 */
const MODULES = "^src/modules/";
const FOUNDATION = "^src/(lib|db)/|^src/problems\\.ts$";
const ROOTS =
  "^src/(app|areas|wiring|index|env|config|models|openapi-models)\\.ts$|^src/(cli|seed)/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import cycle: two files that cannot be understood (or loaded) one without the other.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "foundation-imports-modules",
      comment: "lib/, db/ and problems.ts sit below every module.",
      severity: "error",
      from: { path: FOUNDATION },
      to: { path: `${MODULES}|${ROOTS}` },
    },
    {
      name: "modules-import-roots",
      comment:
        "app.ts, areas.ts, wiring.ts and index.ts compose the modules; no module imports them.",
      severity: "error",
      from: { path: MODULES },
      to: { path: ROOTS },
    },
    {
      name: "roots-import-internals",
      comment:
        "app.ts, areas.ts, wiring.ts, index.ts, config.ts, cli/ and seed/ compose modules through their public face too.",
      severity: "error",
      from: { path: ROOTS },
      to: { path: "^src/modules/[^/]+/internal/" },
    },
    {
      name: "users-imports-upward",
      comment: "users is the lowest module: accounts and roles, nothing else.",
      severity: "error",
      from: { path: "^src/modules/users/" },
      to: { path: MODULES, pathNot: "^src/modules/users/" },
    },
    {
      name: "auth-imports-upward",
      comment: "auth (sign-in, sessions, the guard) knows accounts, nothing of the lifecycle.",
      severity: "error",
      from: { path: "^src/modules/auth/" },
      to: { path: MODULES, pathNot: "^src/modules/(auth|users)/" },
    },
    {
      name: "workflow-imports-upward",
      comment:
        "workflow owns the lifecycle every feature builds on; features plug in through TransitionEffects.",
      severity: "error",
      from: { path: "^src/modules/workflow/" },
      to: { path: MODULES, pathNot: "^src/modules/(workflow|users)/" },
    },
    {
      name: "catalog-imports-upward",
      comment: "catalog sits on workflow and users; the features sit on catalog.",
      severity: "error",
      from: { path: "^src/modules/catalog/" },
      to: { path: MODULES, pathNot: "^src/modules/(catalog|workflow|users|auth)/" },
    },
    {
      name: "another-modules-internals",
      comment:
        "Between modules, import only the public face: service.ts (functions) and model.ts (schemas).",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/" },
      to: {
        path: MODULES,
        pathNot: [
          "^src/modules/$1/",
          "^src/modules/[^/]+/(service|model)\\.ts$",
          "^src/modules/auth/guard\\.ts$",
        ],
      },
    },
    {
      name: "controller-imports-beyond-service-and-model",
      comment:
        "A controller (index.ts) calls its own service.ts and validates with its own model.ts; the module's internal/ is theirs.",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/index\\.ts$" },
      to: {
        path: "^src/modules/$1/",
        // auth/guard.ts is auth's plugin face: its controller uses it like every other one.
        pathNot: ["^src/modules/$1/(service|model)\\.ts$", "^src/modules/auth/guard\\.ts$"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: a cycle through types is still two files that need each other.
    tsPreCompilationDeps: true,
    includeOnly: "^src/",
  },
};
