// `bun run signing-key`: prints a new Ed25519 private key for ADMISSIONS_SIGNING_KEY (PKCS#8,
// base64). Keep it secret; after a change the old public key stays listed, so what it signed
// still verifies (docs/admissions/signed-documents.md).
import { generateSigningKey } from "../modules/signed-documents/service.ts";

console.log(await generateSigningKey());
