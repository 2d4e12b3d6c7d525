/** The set-up step's bookkeeping: what is missing, by command on PATH or by absolute path. */
import { describe, expect, test } from "bun:test";
import { missingOf, NEEDS } from "../scripts/setup.ts";

describe("setup: what is missing", () => {
  const none = () => null;
  const all = (command: string) => `/usr/bin/${command}`;

  test("commands are looked up on PATH", () => {
    expect(missingOf(NEEDS.start, none).map((need) => need.pkg)).toEqual(["bubblewrap"]);
    expect(missingOf(NEEDS.start, all)).toEqual([]);
  });

  test("absolute paths (podman's helpers outside PATH) are looked up as files", () => {
    const needs = [
      { command: "/bin/sh", pkg: "dash", why: "present" },
      { command: "/usr/lib/podman/no-such-helper", pkg: "absent", why: "absent" },
    ];
    // Whatever PATH says, a path is a file that exists or not.
    expect(missingOf(needs, all).map((need) => need.pkg)).toEqual(["absent"]);
  });

  test("the compose check names every package it needs, each with why", () => {
    expect(NEEDS.compose.map((need) => need.pkg).sort()).toEqual([
      "aardvark-dns",
      "catatonit",
      "docker-compose",
      "iptables",
      "mmdebstrap",
      "netavark",
      "podman",
      "runc",
    ]);
    for (const need of NEEDS.compose) expect(need.why.length).toBeGreaterThan(5);
  });
});
