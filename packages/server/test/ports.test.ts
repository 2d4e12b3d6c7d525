/** The test helpers' ports (support/ports.ts), which every stack a test or a drill starts uses. */
import { describe, expect, test } from "bun:test";
import { freePort, freePorts } from "./support/index.ts";

describe("free ports", () => {
  // The drills' stack took its ten replicas' ports one call after another; the OS may hand a
  // released port out again at once (0.7 % of such stacks had two replicas on one port,
  // measured over 2,000), and the replica that listened later never started, nor did it come
  // back after a kill: its port was the other's.
  test("freePort never hands out, in one process, a port it handed out recently", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 500; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  test("freePorts: as many distinct ports as asked, none that freePort handed out before", async () => {
    const before: number[] = [];
    for (let i = 0; i < 200; i++) before.push(await freePort());
    const ports = await freePorts(200);
    expect(ports).toHaveLength(200);
    expect(new Set([...before, ...ports]).size).toBe(400);
  });
});
