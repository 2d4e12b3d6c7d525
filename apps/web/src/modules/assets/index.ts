import { HttpProblem } from "@platform/server";
import { Elysia } from "elysia";
import type { Bundle } from "../../build/bundle.ts";
import { assetResponse } from "./service.ts";

export type AssetsDeps = { bundle: () => Bundle };

/** The built scripts and styles, by hashed name: immutable, gzip when the client takes it. */
export const assets = ({ bundle }: AssetsDeps) =>
  new Elysia({ name: "assets", prefix: "/assets" }).get(
    "/:file",
    ({ params: { file }, request }) => {
      const asset = bundle().assets.get(file);
      if (!asset) throw new HttpProblem("NOT_FOUND", { detail: `No asset named ${file}` });
      return assetResponse(asset, request.headers);
    },
  );
