import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api.ts";

/**
 * Which form field an API field's message belongs to (null: none of this form's). A form may hold
 * what a person types (an increase or a decrease, an amount or a percent) while the API takes the
 * contract's body (a signed change, one of amount and percent): then the message goes on the field
 * the person typed it in, which can depend on the values.
 */
export type FieldOf<V> = (apiField: string, values: V) => Path<V> | null;

/** The same names on both sides, for the fields in `names`. */
export const sameNames =
  <V extends FieldValues>(names: readonly Path<V>[]): FieldOf<V> =>
  (apiField) =>
    (names as readonly string[]).includes(apiField) ? (apiField as Path<V>) : null;

/**
 * Puts a VALIDATION answer's per-field messages on the form's fields: those named in `fields`, or
 * where `fields` (a FieldOf) puts them, given the values sent. Returns true when at least one field
 * got a message (the form shows the others' in an alert).
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[] | FieldOf<T>,
  values?: T,
): boolean {
  if (!(error instanceof ApiError) || !error.fields) return false;
  const fieldOf = typeof fields === "function" ? fields : sameNames(fields);
  let applied = false;
  for (const [apiField, message] of Object.entries(error.fields)) {
    const name = fieldOf(apiField, values as T);
    if (name) {
      setError(name, { type: "server", message });
      applied = true;
    }
  }
  return applied;
}
