import type {
  Calibration,
  ExtraReview,
  Program,
  ProgramDetail,
  Ranking,
} from "@platform/admissions/models";
import { call } from "../../api/client.ts";
import type { PageOf } from "../../api/types.ts";

/** How reviewers score against each other (admins; docs/admissions/review.md, Calibration). */
const scope = (programId: string, intakeId?: string) =>
  `programId=${encodeURIComponent(programId)}${intakeId ? `&intakeId=${encodeURIComponent(intakeId)}` : ""}`;

export const calibrationApi = {
  /** Every programme, active or not (staff), by name: the ones a calibration is read for. */
  programmes: () => call<PageOf<Program>>("GET", "/catalog/programs/?limit=100&ordering=name"),
  programme: (id: string) => call<ProgramDetail>("GET", `/catalog/programs/${id}/`),
  calibration: (programId: string, intakeId?: string) =>
    call<Calibration>("GET", `/staff/calibration/?${scope(programId, intakeId)}`),
  ranking: (programId: string, intakeId: string | undefined, normalised: boolean) =>
    call<Ranking>(
      "GET",
      `/staff/calibration/ranking/?${scope(programId, intakeId)}&normalised=${normalised}`,
    ),
  flagged: (programId: string) =>
    call<{ items: ExtraReview[] }>(
      "GET",
      `/staff/calibration/extra-reviews/?programId=${encodeURIComponent(programId)}&flagged=true`,
    ),
};

/** The calibration page for a programme (and intake), linked from an application. */
export const calibrationHref = (programId: string, intakeId?: string) =>
  `/portal/staff/calibration?${scope(programId, intakeId)}`;
