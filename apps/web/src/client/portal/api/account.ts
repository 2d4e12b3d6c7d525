import { API, type ApiAnswer, call, csrf, offline } from "./client.ts";
import type { DataRequest, PageOf, PersonalDetails, Profile, ProfileChange } from "./types.ts";

/** The applicant's own data: profile, its history, and the data-rights requests. */
export const account = {
  profile: () => call<Profile>("GET", "/profile/"),
  /** Every field, null for one left empty. */
  replaceProfile: (body: PersonalDetails) => call<Profile>("PUT", "/profile/", { body }),
  profileHistory: () => call<PageOf<ProfileChange>>("GET", "/profile/history/?limit=20"),
  dataRequests: () => call<PageOf<DataRequest>>("GET", "/data-rights/requests/?limit=50"),
  requestErasure: (password: string, reason: string) =>
    call<DataRequest>("POST", "/data-rights/erasure/", {
      body: reason ? { password, reason } : { password },
    }),
  cancelRequest: (id: string) => call<DataRequest>("POST", `/data-rights/requests/${id}/cancel/`),
};

export type Download = { blob: Blob; fileName: string };

/**
 * The export is a POST (it is recorded and emailed, and needs the CSRF token) answering a
 * streamed ZIP, so it is fetched here and handed to the browser as a blob: nothing personal
 * ever goes into a URL (the object URL is opaque and revoked once used).
 */
export async function downloadExport(): Promise<ApiAnswer<Download>> {
  const token = await csrf();
  let res: Response;
  try {
    res = await fetch(`${API}/data-rights/export/`, {
      method: "POST",
      headers: { accept: "application/zip", ...(token ? { "x-csrf-token": token } : {}) },
      credentials: "same-origin",
    });
  } catch {
    return offline();
  }
  if (!res.ok) {
    const problem = await res.json().catch(() => null);
    return {
      ok: false,
      status: res.status,
      problem:
        problem && typeof problem === "object" && "code" in problem
          ? problem
          : { ...offline().problem, status: res.status, code: `HTTP_${res.status}` },
    };
  }
  const named = res.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1];
  const blob = await res.blob();
  return {
    ok: true,
    status: res.status,
    data: { blob, fileName: named ?? "data.zip" },
    etag: null,
  };
}

/** Hands a blob to the browser as a file download. */
export function saveBlob({ blob, fileName }: Download): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked after the click has been handled, so the download has its bytes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
