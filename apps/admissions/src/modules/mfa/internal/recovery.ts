/**
 * Recovery codes: 10 per enrolment, 12 characters of Crockford's base32 (60 random bits) shown
 * as `xxxx-xxxx-xxxx`. So much entropy needs no slow hash: they are stored as SHA-256 digests.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // 32 symbols divide 256 evenly: `byte & 31` is uniform.
    const chars = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => ALPHABET[b & 31]);
    return [0, 4, 8].map((i) => chars.slice(i, i + 4).join("")).join("-");
  });
}

/** As typed: any case, dashes and spaces ignored, and Crockford's look-alikes (i, l, o) read. */
const normalize = (code: string): string =>
  code.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");

export const recoveryCodeHash = (code: string): string =>
  new Bun.CryptoHasher("sha256").update(normalize(code)).digest("hex");
