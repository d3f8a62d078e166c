import { useEffect } from "react";
import type { zodResolver } from "@hookform/resolvers/zod";
import type { FieldError, FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { input, output, ZodType } from "zod";
import type { FieldOf } from "./form-errors.ts";

/** A form's resolver, whose validation code can be fetched ahead of the first check. */
export type FormResolver<I extends FieldValues, C = unknown, O = I> = Resolver<I, C, O> & {
  /** Start loading the validation code ahead of the first check (on focus, on idle). */
  preload: () => void;
};

/** A schema, or a function that fetches it (a public page's first load carries no zod). */
type Source<S> = S | (() => Promise<S>);

/**
 * A form whose values are not the body the API takes: `toBody` makes the body of the values,
 * the check runs the contract's own schema on it (so the messages are the server's), and `fieldOf`
 * puts each message on the field the person typed it in.
 */
export interface BodyMapping<V> {
  toBody: (values: V) => unknown;
  fieldOf: FieldOf<V>;
}

// zod's wording for field errors whose schema names none (shared/schemas/messages.ts) is a global
// setting: every form's check waits for it here, and the adapter of @hookform/resolvers comes with
// it. Fetched once, on the first form's first check (or its preload): the start-up code (the sign-in
// page, the first list) carries no zod at all.
type Adapter = { zodResolver: typeof zodResolver };
let validation: Promise<Adapter> | undefined;
function loadValidation(): Promise<Adapter> {
  validation ??= Promise.all([
    import("../../shared/schemas/messages.ts"),
    import("@hookform/resolvers/zod"),
  ]).then(
    ([, adapter]) => adapter,
    (error: unknown) => {
      validation = undefined; // let the next check retry a failed download
      throw error;
    },
  );
  return validation;
}

/** The body check of a BodyMapping: the raw values go on to the submit handler. */
function bodyResolver<V extends FieldValues>(
  schema: ZodType,
  { toBody, fieldOf }: BodyMapping<V>,
): Resolver<V> {
  return async (values) => {
    const parsed = schema.safeParse(toBody(values));
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldOf(String(issue.path[0] ?? ""), values);
      if (field && !errors[field]) errors[field] = { type: "validate", message: issue.message };
    }
    // An issue of no field of this form (it should not happen): refuse all the same.
    if (!Object.keys(errors).length)
      errors.root = { type: "validate", message: parsed.error.issues[0]?.message ?? "Invalid" };
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

/**
 * The one resolver of the web app's forms: a zod schema of shared/schemas checks the values (with
 * @hookform/resolvers' adapter: the submit handler gets the schema's output), or, with a
 * BodyMapping, the body made of them. The source may be a function that fetches the schema: the
 * sign-in and reset screens, a visitor's first page, fetch zod on the first input.
 */
export function formResolver<S extends ZodType<unknown, FieldValues>, C = unknown>(
  source: Source<S>,
): FormResolver<input<S>, C, output<S>>;
export function formResolver<V extends FieldValues>(
  source: Source<ZodType>,
  mapping: BodyMapping<V>,
): FormResolver<V>;
export function formResolver(
  source: Source<ZodType>,
  mapping?: BodyMapping<FieldValues>,
): FormResolver<FieldValues> {
  let pending: Promise<Resolver<FieldValues>> | undefined;
  const get = () => {
    pending ??= Promise.all([typeof source === "function" ? source() : source, loadValidation()]).then(
      ([schema, adapter]) =>
        mapping
          ? bodyResolver(schema, mapping)
          : (adapter.zodResolver(schema as ZodType<unknown, FieldValues>) as Resolver<FieldValues>),
      (error: unknown) => {
        pending = undefined; // let the next attempt retry a failed download
        throw error;
      },
    );
    return pending;
  };
  const resolver = (async (values, context, options) =>
    (await get())(values, context, options)) as FormResolver<FieldValues>;
  resolver.preload = () => void get().catch(() => undefined);
  // A schema at hand means zod is loaded already: fetch the rest now rather than at the first check.
  if (typeof source !== "function") resolver.preload();
  return resolver;
}

/** Preloads a resolver's validation code once the page has rendered and the browser is idle. */
export function usePreloadWhenIdle(resolver: { preload: () => void }): void {
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(resolver.preload, { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(resolver.preload, 300);
    return () => window.clearTimeout(timer);
  }, [resolver]);
}
