/**
 * One variant of a CPU-per-request benchmark, measured in a process of its own (so variants do
 * not share a JIT or a heap): the script runs itself with `--child=<variant>`, and the child's
 * last line is `{"usPerRequest": n}`.
 */
export async function usPerRequestOf(script: string, args: string[]): Promise<number> {
  const child = Bun.spawn(["bun", script, ...args], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(child.stdout).text();
  await child.exited;
  const { usPerRequest } = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
    usPerRequest: number;
  };
  return usPerRequest;
}
