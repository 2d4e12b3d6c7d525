import { describe, expect, test } from "bun:test";
import {
  ConfigError,
  ipv6Words,
  normalizeIp,
  parseTrustedProxies,
  rateLimitKey,
  resolveClientIp,
} from "../src/index.ts";

const loopback = parseTrustedProxies("loopback");
const none = parseTrustedProxies("none");

describe("parseTrustedProxies", () => {
  test("accepts groups, addresses and CIDR ranges of both families", () => {
    const trusted = parseTrustedProxies("loopback, 10.1.0.0/16, 2001:db8::/32, 192.0.2.7");
    for (const ip of [
      "127.0.0.1",
      "127.9.9.9",
      "::1",
      "10.1.200.3",
      "2001:db8:1::5",
      "192.0.2.7",
    ]) {
      expect(trusted.has(ip)).toBe(true);
    }
    for (const ip of ["10.2.0.1", "192.0.2.8", "2001:db9::1", "8.8.8.8", "not-an-ip"]) {
      expect(trusted.has(ip)).toBe(false);
    }
  });

  test("an empty list or `none` trusts nobody", () => {
    expect(parseTrustedProxies("").has("127.0.0.1")).toBe(false);
    expect(none.has("127.0.0.1")).toBe(false);
  });

  test.each(["10.0.0.0/33", "banana", "1.2.3", "::1/129", "10.0.0.0/x"])("rejects %p", (entry) => {
    expect(() => parseTrustedProxies(entry)).toThrow(ConfigError);
  });
});

describe("normalizeIp", () => {
  test("IPv4-mapped IPv6 is the IPv4 address; zone ids and case are dropped", () => {
    expect(normalizeIp("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(normalizeIp("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(normalizeIp("FE80::1%eth0")).toBe("fe80::1");
    expect(normalizeIp(" 2001:DB8::1 ")).toBe("2001:db8::1");
  });
});

describe("resolveClientIp", () => {
  test("an untrusted peer is the client whatever X-Forwarded-For says", () => {
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", loopback)).toBe("203.0.113.9");
    expect(resolveClientIp("127.0.0.1", "1.2.3.4", none)).toBe("127.0.0.1");
  });

  test("behind a trusted proxy the right-most untrusted hop is the client", () => {
    // The client tried to spoof 6.6.6.6; the proxy appended the real address 198.51.100.4.
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 198.51.100.4", loopback)).toBe("198.51.100.4");
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 198.51.100.4, 127.0.0.2", loopback)).toBe(
      "198.51.100.4",
    );
  });

  test("a malformed hop ends the walk at the last believable address", () => {
    expect(resolveClientIp("127.0.0.1", "198.51.100.4, garbage", loopback)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "", loopback)).toBe("127.0.0.1");
  });

  test("a chain of trusted proxies resolves to its left-most hop", () => {
    expect(resolveClientIp("127.0.0.1", "127.0.0.3, 127.0.0.2", loopback)).toBe("127.0.0.3");
  });

  test("an IPv4-mapped peer is matched and reported as IPv4", () => {
    expect(resolveClientIp("::ffff:127.0.0.1", "198.51.100.4", loopback)).toBe("198.51.100.4");
    expect(resolveClientIp("::ffff:203.0.113.9", null, loopback)).toBe("203.0.113.9");
  });

  test("no peer (an in-process request) is no address", () => {
    expect(resolveClientIp(undefined, "1.2.3.4", loopback)).toBeUndefined();
  });
});

describe("rateLimitKey", () => {
  test("IPv4 counts per address, mapped IPv6 as its IPv4", () => {
    expect(rateLimitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(rateLimitKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  test("IPv6 counts per /64, however the address is written", () => {
    const key = rateLimitKey("2001:db8:aa:bb::1");
    expect(key).toBe("2001:db8:aa:bb::/64");
    expect(rateLimitKey("2001:0db8:00aa:00bb:ffff:1:2:3")).toBe(key);
    expect(rateLimitKey("2001:db8:aa:bc::1")).not.toBe(key);
    expect(rateLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitKey("2001:db8::1.2.3.4")).toBe("2001:db8:0:0::/64");
  });
});

describe("ipv6Words", () => {
  test.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["1::", [1, 0, 0, 0, 0, 0, 0, 0]],
    ["2001:DB8::FFFF:1", [0x2001, 0xdb8, 0, 0, 0, 0, 0xffff, 1]],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]],
    ["::ffff:127.0.0.1", [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]],
    ["64:ff9b::192.0.2.33", [0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x221]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("%s → %j", (address, words) => {
    expect(ipv6Words(address)).toEqual(words);
  });
});
