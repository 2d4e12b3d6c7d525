import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { publishEvents } from "../src/modules/events/service.ts";
import type { Resolver } from "../src/modules/webhooks/internal/target.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../src/modules/webhooks/model.ts";
import { deliverDueWebhooks, fanOut, type WebhookSender } from "../src/modules/webhooks/service.ts";
import { createDraft, createIntake, createProgram, type Paged, signIn } from "./support.ts";
import { RECEIVER_CERT, RECEIVER_NAME, startTlsReceiver } from "./tls-receiver.ts";
import { createEndpoint, setupWebhooksApp, webhookSender } from "./webhooks-support.ts";
import { call, expectJson } from "./workflow-support.ts";

/*
 * At delivery a target's name is resolved once, every address is judged (blockedRange,
 * webhook-targets.test.ts), and the POST goes to an address so judged, with the name as Host
 * and TLS server name: a resolver that answers a public address to the check and a private
 * one a moment later (DNS rebinding) cannot move the connection.
 */

const ctx = await setupWebhooksApp();
const admin = await signIn(ctx, "admin");
const program = await createProgram(ctx, admin);
const intake = await createIntake(ctx, admin, program.id);
const NAME = "hooks.example.test";

afterEach(async () => {
  const { results } = await expectJson<{ results: WebhookEndpoint[] }>(
    await call(ctx, admin, "GET", "/api/v1/webhooks/"),
  );
  for (const endpoint of results)
    await call(ctx, admin, "DELETE", `/api/v1/webhooks/${endpoint.id}/`);
});

/** A resolver that answers `answers[0]` the first time, `answers[1]` the next, and so on. */
function resolverOf(...answers: string[][]) {
  const asked: string[] = [];
  const resolve: Resolver = async (host) => {
    asked.push(host);
    return answers[Math.min(asked.length, answers.length) - 1] ?? [];
  };
  return { resolve, asked };
}

type Sent = { url: string; host: string | undefined; serverName: string | undefined };

