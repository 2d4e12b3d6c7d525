import { describe, expect, test } from "bun:test";
import { loadEnv } from "../src/env.ts";
import { blockedRange } from "../src/modules/webhooks/internal/address.ts";
import { urlProblem } from "../src/modules/webhooks/internal/target.ts";

/*
 * Server-side request forgery through webhook targets: one judge of addresses (blockedRange),
 * for the literal a URL is saved with and every address a name resolves to at delivery
 * (webhook-delivery.test.ts). Each row is an address or URL and what must be said of it: null
 * (public, allowed) or a part of the refusal, which names the range.
 */

const PRIVATE = "must not point at a private, loopback or link-local address";

describe("blockedRange: IPv4", () => {
  test.each([
    ["127.0.0.1", "loopback 127.0.0.0/8"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private 10.0.0.0/8"],
    ["172.16.0.1", "private 172.16.0.0/12"],
    ["172.31.255.255", "private 172.16.0.0/12"],
    ["192.168.1.1", "private 192.168.0.0/16"],
    ["169.254.169.254", "link-local 169.254.0.0/16"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.1", "documentation 192.0.2.0/24"],
    ["198.51.100.7", "documentation 198.51.100.0/24"],
    ["203.0.113.9", "documentation 203.0.113.0/24"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["8.8.8.8", null],
    ["1.1.1.1", null],
    ["93.184.216.34", null],
    ["172.32.0.1", null],
    ["172.15.255.255", null],
    ["100.128.0.1", null],
    ["100.63.255.255", null],
    ["198.20.0.1", null],
    ["192.0.3.1", null],
    ["223.255.255.255", null],
  ])("%s → %p", (address, range) => {
    const said = blockedRange(address);
    if (range === null) expect(said).toBeNull();
    else expect(said).toContain(range);
  });

  // Forms only the URL parser reads (and rewrites dotted, below); anything else is refused.
  test.each(["0x7f.1", "2130706433", "127.1", "0177.0.0.1", "", "example.org", "::ffff:999.1.1.1"])(
    "%s is not an address it judges: refused",
    (text) => {
      expect(blockedRange(text)).toBe("not an IP address");
    },
  );
});

describe("blockedRange: IPv6, and the IPv4 inside it", () => {
  test.each([
    ["::", "unspecified"],
    ["0:0:0:0:0:0:0:0", "unspecified"],
    ["::1", "loopback ::1"],
    ["0:0:0:0:0:0:0:1", "loopback ::1"],
    ["::1%lo", "loopback ::1"],
    ["fe80::1", "link-local fe80::/10"],
    ["FE80::1%eth0", "link-local fe80::/10"],
    ["febf:ffff::1", "link-local fe80::/10"],
    ["fc00::1", "unique local"],
    ["fd12:3456:789a::1", "unique local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["FF05::1:3", "multicast"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation 2001:db8::/32"],
    ["2001:DB8:ffff::1", "documentation 2001:db8::/32"],
    ["3fff::1", "documentation 3fff::/20"],
    ["2001:2::1", "IETF protocol assignments 2001::/23"],
    ["2001:1ff::1", "IETF protocol assignments 2001::/23"],
    ["5f00::1", "not global unicast"],
    ["4000::1", "not global unicast"],
    ["1234::1", "not global unicast"],
    ["2606:4700:4700::1111", null],
    ["2a00:1450:4001:82a::200e", null],
    ["2001:4860:4860::8888", null],
    ["2001:200::1", null],
    // IPv4-compatible ::/96 (deprecated, still routed by some stacks).
    ["::127.0.0.1", "IPv4-compatible ::/96 of 127.0.0.1: loopback"],
    ["::7f00:1", "IPv4-compatible ::/96 of 127.0.0.1: loopback"],
    ["::a9fe:a9fe", "of 169.254.169.254: link-local"],
    ["::8.8.8.8", null],
    // IPv4-mapped ::ffff:0:0/96, in every spelling.
    ["::ffff:127.0.0.1", "IPv4-mapped of 127.0.0.1: loopback"],
    ["::ffff:7f00:1", "IPv4-mapped of 127.0.0.1: loopback"],
    ["::FFFF:7F00:0001", "IPv4-mapped of 127.0.0.1: loopback"],
    ["0:0:0:0:0:ffff:127.0.0.1", "IPv4-mapped of 127.0.0.1: loopback"],
    ["0000:0000:0000:0000:0000:ffff:7f00:0001", "IPv4-mapped of 127.0.0.1: loopback"],
    ["::ffff:7f00:1%eth0", "IPv4-mapped of 127.0.0.1: loopback"],
    ["::ffff:10.0.0.1", "of 10.0.0.1: private"],
    ["::ffff:a9fe:a9fe", "of 169.254.169.254: link-local"],
    ["::ffff:8.8.8.8", null],
    // IPv4-translated ::ffff:0:0:0/96 (RFC 2765).
    ["::ffff:0:127.0.0.1", "IPv4-translated ::ffff:0:0:0/96 of 127.0.0.1: loopback"],
    ["::ffff:0:7f00:1", "IPv4-translated ::ffff:0:0:0/96 of 127.0.0.1: loopback"],
    ["::ffff:0:c0a8:101", "of 192.168.1.1: private"],
    ["::ffff:0:8.8.8.8", null],
    // NAT64, the well-known prefix 64:ff9b::/96 (RFC 6052) and the local-use one (RFC 8215).
    ["64:ff9b::127.0.0.1", "NAT64 64:ff9b::/96 of 127.0.0.1: loopback"],
    ["64:ff9b::7f00:1", "NAT64 64:ff9b::/96 of 127.0.0.1: loopback"],
    ["64:FF9B::a9fe:a9fe", "of 169.254.169.254: link-local"],
    ["64:ff9b::10.1.1.1", "of 10.1.1.1: private"],
    ["64:ff9b::8.8.8.8", null],
    ["64:ff9b:1::1", "local-use NAT64 64:ff9b:1::/48"],
    ["64:ff9b:1:abcd::8.8.8.8", "local-use NAT64 64:ff9b:1::/48"],
    ["64:ff9b:0:0:1::1", "not global unicast"],
    // 6to4 2002::/16: the IPv4 address in the 32 bits after the prefix.
    ["2002:7f00:1::", "6to4 2002::/16 of 127.0.0.1: loopback"],
    ["2002:7f00:0001::1", "6to4 2002::/16 of 127.0.0.1: loopback"],
    ["2002:a9fe:a9fe::1", "of 169.254.169.254: link-local"],
    ["2002:c0a8:101:1::1", "of 192.168.1.1: private"],
    ["2002:808:808::1", null],
    // Teredo 2001::/32: the server's IPv4 address, then the client's with every bit inverted.
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo 2001::/32 of 127.0.0.1: loopback"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo 2001::/32 of 192.0.2.45: documentation"],
    ["2001:0:a00:1::", "Teredo 2001::/32 of 10.0.0.1: private"],
    ["2001::a9fe:a9fe:0:0:0:0", "of 169.254.169.254: link-local"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", null],
  ])("%s → %p", (address, range) => {
    const said = blockedRange(address);
    if (range === null) expect(said).toBeNull();
    else expect(said).toContain(range);
  });
});

describe("urlProblem: the URL an endpoint is saved with", () => {
  test.each([
    ["http://example.org/h", "must be an https:// URL"],
    ["https://example.org/h", null],
    ["https://8.8.8.8/h", null],
    ["https://[2606:4700:4700::1111]/h", null],
    ["https://[64:ff9b::8.8.8.8]/h", null],
    ["https://127.0.0.1/h", PRIVATE],
    ["https://127.0.0.1./h", PRIVATE],
    ["https://10.0.0.8/h", PRIVATE],
    ["https://169.254.169.254/latest", PRIVATE],
    // IPv4 as the URL parser reads it: hex, octal, a single number, short forms.
    ["https://0x7f.1/h", PRIVATE],
    ["https://0x7f.0x0.0x0.0x1/h", PRIVATE],
    ["https://0x7f000001/h", PRIVATE],
    ["https://2130706433/h", PRIVATE],
    ["https://127.1/h", PRIVATE],
    ["https://0177.0.0.1/h", PRIVATE],
    ["https://0/h", PRIVATE],
    ["https://%31%32%37.0.0.1/h", PRIVATE],
    ["https://１２７.０.０.１/h", PRIVATE],
    ["https://0xa9.0xfe.0xa9.0xfe/latest", PRIVATE],
    // IPv6 literals, and those carrying an IPv4 address.
    ["https://[::1]/h", PRIVATE],
    ["https://[::1]:8443/h", PRIVATE],
    ["https://[0:0:0:0:0:0:0:1]/h", PRIVATE],
    ["https://[fe80::1]/h", PRIVATE],
    ["https://[fd00::5]/h", PRIVATE],
    ["https://[::127.0.0.1]/h", PRIVATE],
    ["https://[::7f00:1]/h", PRIVATE],
    ["https://[::ffff:127.0.0.1]/h", PRIVATE],
    ["https://[::FFFF:7F00:1]/h", PRIVATE],
    ["https://[0:0:0:0:0:ffff:127.0.0.1]/h", PRIVATE],
    ["https://[::ffff:0:127.0.0.1]/h", PRIVATE],
    ["https://[::ffff:a9fe:a9fe]/latest", PRIVATE],
    ["https://[64:ff9b::127.0.0.1]/h", PRIVATE],
    ["https://[64:ff9b:1::a00:1]/h", PRIVATE],
    ["https://[2002:7f00:1::]/h", PRIVATE],
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/h", PRIVATE],
    // The URL parser takes no zone id, so such a URL is no URL at all.
    ["https://[fe80::1%25eth0]/h", "not a URL"],
    ["https://[fe80::1%eth0]/h", "not a URL"],
    ["https://localhost/h", "must not point at this machine"],
    ["https://LOCALHOST/h", "must not point at this machine"],
    ["https://localhost./h", "must not point at this machine"],
    ["https://api.localhost/h", "must not point at this machine"],
    ["ftp://example.org/h", "must be an https:// URL"],
    ["https://u:p@example.org/h", "must not carry credentials"],
    ["https://example.org/h#x", "must not have a #fragment"],
  ])("%s → %p", (url, problem) => {
    expect(urlProblem(url, false)).toBe(problem);
  });

  test("with private targets allowed (development), loopback and http:// pass", () => {
    for (const url of ["http://127.0.0.1:4142/h", "https://[::1]/h", "http://localhost/h"]) {
      expect(urlProblem(url, true)).toBeNull();
    }
  });

  test("production refuses the switch that allows private targets", () => {
    const base = {
      NODE_ENV: "production",
      ADMISSIONS_JWT_SECRET: "x".repeat(40),
      ADMISSIONS_MAIL_DROP: "true",
    };
    expect(() => loadEnv({ ...base, ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(
      /ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS/,
    );
    expect(() => loadEnv(base)).not.toThrow();
  });
});
