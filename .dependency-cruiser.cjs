/**
 * The tree's import rules, checked by infra/imports.test.ts (dependency-cruiser); each app may
 * add its own (apps/admissions/.dependency-cruiser.cjs orders its modules).
 *
 *   packages/*  <  apps/*  <  scripts/, benchmarks/, infra/
 *
 * A package is shared code and depends on no app, and no tool: an app imports packages and its
 * own files; another app only through that app's package exports (`@platform/admissions/models`),
 * never by a path into its folder. No import closes a cycle anywhere.
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import cycle: files that cannot be understood (or loaded) one without the other.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "package-imports-app-or-tool",
      comment:
        "packages/ is shared code: it depends on no app and on no script, benchmark or infra.",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^(apps|scripts|benchmarks|infra)/" },
    },
    {
      name: "app-reaches-into-another-app",
      comment: "Another app is reached through its package exports, never a path into its folder.",
      severity: "error",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/", dependencyTypes: ["local"] },
    },
    {
      name: "app-imports-tool",
      comment: "Apps do not import scripts, benchmarks or infra (those import apps to drive them).",
      severity: "error",
      from: { path: "^apps/" },
      to: { path: "^(scripts|benchmarks|infra)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsConfig: { fileName: "tsconfig.base.json" },
    // Type-only imports count: a cycle through types is still two files that need each other.
    tsPreCompilationDeps: true,
    includeOnly: "^(apps|packages|scripts|benchmarks|infra)/",
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "bun", "default"],
    },
  },
};
