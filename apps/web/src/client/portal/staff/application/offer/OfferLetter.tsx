import type { Application } from "@platform/admissions/models";
import { useState } from "preact/hooks";
import { t } from "../../../i18n/use.ts";
import { FileViewer } from "../../ui/FileViewer.tsx";
import { offerLetterUrl } from "./api.ts";

/** The letter exists while an offer stands or was taken (docs/admissions/signed-documents.md). */
const HAS_LETTER = new Set(["offered", "conditionally_offered", "accepted", "enrolled"]);

type Signature = { id: string; sha256: string; keyId: string };

/**
 * The signed offer letter, shown in the page on request (a PDF the API signs with Ed25519),
 * with the document id and SHA-256 printed on it and sent with it, by which anyone can check
 * it. A change to the offer (a condition met) issues a new letter: it is read again then.
 */
export function OfferLetter({ application }: { application: Application }) {
  const [open, setOpen] = useState(false);
  const [signature, setSignature] = useState<Signature | null>(null);
  if (!HAS_LETTER.has(application.status)) return null;
  return (
    <div class="offer-letter" data-testid="offer-letter">
      <h3>{t("decide.letter.title")}</h3>
      <button
        type="button"
        class="secondary disclosure"
        aria-expanded={open}
        aria-controls="offer-letter-viewer"
        onClick={() => setOpen(!open)}
        data-testid="offer-letter-open"
      >
        {t(open ? "decide.letter.close" : "decide.letter.open")}
      </button>
      <div id="offer-letter-viewer">
        {open && (
          <>
            <FileViewer
              key={application.version}
              file={{
                title: t("decide.letter.title"),
                url: offerLetterUrl(application.id),
                mediaType: "application/pdf",
                fileName: `offer-letter-${application.program.code}.pdf`,
              }}
              onHeaders={(headers) =>
                setSignature({
                  id: headers.get("x-document-id") ?? "",
                  sha256: headers.get("x-document-sha256") ?? "",
                  keyId: headers.get("x-signing-key-id") ?? "",
                })
              }
            />
            {signature && (
              <dl class="details signature" data-testid="offer-letter-signature">
                <dt>{t("decide.letter.id")}</dt>
                <dd>
                  <code>{signature.id}</code>
                </dd>
                <dt>{t("decide.letter.sha256")}</dt>
                <dd>
                  <code>{signature.sha256}</code>
                </dd>
                <dt>{t("decide.letter.key")}</dt>
                <dd>
                  <code>{signature.keyId}</code>
                </dd>
              </dl>
            )}
          </>
        )}
      </div>
    </div>
  );
}
