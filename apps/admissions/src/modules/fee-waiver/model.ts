export { ApplicationParams, FeeSummary, ReasonBody } from "../payments/model.ts";
