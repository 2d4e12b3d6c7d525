export { ApplicationParams, FeeSummary } from "../payments/model.ts";