/** An HTTP client that records where it was asked to connect and answers `answer` to each. */
function recordingClient(
  answer: (sent: Sent, n: number) => Response | Error = () => new Response(null, { status: 204 }),
) {
  const sent: Sent[] = [];
  const fetch: WebhookSender["fetch"] = async (url, init) => {
    const headers = init.headers as Record<string, string>;
    const entry = { url, host: headers.host, serverName: init.tls?.serverName };
    sent.push(entry);
    const outcome = answer(entry, sent.length);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return { fetch, sent };
}

/** One event to an endpoint at `url`, delivered once by a sender with these parts. */
async function deliverOnce(url: string, sender: Partial<WebhookSender>) {
  const endpoint = await createEndpoint(ctx, admin, url);
  await createDraft(ctx, await signIn(ctx), intake.id);
  await publishEvents(ctx.db, fanOut);
  const result = await deliverDueWebhooks({
    ...webhookSender(ctx, 1),
    allowPrivateTargets: false,
    ...sender,
  });
  const page = await expectJson<Paged<WebhookDelivery>>(
    await call(ctx, admin, "GET", `/api/v1/webhooks/${endpoint.id}/deliveries/`),
  );
  return { result, lastError: page.results[0]?.lastError ?? null };
}

/** A name with an IPv6 and an IPv4 address, in the order the system would try them. */
const BOTH = ["2606:4700::1111", "93.184.216.34"];

const refusedConnection = () =>
  Object.assign(new TypeError("Unable to connect"), { code: "ECONNREFUSED" });

describe("a name is judged by every address it resolves to at delivery", () => {
  test.each([
    [["10.0.0.7"], "resolves to 10.0.0.7, private 10.0.0.0/8"],
    [["127.0.0.1"], "loopback"],
    [["169.254.169.254"], "link-local"],
    [["::ffff:127.0.0.1"], "IPv4-mapped of 127.0.0.1"],
    [["::ffff:7f00:1"], "IPv4-mapped of 127.0.0.1"],
    [["64:ff9b::a9fe:a9fe"], "NAT64 64:ff9b::/96 of 169.254.169.254"],
    [["2002:a9fe:a9fe::1"], "6to4 2002::/16 of 169.254.169.254"],
    [["fd00::1"], "unique local"],
    [["93.184.216.34", "10.0.0.7"], "resolves to 10.0.0.7"],
    [["2606:4700::1111", "::1"], "resolves to ::1, loopback"],
    [[], "resolves to no address"],
  ])("%j: refused, nothing sent", async (addresses, why) => {
    const client = recordingClient();
    const { result, lastError } = await deliverOnce(`https://${NAME}/h`, {
      resolve: resolverOf(addresses).resolve,
      fetch: client.fetch,
    });
    expect(result).toEqual({ delivered: 0, failed: 1 });
    expect(client.sent).toEqual([]);
    expect(lastError).toContain(`refused: ${NAME}`);
    expect(lastError).toContain(why);
  });
});

describe("the POST goes to the address that was judged", () => {
  test("a name that rebinds to loopback after the check is still sent to the checked address", async () => {
    const dns = resolverOf(["93.184.216.34"], ["127.0.0.1"]);
    const client = recordingClient();
    const { result } = await deliverOnce(`https://${NAME}/h?x=1`, {
      resolve: dns.resolve,
      fetch: client.fetch,
    });
    expect(result).toEqual({ delivered: 1, failed: 0 });
    expect(dns.asked).toEqual([NAME]);
    expect(client.sent).toEqual([
      { url: "https://93.184.216.34/h?x=1", host: NAME, serverName: NAME },
    ]);
  });

  test("IPv6 addresses are written as URL literals; the port stays in the Host", async () => {
    const client = recordingClient();
    const { result } = await deliverOnce(`https://${NAME}:8443/h`, {
      resolve: resolverOf(["2606:4700::1111"]).resolve,
      fetch: client.fetch,
    });
    expect(result.delivered).toBe(1);
    expect(client.sent).toEqual([
      { url: "https://[2606:4700::1111]:8443/h", host: `${NAME}:8443`, serverName: NAME },
    ]);
  });

  test("a literal address is connected to as it is, with no lookup", async () => {
    const dns = resolverOf(["127.0.0.1"]);
    const client = recordingClient();
    await deliverOnce("https://93.184.216.34/h", { resolve: dns.resolve, fetch: client.fetch });
    expect(dns.asked).toEqual([]);
    expect(client.sent).toEqual([
      { url: "https://93.184.216.34/h", host: "93.184.216.34", serverName: undefined },
    ]);
  });

  test("the next judged address is tried only when one cannot be connected to", async () => {
    const refusing = recordingClient((_, n) =>
      n === 1 ? refusedConnection() : new Response("ok"),
    );
    const { result } = await deliverOnce(`https://${NAME}/h`, {
      resolve: resolverOf(BOTH).resolve,
      fetch: refusing.fetch,
    });
    expect(result.delivered).toBe(1);
    expect(refusing.sent.map((s) => s.url)).toEqual([
      "https://[2606:4700::1111]/h",
      "https://93.184.216.34/h",
    ]);
  });

  test("a receiver that was reached and failed is a failed attempt: no second address", async () => {
    const timingOut = recordingClient(() => new DOMException("timed out", "TimeoutError"));
    const { result } = await deliverOnce(`https://${NAME}/h`, {
      resolve: resolverOf(BOTH).resolve,
      fetch: timingOut.fetch,
    });
    expect(result.failed).toBe(1);
    expect(timingOut.sent.length).toBe(1);
  });
});

describe("over the network, pinned", () => {
  const tls = startTlsReceiver();
  afterAll(() => tls.stop());
  // Loopback receivers: development's switch on, so only the pinning is under test here.
  const onLoopback = { allowPrivateTargets: true, resolve: resolverOf(["127.0.0.1"]).resolve };
  const trusting: WebhookSender["fetch"] = (url, init) =>
    fetch(url, { ...init, tls: { ...init.tls, ca: RECEIVER_CERT } });

  test("HTTPS to the name's certificate at the pinned address: Host and SNI are the name", async () => {
    const url = `https://${RECEIVER_NAME}:${tls.port}/tls-hook`;
    const { result, lastError } = await deliverOnce(url, { ...onLoopback, fetch: trusting });
    expect(lastError).toBeNull();
    expect(result).toEqual({ delivered: 1, failed: 0 });
    expect(tls.seen.at(-1)).toEqual({ host: `${RECEIVER_NAME}:${tls.port}`, path: "/tls-hook" });
  });

  test("the certificate is checked against the URL's name, not the address", async () => {
    const url = `https://other.test:${tls.port}/tls-hook`;
    const { result, lastError } = await deliverOnce(url, { ...onLoopback, fetch: trusting });
    expect(result).toEqual({ delivered: 0, failed: 1 });
    expect(lastError).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
  });
});
