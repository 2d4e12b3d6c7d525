export { componentRegistry } from "./components.ts";
export {
  type DeclaredHeader,
  genericProblems,
  headersOf,
  problemCodesOf,
  problemDeclarations,
  withHeaders,
} from "./declare.ts";
export {
  buildDocument,
  type DocumentOptions,
  type OpenApiDocument,
  type Operation,
} from "./document.ts";
export { HEADER_COMPONENTS } from "./headers.ts";
export { type DocumentPart, mergeDocuments } from "./merge.ts";
export {
  documentOf,
  json,
  openApiDocument,
  referencePages,
  type ServerOptions,
  withServer,
} from "./reference.ts";
export type { RouteInfo } from "./request.ts";
