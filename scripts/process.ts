/** Commands run to completion with their output captured: the check, CI and infra scripts. */

export type Ran = { code: number; stdout: string; stderr: string };

/** Runs a command to completion, its output captured (and echoed when `echo`). */
export async function sh(
  cmd: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; echo?: boolean } = {},
): Promise<Ran> {
  const proc = Bun.spawn(cmd, {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  const collect = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const part = decoder.decode(chunk, { stream: true });
      text += part;
      if (opts.echo) sink.write(part);
    }
    return text;
  };
  const [stdout, stderr] = await Promise.all([
    collect(proc.stdout, process.stdout),
    collect(proc.stderr, process.stderr),
  ]);
  return { code: await proc.exited, stdout, stderr };
}

/** Like `sh`, but a non-zero exit is an error carrying the command's own words. */
export async function must(cmd: string[], opts: Parameters<typeof sh>[1] = {}): Promise<string> {
  const ran = await sh(cmd, opts);
  if (ran.code !== 0) {
    throw new Error(`${cmd.join(" ")} exited ${ran.code}: ${(ran.stderr || ran.stdout).trim()}`);
  }
  return ran.stdout;
}
