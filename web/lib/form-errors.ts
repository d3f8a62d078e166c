import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api.ts";

/**
 * Puts a VALIDATION answer's per-field messages on the matching form fields.
 * Returns true when at least one field got a message.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly Path<T>[],
): boolean {
  if (!(error instanceof ApiError) || !error.fields) return false;
  let applied = false;
  for (const [field, message] of Object.entries(error.fields)) {
    const name = knownFields.find((f) => f === field);
    if (name) {
      setError(name, { type: "server", message });
      applied = true;
    }
  }
  return applied;
}
