export { FeeSummary } from "../payments/model.ts";
