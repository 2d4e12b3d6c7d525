/*
 * The fee itself lives in the payments ledger (payments/internal/): this module is the URL
 * it is reached by, so it uses payments' public face rather than a copy of the ledger.
 */
export { type PaymentsDeps as FeeDeps, waiveFee } from "../payments/service.ts";
