/**
 * A fake Stripe on loopback for the portal's card payment in Chromium: the API the admissions
 * app's `stripe` SDK calls (ADMISSIONS_STRIPE_API_BASE points here) — create and retrieve a
 * Checkout Session, form-encoded, Bearer secret key, Idempotency-Key replays — and the hosted
 * Checkout page itself, whose `url` the session carries. Paying on that page does what Stripe
 * does: the session completes, a `checkout.session.completed` event signed with the endpoint's
 * secret (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`, Stripe's documented scheme,
 * as apps/admissions/test/stripe-stand-in.ts signs it) is POSTed to the webhook through the
 * gateway, and the browser is redirected to `success_url` with the session id filled in.
 * Nothing reaches Stripe.
 */
import { createHmac } from "node:crypto";
import { freePorts } from "@platform/server/testing";

export const FAKE_STRIPE = {
  secretKey: "sk_test_portal_fake_0123456789",
  webhookSecret: "whsec_portal_fake_0123456789abcdef",
};

type Session = Record<string, unknown> & {
  id: string;
  status: string;
  payment_status: string;
  success_url: string;
  cancel_url: string;
  amount_total: number;
  currency: string;
};

const randomId = (prefix: string) =>
  `${prefix}_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

const stripeError = (status: number, message: string) =>
  Response.json({ error: { type: "invalid_request_error", message } }, { status });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The hosted page: one form, no script, a real button and a real link (keyboard reachable). */
function checkoutPage(session: Session): string {
  const amount = (session.amount_total / 100).toFixed(2);
  const what = escapeHtml(String(session.description ?? "Application fee"));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"></head>
<body><main><h1>Pay ${session.currency.toUpperCase()} ${amount}</h1><p>${what}</p>
<form method="post" action="/checkout/${session.id}/pay">
<label for="card">Card number</label> <input id="card" name="card" autocomplete="cc-number" value="4242 4242 4242 4242">
<button type="submit" data-testid="fake-stripe-pay">Pay</button></form>
<p><a href="${escapeHtml(session.cancel_url)}" data-testid="fake-stripe-cancel">Cancel</a></p></main></body></html>`;
}

export async function startFakeStripe() {
  const sessions = new Map<string, Session>();
  const replays = new Map<string, Session>();
  /** Every webhook delivery and the status the gateway answered. */
  const deliveries: { type: string; status: number }[] = [];
  let webhookUrl = "";

  function createSession(form: URLSearchParams): Session {
    const id = randomId("cs");
    const session: Session = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total:
        Number(form.get("line_items[0][price_data][unit_amount]")) *
        Number(form.get("line_items[0][quantity]") ?? 1),
      currency: form.get("line_items[0][price_data][currency]") ?? "",
      description: form.get("line_items[0][price_data][product_data][name]"),
      client_reference_id: form.get("client_reference_id"),
      customer_email: form.get("customer_email"),
      metadata: { payment_id: form.get("metadata[payment_id]") },
      payment_intent: null,
      success_url: form.get("success_url") ?? "",
      cancel_url: form.get("cancel_url") ?? "",
      expires_at: Number(form.get("expires_at")),
      url: `${base}/checkout/${id}`,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    sessions.set(id, session);
    return session;
  }

  /** Completes the session and delivers the signed event, as Stripe does before redirecting. */
  async function pay(session: Session): Promise<void> {
    Object.assign(session, {
      status: "complete",
      payment_status: "paid",
      payment_intent: randomId("pi"),
    });
    const payload = JSON.stringify({
      id: randomId("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      data: { object: session },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "checkout.session.completed",
    });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", FAKE_STRIPE.webhookSecret)
      .update(`${t}.${payload}`)
      .digest("hex");
    const res = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${v1}` },
      body: payload,
    });
    deliveries.push({ type: "checkout.session.completed", status: res.status });
  }

  async function api(request: Request, path: string): Promise<Response> {
    if (request.headers.get("authorization") !== `Bearer ${FAKE_STRIPE.secretKey}`) {
      return stripeError(401, "Invalid API Key provided");
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (request.method === "GET" && one) {
      const session = sessions.get(decodeURIComponent(one[1] ?? ""));
      return session ? Response.json(session) : stripeError(404, "No such checkout.session");
    }
    if (request.method === "POST" && path === "/v1/checkout/sessions") {
      const key = request.headers.get("idempotency-key") ?? "";
      const session = replays.get(key) ?? createSession(new URLSearchParams(await request.text()));
      if (key) replays.set(key, session);
      return Response.json(session);
    }
    return stripeError(404, `Unrecognized request URL (${request.method}: ${path})`);
  }

  const [port] = await freePorts(1);
  const base = `http://127.0.0.1:${port}`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/v1/")) return api(request, path);
      const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
      const session = sessions.get(page?.[1] ?? "");
      if (!session) return new Response("No such checkout", { status: 404 });
      if (request.method === "GET" && !page?.[2]) {
        return new Response(checkoutPage(session), {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      }
      if (request.method === "POST" && page?.[2]) {
        await pay(session);
        const back = session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id);
        return Response.redirect(back, 303);
      }
      return new Response("Method not allowed", { status: 405 });
    },
  });

  return {
    apiBase: base,
    sessions,
    deliveries,
    /** Where the signed events go: the gateway's path to the admissions webhook. */
    deliverTo(gatewayBase: string) {
      webhookUrl = `${gatewayBase}/api/v1/payments/webhooks/stripe/`;
    },
    stop: () => server.stop(true),
  };
}
