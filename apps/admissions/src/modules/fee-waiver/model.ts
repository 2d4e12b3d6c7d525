export { FeeSummary, ReasonBody } from "../payments/model.ts";
