import { isObject, type JsonSchema, toJsonSchema } from "./json-schema.ts";

/** `email-change` → `emailChange`: one word of an operationId. */
const camel = (segment: string) =>
  segment.replace(/[-_.]+([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** Segments every API shares, which would only repeat in each id. */
const PREFIX = /^(api|v\d+)$/;

/**
 * A list of the resource: a plain array, a page (`{ count, next, previous, results }`), or an
 * object holding the resource's items under its own name (`/references/` → `{ references }`).
 */
function isList(schema: unknown, resource: string | undefined): boolean {
  if (schema === undefined) return false;
  const json: JsonSchema = toJsonSchema(schema);
  if (json.type === "array") return true;
  const properties = isObject(json.properties) ? json.properties : {};
  const own = resource === undefined ? undefined : properties[resource];
  return "results" in properties || (isObject(own) && own.type === "array");
}

/**
 * A readable, stable operationId from the route's path and method, `<resource>.<verb>`, which
 * the typed client's `operations` are keyed by: the path's words without its parameters and the
 * shared `/api/v1` (`applications.documents`), then what the method does to it:
 *
 * - on an item (the path ends in a parameter): `get`, `replace` (PUT), `update` (PATCH), `delete`;
 * - on a collection: `list` (GET answering a list, below), `get` (GET of one thing),
 *   `create` (POST answering 201), `replace`, `update`, `deleteAll`;
 * - a POST answering anything but 201 is an action named by its last word:
 *   `POST /api/v1/applications/:id/submit/` is `applications.submit`.
 *
 * A route may name its own (`detail.operationId`) where these words say it badly; the builder
 * refuses two operations with one id.
 */
export function operationIdOf(method: string, path: string, response: Record<string, unknown>) {
  const segments = path.split("/").filter((s) => s !== "" && !PREFIX.test(s));
  const onItem = segments.at(-1)?.startsWith(":") ?? false;
  const words = segments.filter((s) => !s.startsWith(":")).map(camel);
  const resource = (rest: string[]) => (rest.length > 0 ? rest : ["root"]).join(".");
  const verb = method.toLowerCase();
  if (verb === "post" && !onItem && !("201" in response) && words.length > 1) {
    return `${resource(words.slice(0, -1))}.${words.at(-1)}`;
  }
  const verbs: Record<string, string> = onItem
    ? { get: "get", put: "replace", patch: "update", delete: "delete", post: "create" }
    : {
        get: isList(response["200"], words.at(-1)) ? "list" : "get",
        post: "create",
        put: "replace",
        patch: "update",
        delete: "deleteAll",
      };
  return `${resource(words)}.${verbs[verb] ?? verb}`;
}
