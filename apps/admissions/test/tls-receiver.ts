/*
 * A TLS receiver for "receiver.test" on loopback: a webhook delivery pinned to 127.0.0.1 must
 * still verify the certificate against the URL's name. The certificate is self-signed, for
 * receiver.test only, valid 2000-2099; made once with `openssl ca -selfsign` (an EC P-256
 * key, CA:TRUE so it can be its own trust anchor, subjectAltName DNS:receiver.test). It
 * guards nothing: a test key.
 */

export const RECEIVER_NAME = "receiver.test";

export const RECEIVER_CERT = `-----BEGIN CERTIFICATE-----
MIIBbDCCAROgAwIBAgIBATAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1yZWNlaXZl
ci50ZXN0MCAXDTAwMDEwMTAwMDAwMFoYDzIwOTkxMjMxMjM1OTU5WjAYMRYwFAYD
VQQDDA1yZWNlaXZlci50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAED2E4
MNik/UyQmFElPh2eYFW3IQgYckMMMFdf+zuYSy5io3+nPq9eHAzJBOqVW3nnKoMZ
ymwWZZ5Xrzu0dvo+eKNMMEowDwYDVR0TAQH/BAUwAwEB/zAYBgNVHREEETAPgg1y
ZWNlaXZlci50ZXN0MB0GA1UdDgQWBBQTXfIxpXzT1p9zt6kxnwdNofbWmTAKBggq
hkjOPQQDAgNHADBEAiB5auQNVMN+qyQlVs/L7NraPjRhPvV+cMfVtbrYG6zgLAIg
PNdbLWcjUjMjqNfS2raykDS4QdUVJ1ifhe9drG6lYW8=
-----END CERTIFICATE-----
`;

const RECEIVER_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgJqLi3N9oX0SccAq5
uNjqwfLagr6heQEnNfSPOfS/uiWhRANCAAQPYTgw2KT9TJCYUSU+HZ5gVbchCBhy
QwwwV1/7O5hLLmKjf6c+r14cDMkE6pVbeecqgxnKbBZlnlevO7R2+j54
-----END PRIVATE KEY-----
`;

/** What a receiver saw of one request. */
export type Seen = { host: string | null; path: string };

/** An HTTPS server on 127.0.0.1 that answers 200 and records each request's Host and path. */
export function startTlsReceiver() {
  const seen: Seen[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: RECEIVER_CERT, key: RECEIVER_KEY },
    fetch(request) {
      seen.push({ host: request.headers.get("host"), path: new URL(request.url).pathname });
      return new Response("ok");
    },
  });
  return { port: server.port, seen, stop: () => server.stop(true) };
}
