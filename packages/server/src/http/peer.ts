import type { Server } from "bun";

/**
 * The address of the connection a request came on. Bun.serve knows it by the request object;
 * the pipelining listener (pipelining-listener.ts) has no Bun server and records it here.
 */
const peers = new WeakMap<Request, string>();

export const rememberPeer = (request: Request, address: string): void => {
  peers.set(request, address);
};

export function peerAddressOf(
  request: Request,
  server: Server<unknown> | null | undefined,
): string | undefined {
  return peers.get(request) ?? server?.requestIP(request)?.address;
}
