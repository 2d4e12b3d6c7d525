/**
 * Signed PDFs: offer letters and payment receipts, signed with Ed25519 over their exact bytes,
 * and the public checks of them (docs/admissions.md, "Signed letters and receipts").
 */
export {
  type Issued,
  offerLetter,
  paymentReceipt,
  type SignedDocumentsDeps,
} from "./internal/issue.ts";
export {
  generateSigningKey,
  importSigningKey,
  type Signer,
  signer,
  verifySignature,
} from "./internal/signer.ts";
export { publicKeys, verifyById, verifyBytes } from "./internal/verify.ts";

/** The largest upload the public check reads: letters are a few KiB. */
export const MAX_VERIFY_BYTES = 2 * 1024 * 1024;
