import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PARAMS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** One step either side: a code typed just before its step ended, or a clock a little off. */
const WINDOW = 1;
export const ISSUER = "Admissions";

/** 160 random bits (RFC 4226's recommended length), base32 as apps expect. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/…` URI an authenticator app scans (as a QR code) or imports. */
export const otpauthUri = (secret: string, account: string): string =>
  new TOTP({
    ...PARAMS,
    issuer: ISSUER,
    label: account,
    secret: Secret.fromBase32(secret),
  }).toString();

/**
 * The time step `code` belongs to, if it is the secret's code within the window around
 * `nowMs`, else null. The caller accepts a step only once (queries.ts `claimStep`).
 */
export function stepOf(secret: string, code: string, nowMs: number): number | null {
  const delta = TOTP.validate({
    ...PARAMS,
    token: code,
    secret: Secret.fromBase32(secret),
    timestamp: nowMs,
    window: WINDOW,
  });
  return delta === null ? null : TOTP.counter({ period: PARAMS.period, timestamp: nowMs }) + delta;
}
