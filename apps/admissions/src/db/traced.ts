import { type Span, SpanKind, tracingEnabled, withSpan } from "@platform/server";
import type { SQL } from "bun";
import type { Dialect } from "./dialect.ts";

/** The statement kinds a span is named after; fragments (`status IN …`) start otherwise. */
const VERB = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|PRAGMA)\b/i;
/** A transaction's statements listed on its span, at most. */
const MAX_LISTED = 20;

const SYSTEM: Record<Dialect, string> = { postgres: "postgresql", sqlite: "sqlite" };

/**
 * `sql` that notes the kind of each statement written with it (a tagged-template call whose
 * text starts with SELECT, INSERT…): only that first word, never the text or its values.
 */
function noting(sql: SQL, verbs: string[]): SQL {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const strings = args[0];
      if (Array.isArray(strings) && "raw" in strings && verbs.length < MAX_LISTED) {
        const verb = VERB.exec(String(strings[0]))?.[1];
        if (verb) verbs.push(verb.toUpperCase());
      }
      return Reflect.apply(target as unknown as (...a: unknown[]) => unknown, thisArg, args);
    },
  });
}

/** Hands the work its `sql` (or `tx`): as it is, or noting each statement's kind. */
type Note = (sql: SQL) => SQL;

/**
 * One span per `db.run` (named after its first statement: `SELECT`) or `db.transaction`
 * (`db.transaction`, BEGIN to COMMIT), with the database system and the statements' kinds: what
 * a trace needs to show where a request's time went, and nothing a row or a parameter could
 * leak through. Without tracing, or outside a traced request, the work runs as it is.
 */
export function traced<T>(
  dialect: Dialect,
  kind: "run" | "transaction",
  work: (note: Note) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work(asIs);
  const system = SYSTEM[dialect];
  return withSpan(
    kind === "run" ? "db.query" : "db.transaction",
    {
      kind: SpanKind.CLIENT,
      // db.system: the name backends used before semantic conventions 1.26 made it db.system.name.
      attributes: { "db.system.name": system, "db.system": system },
    },
    async (span: Span | undefined) => {
      if (!span) return work(asIs);
      const verbs: string[] = [];
      try {
        return await work((sql) => noting(sql, verbs));
      } finally {
        const [first] = verbs;
        if (first && kind === "run") {
          span.updateName(first);
          span.setAttribute("db.operation.name", first);
        }
        if (first) span.setAttribute("db.statements", verbs);
      }
    },
  );
}

const asIs: Note = (sql) => sql;
