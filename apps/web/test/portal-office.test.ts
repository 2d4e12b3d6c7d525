/**
 * The office pages' lists held to the API's (the client bundle keeps its own copies: the models'
 * module is server code). The audit log in words: every action the API records has a sentence in
 * both catalogues, so no entry ever falls back to its code (`application.transition`).
 */
import { describe, expect, test } from "bun:test";
import {
  AUDIT_ACTIONS as API_ACTIONS,
  DOCUMENT_TYPES as API_DOCUMENT_TYPES,
  EVENT_TYPES as API_EVENT_TYPES,
  LEVELS as API_LEVELS,
} from "@platform/admissions/models";
import { en } from "../src/client/portal/i18n/en.ts";
import { fr } from "../src/client/portal/i18n/fr.ts";
import { AUDIT_ACTIONS } from "../src/client/portal/staff/audit/words.ts";
import { DOCUMENT_TYPES, LEVELS } from "../src/client/portal/staff/programmes/ProgrammeForm.tsx";
import { EVENT_TYPES } from "../src/client/portal/staff/webhooks/WebhookForm.tsx";

test("the catalogue's levels and documents and the webhooks' events are the API's", () => {
  expect([...LEVELS].sort()).toEqual([...API_LEVELS].sort());
  expect([...DOCUMENT_TYPES].sort()).toEqual([...API_DOCUMENT_TYPES].sort());
  expect([...EVENT_TYPES].sort()).toEqual([...API_EVENT_TYPES].sort());
});

describe("the audit log's words", () => {
  test("the page knows exactly the actions the API records", () => {
    expect([...AUDIT_ACTIONS].sort()).toEqual([...API_ACTIONS].sort());
  });

  test("each action but a move (said as its two statuses) has a sentence in English and French", () => {
    const missing = (catalogue: Record<string, string>) =>
      AUDIT_ACTIONS.filter((a) => a !== "application.transition").filter(
        (a) => !catalogue[`office.audit.action.${a}`]?.trim(),
      );
    expect(missing(en)).toEqual([]);
    expect(missing(fr)).toEqual([]);
    // A sentence is words, not the code it stands for.
    for (const action of AUDIT_ACTIONS) {
      expect(en[`office.audit.action.${action}` as keyof typeof en] ?? "").not.toContain(action);
    }
    expect(en["office.audit.move"]).toContain("{from}");
    expect(fr["office.audit.move"]).toContain("{to}");
  });
});
