/*
 * The applicants' emails: the outbox written in each move's transaction, and its delivery.
 * The module's public face: its controller and the app's wiring import from here.
 */
export { listOutbox } from "./internal/outbox.ts";
