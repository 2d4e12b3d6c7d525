/** What holds a port (port-holder.ts), for the start-up error of an app that cannot listen. */
import { describe, expect, test } from "bun:test";
import { listenError, portHolders } from "../src/http/port-holder.ts";
import { freePort } from "./support/index.ts";

describe.skipIf(process.platform !== "linux")("port holders", () => {
  test("a listening socket: this process, by pid and command, and its state", async () => {
    const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const [holder, ...others] = portHolders(listener.port);
      expect(others).toEqual([]);
      expect(holder).toStartWith(`pid ${process.pid} (`);
      expect(holder).toEndWith(", LISTEN");
      expect(listenError("127.0.0.1", listener.port, new Error("x")).message).toBe(
        `cannot listen on 127.0.0.1:${listener.port}: the port is held by ${holder}`,
      );
    } finally {
      listener.stop(true);
    }
  });

  test("a port nobody holds: nothing, and the error keeps the cause's words", async () => {
    const port = await freePort();
    expect(portHolders(port)).toEqual([]);
    expect(listenError("127.0.0.1", port, new Error("EACCES")).message).toBe(
      `cannot listen on 127.0.0.1:${port}: EACCES`,
    );
  });
});
