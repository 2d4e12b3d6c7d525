import { t } from "elysia";
import { enumOf, Id, idParams, Timestamp } from "../../lib/schema.ts";

export const DOCUMENT_KINDS = ["offer_letter", "payment_receipt"] as const;
export const DocumentKind = enumOf(DOCUMENT_KINDS);
export type DocumentKind = typeof DocumentKind.static;

const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256, lowercase hex" });

export const OfferLetterParams = idParams("applicationId");
export const ReceiptParams = idParams("paymentId");
export const VerifyQuery = t.Object({ sha256: Sha256 });

export const VERIFY_OUTCOMES = [
  "valid",
  "unknown_document",
  "hash_mismatch",
  "signature_invalid",
] as const;

export const Verification = t.Object({
  valid: t.Boolean(),
  outcome: enumOf(VERIFY_OUTCOMES, {
    description:
      "`valid`: issued here, byte for byte, and the signature holds; `unknown_document`: no document has these bytes (or this id); `hash_mismatch`: the id exists but the bytes are not its bytes; `signature_invalid`: the record's signature does not hold (report it)",
  }),
  document: t.Nullable(
    t.Object(
      {
        id: Id,
        kind: DocumentKind,
        issuedAt: Timestamp,
        sha256: Sha256,
        signature: t.String({ description: "Ed25519 over the PDF's exact bytes, base64url" }),
        keyId: t.String({ description: "`kid` of the public key in /keys/" }),
      },
      { description: "What the document is; null unless valid" },
    ),
  ),
});
export type Verification = typeof Verification.static;

export const PublicKey = t.Object({
  kty: t.Literal("OKP"),
  crv: t.Literal("Ed25519"),
  x: t.String(),
  kid: t.String({ description: "RFC 7638 thumbprint (SHA-256, base64url)" }),
  use: t.Literal("sig"),
  alg: t.Literal("EdDSA"),
  current: t.Boolean({ description: "Signs new documents; the others signed older ones" }),
  createdAt: Timestamp,
});
export type PublicKey = typeof PublicKey.static;
export const KeySet = t.Object({ keys: t.Array(PublicKey) });
export type KeySet = typeof KeySet.static;
