/**
 * TOTP secrets at rest: sealed by the shared secret box (lib/secret-box.ts) under a key derived
 * from ADMISSIONS_MFA_KEY (or, unset, ADMISSIONS_JWT_SECRET), the user id as additional data.
 */
import { type SecretBox, secretBox as sealedWith } from "../../../lib/secret-box.ts";

export type { SecretBox };

// The purpose string is part of the derived key: changing it would lock out every enrolled user.
export const secretBox = (keyMaterial: string): SecretBox =>
  sealedWith(keyMaterial, "mfa-totp-secret/v1");
