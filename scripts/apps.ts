/**
 * Every app with its configuration schema (its `src/env.ts`) and its own problem codes (the
 * platform's generic ones are `problemCatalog`): what `.env.example` (scripts/env-example.ts)
 * and the generated tables of the docs (scripts/docs-tables.ts) are written from.
 */

import { AdmissionsEnv } from "../apps/admissions/src/env.ts";
import { admissionsProblems } from "../apps/admissions/src/problems.ts";
import { BenchEnv } from "../apps/bench/src/env.ts";
import { BENCH_PROBLEMS } from "../apps/bench/src/modules/benchmark/model.ts";
import { GatewayEnv } from "../apps/gateway/src/env.ts";
import { UPSTREAM_UNHEALTHY } from "../apps/gateway/src/modules/health/model.ts";
import { LeaderboardEnv } from "../apps/leaderboard/src/env.ts";
import { RunnerEnv } from "../apps/runner/src/env.ts";
import { RUNNER_PROBLEMS } from "../apps/runner/src/modules/run/model.ts";
import { WebEnv } from "../apps/web/src/env.ts";
import type { ProblemEntry } from "../packages/server/src/http/problem.ts";

/** A variable's schema as the tables read it (TypeBox's JSON Schema keywords). */
export type VariableSchema = {
  type?: string;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: { const?: unknown }[];
};

export type AppTables = {
  name: string;
  env: { properties: Record<string, VariableSchema> };
  problems: Record<string, ProblemEntry>;
};

export const APPS: readonly AppTables[] = [
  { name: "gateway", env: GatewayEnv, problems: { UPSTREAM_UNHEALTHY } },
  { name: "admissions", env: AdmissionsEnv, problems: admissionsProblems },
  { name: "leaderboard", env: LeaderboardEnv, problems: {} },
  { name: "runner", env: RunnerEnv, problems: RUNNER_PROBLEMS },
  { name: "bench", env: BenchEnv, problems: BENCH_PROBLEMS },
  { name: "web", env: WebEnv, problems: {} },
];
