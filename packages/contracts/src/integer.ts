import { type IntegerOptions, Type } from "@sinclair/typebox";

/**
 * A JSON integer and nothing else. Elysia's `t.Integer` also accepts numeric strings (it is
 * built for query strings) and would turn `"timeout": "100"` into 100; in a JSON body a string
 * is not an integer, and in the OpenAPI document it would read "string or integer".
 */
export const JsonInteger = (options?: IntegerOptions) => Type.Integer(options);
