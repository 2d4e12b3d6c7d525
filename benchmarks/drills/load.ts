/**
 * Steady, paced load through the gateway: leaderboard reads and writes, catalog reads, site
 * pages, a sandbox run now and then, a rare benchmark, and applicant journeys (register, sign
 * in, open an application, upload a PDF, start a payment with an Idempotency-Key), each step
 * one request. Every answer is recorded with whether the request was idempotent (GET, or a
 * POST carrying an Idempotency-Key: the kind the gateway may replay), and every acknowledged
 * write is kept, to be looked for afterwards.
 */

export type Outcome = {
  /** When the request was sent (epoch ms), and how long its answer took. */
  at: number;
  ms: number;
  kind: string;
  status: number;
  idempotent: boolean;
  /** An error answer in the platform's problem+json shape. */
  problem: boolean;
};

export type Acknowledged = {
  scores: string[];
  registrations: string[];
  applications: string[];
  documents: string[];
  payments: string[];
};

/** The smallest PDF the upload checks accept (magic bytes, %%EOF). */
const PDF = new TextEncoder().encode(
  "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n",
);

type Journey = {
  email: string;
  token?: string;
  applicationId?: string;
  /** The next step (0 register … 4 payment); 5 when done. */
  step: number;
  /** A step of it is in flight: the next journey slot goes to another applicant. */
  busy: boolean;
};

/**
 * The load is open (paced by the clock) but bounded where a request is costly: at most this
 * many of each kind in flight. A slot that finds its kind at the bound reads the catalog
 * instead, as a waiting user would, and is counted (`heldBack`). Unbounded, a slower machine
 * fed on itself: slow answers made every journey slot a new registration (a password hash
 * each), runs and benchmarks queued past the servers' 30 s idle timeout, and the extra work
 * slowed everything further. On a quiet 2-core machine (2026-11-29) a run held back about a
 * third of the journey slots (sign-in and registration take 0.3–1 s: a password hash each), a
 * sixth of the run slots and a handful of benchmarks; on one held to 1.2 CPUs, most journey
 * slots: what the machine can carry is what is drilled, not more.
 */
const MAX_IN_FLIGHT = { journey: 12, run: 6, benchmark: 2 } as const;
type Bounded = keyof typeof MAX_IN_FLIGHT;

