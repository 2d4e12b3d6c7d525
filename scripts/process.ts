/** Commands run to completion with their output captured: the check, CI and infra scripts. */

export type Ran = { code: number; stdout: string; stderr: string };

/** Runs a command to completion, its output captured (and echoed when `echo`). */
export async function sh(
  cmd: string[],
  opts: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    echo?: boolean;
    /** Killed (SIGKILL) past this; its exit code is then non-zero and a line says why. */
    timeoutMs?: number;
    /** Killed when this aborts (SIGKILL with `timeoutMs`, else SIGTERM). */
    signal?: AbortSignal;
  } = {},
): Promise<Ran> {
  const proc = Bun.spawn(cmd, {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    stdout: "pipe",
    stderr: "pipe",
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs, killSignal: "SIGKILL" as const } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const started = Date.now();
  // What has arrived so far, kept outside the readers: a command whose own children still hold
  // its pipes after it exited is answered with what it wrote, not with nothing.
  const text = { stdout: "", stderr: "" };
  const collect = async (
    stream: ReadableStream<Uint8Array>,
    sink: NodeJS.WriteStream,
    key: keyof typeof text,
  ) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const part = decoder.decode(chunk, { stream: true });
      text[key] += part;
      if (opts.echo) sink.write(part);
    }
  };
  const streams = Promise.all([
    collect(proc.stdout, process.stdout, "stdout"),
    collect(proc.stderr, process.stderr, "stderr"),
  ]).then(() => true);
  const code = await proc.exited;
  // A command's own children may still hold its pipes open: give them a moment, no more, and
  // say which processes started during the command are still alive.
  const closed = await Promise.race([streams, Bun.sleep(5_000).then(() => false)]);
  if (!closed) {
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const alive = Bun.spawnSync(["ps", "-eo", "pid,ppid,etimes,args"])
      .stdout.toString()
      .split("\n")
      .filter((line) => Number(line.trim().split(/\s+/)[2]) <= seconds)
      .join("\n");
    process.stderr.write(
      `\n!! ${cmd.join(" ")} exited but its output stayed open 5 s; processes started since:\n${alive}\n`,
    );
  }
  const { stdout, stderr } = text;
  if (proc.signalCode === "SIGKILL" && opts.timeoutMs && !opts.signal?.aborted) {
    const line = `\n!! ${cmd.join(" ")} did not finish within ${opts.timeoutMs / 1000} s: killed\n`;
    process.stderr.write(line);
    return { code: code || 137, stdout, stderr: stderr + line };
  }
  return { code, stdout, stderr };
}

/** Like `sh`, but a non-zero exit is an error carrying the command's own words. */
export async function must(cmd: string[], opts: Parameters<typeof sh>[1] = {}): Promise<string> {
  const ran = await sh(cmd, opts);
  if (ran.code !== 0) {
    throw new Error(`${cmd.join(" ")} exited ${ran.code}: ${(ran.stderr || ran.stdout).trim()}`);
  }
  return ran.stdout;
}
