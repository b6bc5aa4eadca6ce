import { ValidationError, getSchemaValidator, type TSchema } from "elysia";

/**
 * Turns a failed `t` schema check into the one sentence a client needs: which parameter, and
 * what was wrong with it (spec 7: BAD_REQUEST naming the parameter).
 *
 * Elysia names the parameter when a value has the wrong shape, but when a value passes the
 * shape check and then fails while being decoded (a JSON list whose items are not integers, a
 * number below its minimum) it throws the inner error and the name is lost. So the route's own
 * schema is checked again, parameter by parameter, to find the culprit.
 */

type Schema = TSchema & {
  type?: string;
  format?: string;
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  elysiaMeta?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};

/** A parameter that broke its schema: its name, where inside it, the part of the schema it broke. */
export interface InvalidParameter {
  name: string;
  path: string[];
  schema?: Schema;
  value: unknown;
  notJson?: boolean;
}

const validators = new WeakMap<Schema, NonNullable<ReturnType<typeof getSchemaValidator>>>();

function validatorFor(schema: Schema) {
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = getSchemaValidator(schema)!));
  return validator;
}

const pathOf = (pointer: string | undefined) => (pointer ?? "").split("/").filter(Boolean);

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The innermost ValidationError of a decode failure, with the paths of the layers around it. */
function decodeFailure(error: unknown, value: unknown): Omit<InvalidParameter, "name"> {
  const path: string[] = [];
  while (!(error instanceof ValidationError) && error instanceof Error && "error" in error) {
    path.push(...pathOf((error as { path?: string }).path));
    error = error.error;
  }
  if (!(error instanceof ValidationError)) return { path: [], value };
  const first = error.all[0] as { path?: string; schema?: Schema; value?: unknown } | undefined;
  return { path: [...path, ...pathOf(first?.path)], schema: first?.schema, value: first?.value };
}

function problemIn(schema: Schema, value: unknown): Omit<InvalidParameter, "name"> | undefined {
  const validator = validatorFor(schema);
  let problem: Omit<InvalidParameter, "name"> | undefined;
  const shapeError = validator.Check(value) ? undefined : validator.Errors(value).First();
  if (shapeError) problem = { path: pathOf(shapeError.path), schema: shapeError.schema as Schema, value: shapeError.value };
  else {
    try {
      validator.Decode(value);
    } catch (error) {
      problem = decodeFailure(error, value);
    }
  }
  const jsonParameter = schema.elysiaMeta === "ArrayString" || schema.elysiaMeta === "ObjectString";
  if (problem && jsonParameter && typeof value === "string" && !parsesAsJson(value)) return { path: [], schema, value, notJson: true };
  return problem;
}

/** The first parameter in `values` that breaks `schema` (a route's t.Object), in declaration order. */
export function findInvalidParameter(schema: TSchema, values: Record<string, unknown>): InvalidParameter | undefined {
  const { properties = {}, required = [] } = schema as Schema;
  for (const [name, property] of Object.entries(properties)) {
    const value = values[name];
    if (value === undefined) {
      if (required.includes(name)) return { name, path: [], value };
      continue;
    }
    const problem = problemIn(property, value);
    if (problem) return { name, ...problem };
  }
}

/** What Elysia itself reported, for the rare schema this module cannot re-check. */
export function invalidParameterFromError(error: unknown): InvalidParameter | undefined {
  if (!(error instanceof ValidationError)) return undefined;
  const first = error.all[0] as { path?: string; schema?: Schema; value?: unknown } | undefined;
  const [name, ...path] = pathOf(first?.path);
  if (!name || !["body", "query", "params"].includes(error.type)) return undefined;
  return { name, path, schema: first?.schema, value: first?.value };
}

function kindOf(schema: Schema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.format ?? schema.type) {
    case "integer":
      return "an integer";
    case "numeric":
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "ArrayString":
    case "array":
      return "a list";
    case "ObjectString":
    case "object":
      return "an object";
    default:
      return "a string";
  }
}

const variantsOf = (schema: Schema): Schema[] => (schema.anyOf ? schema.anyOf.flatMap(variantsOf) : [schema]);

function outOfBounds(schema: Schema, value: unknown): string | undefined {
  if (typeof value === "string") {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `is too long (at most ${schema.maxLength} characters)`;
    if (schema.minLength !== undefined && value.length < schema.minLength) return `is too short (at least ${schema.minLength} characters)`;
  } else if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `has too many items (at most ${schema.maxItems})`;
    if (schema.minItems !== undefined && value.length < schema.minItems) return `has too few items (at least ${schema.minItems})`;
  } else if (typeof value === "number") {
    if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}`;
    if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}`;
  }
}

/** The error message: Zulip's wording for a missing or non-JSON argument, plain English otherwise. */
export function describeInvalidParameter(invalid: InvalidParameter): string {
  if (invalid.notJson) return `Argument '${invalid.name}' is not valid JSON.`;
  if (invalid.value === undefined && invalid.path.length === 0) return `Missing '${invalid.name}' argument`;
  const label = `'${invalid.name}${invalid.path.map((key) => `[${key}]`).join("")}'`;
  if (invalid.value === undefined) return `${label} is missing`;
  const bounds = invalid.schema && outOfBounds(invalid.schema, invalid.value);
  if (bounds) return `${label} ${bounds}`;
  const kinds = invalid.schema ? [...new Set(variantsOf(invalid.schema).map(kindOf))] : [];
  return kinds.length > 0 ? `${label} must be ${kinds.join(" or ")}` : `${label} is invalid`;
}
