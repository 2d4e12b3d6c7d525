import { Elysia } from "elysia";
import { assetResponse } from "../assets/service.ts";
import type { Branding } from "./model.ts";

/** The logo, at its content-hashed address (cached forever, like the bundle's assets). */
export const branding = ({ logo }: Branding) => {
  const app = new Elysia({ name: "branding" });
  if (!logo) return app;
  return app.get(logo.url, ({ request }) => assetResponse(logo.asset, request.headers));
};
