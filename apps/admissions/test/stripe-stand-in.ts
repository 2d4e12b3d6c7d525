import { createHmac } from "node:crypto";
import { freePort } from "@platform/server/testing";

/**
 * A local stand-in for the parts of Stripe's HTTP API the app uses, speaking the documented
 * shapes: form-encoded requests with `Authorization: Bearer <secret key>`, Idempotency-Key
 * replays (same key and parameters → the same object; other parameters → 400
 * idempotency_error), JSON objects (`checkout.session`, `refund`) and `{ error: {...} }` on
 * failure. It records every request so tests can check what was sent. Nothing reaches Stripe.
 */
export const STAND_IN_SECRET_KEY = "sk_test_standin_0123456789";
export const WEBHOOK_SECRET = "whsec_standin_0123456789abcdef";

export type Recorded = {
  method: string;
  path: string;
  headers: Headers;
  form: URLSearchParams;
};

type Session = Record<string, unknown> & { id: string; status: string; payment_status: string };

const randomId = (prefix: string) =>
  `${prefix}_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

const stripeError = (status: number, type: string, message: string) =>
  Response.json({ error: { type, message } }, { status });

export async function startStripeStandIn() {
  const requests: Recorded[] = [];
  const sessions = new Map<string, Session>();
  const replays = new Map<string, { params: string; body: unknown }>();
  let failNext: { status: number; count: number } | null = null;

  function createSession(form: URLSearchParams): Session | Response {
    const unitAmount = Number(form.get("line_items[0][price_data][unit_amount]"));
    const currency = form.get("line_items[0][price_data][currency]");
    if (form.get("mode") !== "payment" || !Number.isInteger(unitAmount) || !currency) {
      return stripeError(400, "invalid_request_error", "Missing required param: line_items.");
    }
    const id = randomId("cs");
    const session: Session = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total: unitAmount * Number(form.get("line_items[0][quantity]") ?? 1),
      currency,
      client_reference_id: form.get("client_reference_id"),
      customer_email: form.get("customer_email"),
      metadata: {
        payment_id: form.get("metadata[payment_id]"),
        application_id: form.get("metadata[application_id]"),
      },
      payment_intent: null,
      success_url: form.get("success_url"),
      cancel_url: form.get("cancel_url"),
      expires_at: Number(form.get("expires_at")),
      url: `https://checkout.stripe.com/c/pay/${id}`,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    sessions.set(id, session);
    return session;
  }

  async function route(request: Request, form: URLSearchParams): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.headers.get("authorization") !== `Bearer ${STAND_IN_SECRET_KEY}`) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided: sk_****");
    }
    if (failNext && failNext.count > 0) {
      failNext.count--;
      return stripeError(failNext.status, "api_error", "Something went wrong on Stripe's end.");
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (request.method === "GET" && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1] ?? ""));
      return session
        ? Response.json(session)
        : stripeError(404, "invalid_request_error", "No such checkout.session");
    }
    if (request.method !== "POST") return stripeError(404, "invalid_request_error", "Unknown");
    const key = request.headers.get("idempotency-key");
    const params = form.toString();
    const earlier = key ? replays.get(key) : undefined;
    if (earlier) {
      if (earlier.params !== params) {
        return stripeError(
          400,
          "idempotency_error",
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      return Response.json(earlier.body);
    }
    let body: unknown;
    if (path === "/v1/checkout/sessions") {
      const created = createSession(form);
      if (created instanceof Response) return created;
      body = created;
    } else if (path === "/v1/refunds") {
      const amount = Number(form.get("amount"));
      if (!form.get("payment_intent") || !Number.isInteger(amount)) {
        return stripeError(400, "invalid_request_error", "Missing payment_intent or amount");
      }
      body = {
        id: randomId("re"),
        object: "refund",
        amount,
        payment_intent: form.get("payment_intent"),
        status: "succeeded",
      };
    } else {
      return stripeError(404, "invalid_request_error", `Unrecognized request URL (POST: ${path})`);
    }
    if (key) replays.set(key, { params, body });
    return Response.json(body);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: await freePort(),
    async fetch(request) {
      const text = request.method === "POST" ? await request.text() : "";
      const form = new URLSearchParams(text);
      requests.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        form,
      });
      return route(request, form);
    },
  });

  return {
    apiBase: `http://127.0.0.1:${server.port}`,
    requests,
    sessions,
    /** The next `count` API calls answer `status` with a Stripe error body. */
    failNext(status: number, count = 1) {
      failNext = { status, count };
    },
    /** The customer pays: the session completes, as Stripe records it. */
    pay(sessionId: string): Session {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: randomId("pi"),
      });
      return session;
    },
    expire(sessionId: string): Session {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      Object.assign(session, { status: "expired" });
      return session;
    },
    stop: () => server.stop(true),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

/** An event as Stripe delivers it (the documented `event` object). */
export function stripeEvent(type: string, object: unknown, id = randomId("evt")) {
  return JSON.stringify({
    id,
    object: "event",
    api_version: "2024-06-20",
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/**
 * `Stripe-Signature` computed here, independently of the app's code, by the documented
 * scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`.
 */
export function signature(payload: string, timestampSeconds: number, secret = WEBHOOK_SECRET) {
  const v1 = createHmac("sha256", secret).update(`${timestampSeconds}.${payload}`).digest("hex");
  return `t=${timestampSeconds},v1=${v1}`;
}

export const webhookRequest = (payload: string, signatureHeader: string | null) => {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  if (signatureHeader !== null) headers.set("stripe-signature", signatureHeader);
  return new Request("http://localhost/api/v1/payments/webhooks/stripe/", {
    method: "POST",
    headers,
    body: payload,
  });
};
