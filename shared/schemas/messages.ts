import { z } from "zod";

/**
 * The wording of a field error when its schema names none of its own (issue 10): short sentences a
 * user can act on, instead of zod's "Invalid input: expected string, received undefined". A schema's
 * own message always wins; this only fills the gaps. The server prefixes the field's name
 * ("name: Required"), the forms show it under the field.
 *
 * Loaded before the first check (server/app.ts; in the web app by lib/form-resolver.ts, which every
 * form's validation goes through): zod's configuration is global.
 */
type Issue = z.core.$ZodRawIssue;

const KIND: Record<string, string> = {
  string: "a text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  date: "a date",
  array: "a list",
  object: "an object",
  null: "empty",
};

const FORMAT: Record<string, string> = {
  email: "a valid e-mail address",
  uuid: "a valid id",
  guid: "a valid id",
  url: "a valid web address",
  date: "a valid date (YYYY-MM-DD)",
  datetime: "a valid date and time",
  regex: "in the expected format",
};

function sizeLimit(origin: string | undefined, n: number | bigint, most: boolean, inclusive: boolean) {
  const bound = Number(n);
  if (origin === "string") {
    if (!most && bound <= 1) return "Must not be empty";
    return `Must be at ${most ? "most" : "least"} ${bound} character${bound === 1 ? "" : "s"}`;
  }
  if (origin === "array" || origin === "set") {
    if (!most && bound <= 1) return "Must have at least one item";
    return `Must have at ${most ? "most" : "least"} ${bound} item${bound === 1 ? "" : "s"}`;
  }
  if (origin === "file") return most ? `Must be at most ${bound} bytes` : `Must be at least ${bound} bytes`;
  if (most) return inclusive ? `Must be at most ${bound}` : `Must be less than ${bound}`;
  return inclusive ? `Must be at least ${bound}` : `Must be more than ${bound}`;
}

function listOf(values: readonly unknown[]) {
  const shown = values.slice(0, 8).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return shown.join(", ") + (values.length > shown.length ? ", …" : "");
}

export function fieldMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Required";
      return `Must be ${KIND[issue.expected] ?? issue.expected}`;
    case "too_big":
      return sizeLimit(issue.origin, issue.maximum, true, issue.inclusive !== false);
    case "too_small":
      return sizeLimit(issue.origin, issue.minimum, false, issue.inclusive !== false);
    case "invalid_value":
      return issue.values.length === 1
        ? `Must be ${listOf(issue.values)}`
        : `Must be one of: ${listOf(issue.values)}`;
    case "invalid_format":
      return `Must be ${FORMAT[issue.format] ?? "in the expected format"}`;
    case "not_multiple_of":
      return `Must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return "Is not a valid value";
    case "invalid_key":
      return "Has an invalid key";
    case "invalid_element":
      return "Has an invalid item";
    default:
      return undefined;
  }
}

z.config({ customError: fieldMessage });
