/**
 * Money typed by a person in major units ("50", "50.00", "1 250,5") as the API's minor units,
 * and back. The currency's digits come from Intl (EUR 2, JPY 0), as formatMoney does.
 */
export function digitsOf(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Minor units, or null when the text is not an amount in that currency's digits. */
export function toMinor(text: string, currency: string): number | null {
  const digits = digitsOf(currency);
  const cleaned = text
    .trim()
    .replace(/[\s\u00a0]/g, "")
    .replace(",", ".");
  const pattern = digits > 0 ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
  if (!pattern.test(cleaned)) return null;
  const [whole = "0", fraction = ""] = cleaned.split(".");
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** Minor units as the text a person edits ("50.00"). */
export function fromMinor(amount: number, currency: string): string {
  const digits = digitsOf(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
