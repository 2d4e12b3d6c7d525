/* A reviewer's own queue of assigned applications. The module's public face. */
export { type QueueDeps, reviewQueue } from "./internal/queue.ts";
