import { useRef, useState } from "react";
import type { FieldError, FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from "react-hook-form";
import type { ZodType } from "zod";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import { ApiError } from "../../../../lib/api.ts";
import { useUploadPermitFile } from "../../api/upload-attachment.ts";
import { full } from "./lifecycle-dialogs.tsx";
// Its own check (bodyResolver) words field errors as every form does.
import "../../../../lib/zod-resolver.ts";

/**
 * The bond dialogs' forms hold what a person types (an increase or a decrease, an amount or a
 * percent); the API takes the contract's body (a signed change, one of amount and percent). The
 * dialog validates with the contract's own schema on the body it will send, so the messages are
 * the server's, and puts each on the field the person typed it in (`fieldOf`).
 */
export type FieldOf<V> = (apiField: string, values: V) => Path<V> | null;

export function bodyResolver<V extends FieldValues>(
  schema: ZodType,
  toBody: (values: V) => unknown,
  fieldOf: FieldOf<V>,
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

/** A server VALIDATION answer's messages on the form's fields; true when one landed. */
export function applyBodyErrors<V extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<V>,
  fieldOf: FieldOf<V>,
  values: V,
): boolean {
  if (!(error instanceof ApiError) || !error.fields) return false;
  let applied = false;
  for (const [apiField, message] of Object.entries(error.fields)) {
    const field = fieldOf(apiField, values);
    if (field) {
      setError(field, { type: "server", message });
      applied = true;
    }
  }
  return applied;
}

/** The same names on both sides, for the fields in `names`. */
export const sameNames =
  <V extends FieldValues>(names: readonly Path<V>[]): FieldOf<V> =>
  (apiField) =>
    (names as readonly string[]).includes(apiField) ? (apiField as Path<V>) : null;

/**
 * A ledger entry's document (a rider, the obligee's acceptance, the release letter): uploaded
 * through the permit's attachments before the entry is saved, so the entry can name it. A retry
 * after a refused save sends the same upload again rather than the file a second time.
 */
export function useBondDocument(permitId: string) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadPermitFile(setProgress);
  const uploaded = useRef<{ file: File; id: string } | null>(null);
  return {
    file,
    setFile,
    progress,
    isUploading: upload.isPending,
    uploadError: upload.error,
    /** Uploads the chosen file (once) and answers its attachment id; null without a file. */
    documentId: async (): Promise<string | null> => {
      if (!file) return null;
      if (uploaded.current?.file === file) return uploaded.current.id;
      const attachment = await upload.mutateAsync({ permitId, file });
      uploaded.current = { file, id: attachment.id };
      return attachment.id;
    },
    reset: () => {
      setFile(null);
      uploaded.current = null;
      upload.reset();
    },
  };
}

export type BondDocument = ReturnType<typeof useBondDocument>;

/** 'Attach File' with the chosen name, or what the document is for; the upload's progress. */
export function DocumentPicker({
  document,
  label,
  hint,
  disabled,
}: {
  document: BondDocument;
  /** The input's accessible name: "Rider document", "Release letter". */
  label: string;
  hint: string;
  disabled: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { file } = document;
  return (
    <Box sx={{ ...full, display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
      <Button variant="outlined" component="label" startIcon={<AttachFile />} disabled={disabled}>
        Attach File
        <input
          ref={input}
          type="file"
          hidden
          aria-label={label}
          onChange={(e) => document.setFile(e.target.files?.[0] ?? null)}
        />
      </Button>
      {file ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
          <Typography variant="body2" noWrap sx={{ maxWidth: 260 }}>
            {file.name}
          </Typography>
          <IconButton
            size="small"
            aria-label="Remove the chosen file"
            disabled={disabled}
            onClick={() => {
              document.setFile(null);
              if (input.current) input.current.value = "";
            }}
          >
            <Close fontSize="small" />
          </IconButton>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
      {document.isUploading ? (
        <Typography variant="body2" color="text.secondary" role="status" sx={full}>
          Uploading the file... {Math.round(document.progress * 100)}%
        </Typography>
      ) : null}
    </Box>
  );
}