export function startLoad(base: string, rate: number, intakeId: string) {
  const outcomes: Outcome[] = [];
  const acked: Acknowledged = {
    scores: [],
    registrations: [],
    applications: [],
    documents: [],
    payments: [],
  };
  /** Journeys begun and not finished. */
  const journeys: Journey[] = [];
  let seq = 0;
  let running = true;
  /** Requests sent and not answered yet (each slot of the mix is one request). */
  const pending = new Set<Promise<unknown>>();

  async function send(kind: string, path: string, init: RequestInit = {}, idempotent = false) {
    const at = Date.now();
    try {
      const res = await fetch(base + path, init);
      const body = await res.text();
      const problem = (res.headers.get("content-type") ?? "").includes("application/problem+json");
      outcomes.push({ at, ms: Date.now() - at, kind, status: res.status, idempotent, problem });
      return { status: res.status, body };
    } catch {
      outcomes.push({ at, ms: Date.now() - at, kind, status: 0, idempotent, problem: false });
      return { status: 0, body: "" };
    }
  }
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

  /** The next step of a journey in progress (or a new one): one request. */
  async function journeyStep(n: number) {
    let journey = journeys.find((j) => !j.busy);
    if (!journey) {
      if (journeys.length >= MAX_IN_FLIGHT.journey) return holdBack("journey");
      journey = { email: `drill-${n}@example.com`, step: 0, busy: false };
      journeys.push(journey);
    }
    journey.busy = true;
    const auth = { authorization: `Bearer ${journey.token}` };
    const step = journey.step;
    let next = step;
    if (step === 0) {
      const r = await send(
        "register",
        "/api/v1/auth/register/",
        json({ email: journey.email, password: "correct horse battery staple", fullName: "Drill" }),
      );
      if (r.status === 202) acked.registrations.push(journey.email);
      next = r.status === 202 ? 1 : 0;
    } else if (step === 1) {
      const r = await send(
        "login",
        "/api/v1/auth/login/",
        json({ email: journey.email, password: "correct horse battery staple" }),
      );
      if (r.status === 200)
        journey.token = (JSON.parse(r.body) as { accessToken: string }).accessToken;
      next = r.status === 200 ? 2 : 1;
    } else if (step === 2) {
      const r = await send("application", "/api/v1/applications/", json({ intakeId }, auth));
      if (r.status === 201) {
        journey.applicationId = (JSON.parse(r.body) as { id: string }).id;
        acked.applications.push(journey.applicationId);
      }
      next = r.status === 201 ? 3 : 2;
    } else if (step === 3) {
      const form = new FormData();
      form.append("type", "transcript");
      form.append("file", new Blob([PDF], { type: "application/pdf" }), "transcript.pdf");
      const r = await send("upload", `/api/v1/applications/${journey.applicationId}/documents/`, {
        method: "POST",
        headers: auth,
        body: form,
      });
      if (r.status === 201) acked.documents.push((JSON.parse(r.body) as { id: string }).id);
      next = r.status === 201 ? 4 : 3;
    } else if (step === 4) {
      const r = await send(
        "payment",
        `/api/v1/applications/${journey.applicationId}/payments/`,
        json(
          { provider: "manual" },
          { ...auth, "idempotency-key": `drill-${journey.applicationId}` },
        ),
        true,
      );
      if (r.status === 201 || r.status === 200) {
        acked.payments.push((JSON.parse(r.body) as { id: string }).id);
      }
      next = r.status === 201 || r.status === 200 ? 5 : 4;
    }
    journey.step = next;
    journey.busy = false;
    if (next === 5) journeys.splice(journeys.indexOf(journey), 1);
  }

  const heldBack: Record<Bounded, number> = { journey: 0, run: 0, benchmark: 0 };
  const inFlightOf = { run: 0, benchmark: 0 };
  function holdBack(kind: Bounded) {
    heldBack[kind]++;
    return send("catalog", "/api/v1/catalog/programs/", {}, true);
  }
  /** A costly request, sent unless its kind is at its bound. */
  function bounded(kind: Exclude<Bounded, "journey">, request: () => Promise<unknown>) {
    if (inFlightOf[kind] >= MAX_IN_FLIGHT[kind]) return holdBack(kind);
    inFlightOf[kind]++;
    return request().finally(() => inFlightOf[kind]--);
  }

  /** One request of the mix, by its sequence number (per 200: 70 board, 40 scores, 30 catalog, 20 pages, 30 journey steps, 9 runs, 1 benchmark). */
  function one(n: number): Promise<unknown> {
    const slot = n % 200;
    if (slot < 70) return send("board", "/api/leaderboard", {}, true);
    if (slot < 110) {
      return send("score", "/api/leaderboard", json({ playerName: `drill-${n}`, score: n })).then(
        (r) => r.status === 201 && acked.scores.push(`drill-${n}`),
      );
    }
    if (slot < 140) return send("catalog", "/api/v1/catalog/programs/", {}, true);
    if (slot < 160) return send("page", slot % 2 ? "/" : "/game/", {}, true);
    if (slot < 190) return journeyStep(n);
    if (slot < 199) {
      return bounded("run", () => send("run", "/api/run", json({ code: "console.log(6 * 7)" })));
    }
    return bounded("benchmark", () => send("benchmark", "/api/benchmark", json({ type: "json" })));
  }

  const done = (async () => {
    const started = performance.now();
    while (running) {
      const n = seq++;
      const p = one(n).finally(() => pending.delete(p));
      pending.add(p);
      // Paced by the clock, not by sleeps: a slow moment is caught up, the rate stays the rate.
      const due = started + ((n + 1) * 1000) / rate;
      await Bun.sleep(Math.max(0, due - performance.now()));
    }
    await Promise.all(pending);
  })();

  return {
    outcomes,
    acked,
    /** Slots of each costly kind given to a catalog read: their kind was at its bound. */
    heldBack,
    /** Requests sent and not answered yet (progress lines print it). */
    inFlight: () => pending.size,
    async stop() {
      running = false;
      await done;
    },
  };
}
