/**
 * What the drills write and look for: the intake the journeys apply to, opened by the admin
 * before the load starts, and every acknowledged write looked for afterwards, in PostgreSQL and
 * Redis themselves.
 */
import type { Acknowledged } from "./load.ts";
import type { Stack } from "./stack.ts";

export type Found = { acknowledged: number; found: number };
export type Writes = Record<keyof Acknowledged, Found>;

export async function openIntake(stack: Stack): Promise<string> {
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(stack.base + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; accessToken: string };
  };
  const { accessToken } = await call("/api/v1/auth/login/", stack.admin);
  const program = await call(
    "/api/v1/catalog/programs/",
    {
      code: `DRILL-${process.pid}`,
      name: "Drill Studies",
      level: "master",
      department: "Reliability",
      durationMonths: 12,
      requiredDocuments: ["transcript"],
      applicationFee: { amount: 5000, currency: "EUR" },
    },
    accessToken,
  );
  const now = Date.now();
  const intake = await call(
    `/api/v1/catalog/programs/${program.id}/intakes/`,
    {
      term: "Autumn",
      opensAt: new Date(now - 86_400_000).toISOString(),
      deadline: new Date(now + 30 * 86_400_000).toISOString(),
      capacity: 100_000,
    },
    accessToken,
  );
  return intake.id;
}

/** Every acknowledged write, looked for where it must be. */
export function verify(stack: Stack, acked: Acknowledged): Writes {
  const inTable = (table: string, column: string, values: string[]) => {
    const present = new Set(stack.psql(`SELECT ${column} FROM ${table}`));
    return { acknowledged: values.length, found: values.filter((v) => present.has(v)).length };
  };
  // The board keeps its 10 best entries (by design): they must be the 10 best acknowledged
  // ones (scores rise with the request number), read from Redis itself.
  const onBoard = new Set(
    stack
      .redisHashValues("leaderboard:rank:scores:payload")
      .map((line) => (JSON.parse(line) as { playerName: string }).playerName),
  );
  const best = [...acked.scores]
    .sort((a, b) => Number(b.slice(6)) - Number(a.slice(6)))
    .slice(0, 10);
  return {
    scores: { acknowledged: best.length, found: best.filter((n) => onBoard.has(n)).length },
    registrations: inTable("users", "email", acked.registrations),
    applications: inTable("applications", "id", acked.applications),
    documents: inTable("documents", "id", acked.documents),
    payments: inTable("payments", "id", [...new Set(acked.payments)]),
  };
}
