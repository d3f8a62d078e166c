import { useId, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import FormHelperText from "@mui/material/FormHelperText";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput from "@mui/material/OutlinedInput";
import Typography from "@mui/material/Typography";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { useSubmitLink } from "../api/request-link.ts";
import type { RequestField, RequestLink } from "../api/types.ts";
import { REQUEST_FIELD_LABELS, REQUEST_VALUE_MAX } from "../../../../shared/domain/document-requests.ts";
import { LinkFilePicker } from "./link-files.tsx";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;

/** What each field takes and its hint. */
const FIELD_INPUT: Record<RequestField, { type: string; inputMode?: "decimal"; hint?: string }> = {
  new_expiration_date: { type: "date" },
  new_permit_number: {
    type: "text",
    hint: "As on the renewed permit: the same number if it did not change.",
  },
  amount: {
    type: "text",
    inputMode: "decimal",
    hint: "What the rider changes the bond amount by, like 25000.00.",
  },
  effective_date: { type: "date" },
};

/** The server's checks (shared/schemas/document-requests.ts, requestValueError), without zod on this page. */
function check(field: RequestField, raw: string): string | null {
  const value = raw.trim();
  if (!value) return `Enter the ${REQUEST_FIELD_LABELS[field].toLowerCase()}`;
  if (FIELD_INPUT[field].type === "date" && !ISO_DATE.test(value)) return "Enter a date";
  if (field === "amount" && (!AMOUNT.test(value.replace(/,/g, "")) || Number(value.replace(/,/g, "")) === 0))
    return "Enter an amount, like 25000.00";
  return null;
}

function LinkField({
  field,
  value,
  error,
  onChange,
}: {
  field: RequestField;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const input = FIELD_INPUT[field];
  const label = REQUEST_FIELD_LABELS[field];
  const isDate = input.type === "date";
  const help = error ?? input.hint;
  return (
    <FormControl variant="outlined" fullWidth error={!!error}>
      <InputLabel htmlFor={id} shrink={isDate || undefined}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        notched={isDate || undefined}
        type={input.type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputProps={{
          inputMode: input.inputMode,
          "aria-required": true,
          "aria-describedby": help ? `${id}-help` : undefined,
          maxLength: REQUEST_VALUE_MAX,
        }}
      />
      {help ? <FormHelperText id={`${id}-help`}>{help}</FormHelperText> : null}
    </FormControl>
  );
}

/**
 * The open request's form: the files (uploaded as chosen), the fields the company asked for, and
 * 'Submit'. Checked here first (at least one file, the dates and the amount), then by the server.
 */
export function LinkForm({ token, link }: { token: string; link: RequestLink }) {
  const fields = link.request.fields;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field, ""])),
  );
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [filesError, setFilesError] = useState<string | null>(null);
  const submit = useSubmitLink(token);
  const serverFields = isApiError(submit.error) ? (submit.error.fields ?? {}) : {};
  const onSubmit = () => {
    const found = Object.fromEntries(fields.map((field) => [field, check(field, values[field] ?? "")]));
    setErrors(found);
    const noFile = link.files.length ? null : "Add at least one file.";
    setFilesError(noFile);
    if (noFile || Object.values(found).some(Boolean)) return;
    const typed = (field: RequestField) => {
      const value = (values[field] ?? "").trim();
      return field === "amount" ? value.replace(/,/g, "") : value;
    };
    const body = Object.fromEntries(
      fields.map((field) => [field, typed(field)]).filter(([, value]) => value),
    );
    submit.mutate(body);
  };
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      sx={{ display: "grid", gap: 2.5 }}
    >
      <Box component="section" aria-labelledby="link-files-heading" sx={{ display: "grid", gap: 1 }}>
        <Typography id="link-files-heading" variant="h2" sx={{ fontSize: "1rem", fontWeight: 650 }}>
          Upload the document
        </Typography>
        <LinkFilePicker token={token} files={link.files} label="Document file" />
        {filesError && !link.files.length ? (
          <Typography variant="body2" color="error" role="alert">
            {filesError}
          </Typography>
        ) : null}
      </Box>
      {fields.length ? (
        <Box component="section" aria-labelledby="link-fields-heading" sx={{ display: "grid", gap: 2 }}>
          <Typography id="link-fields-heading" variant="h2" sx={{ fontSize: "1rem", fontWeight: 650 }}>
            From the document
          </Typography>
          {fields.map((field) => (
            <LinkField
              key={field}
              field={field}
              value={values[field] ?? ""}
              error={errors[field] ?? serverFields[field] ?? serverFields[`values.${field}`] ?? null}
              onChange={(value) => {
                setValues((current) => ({ ...current, [field]: value }));
                setErrors((current) => ({ ...current, [field]: null }));
              }}
            />
          ))}
        </Box>
      ) : null}
      {submit.isError && !(isApiError(submit.error) && submit.error.status === 410) ? (
        <Alert severity="error">{errorMessage(submit.error)}</Alert>
      ) : null}
      <Button type="submit" variant="contained" size="large" fullWidth disabled={submit.isPending}>
        {submit.isPending ? "Submitting..." : "Submit"}
      </Button>
    </Box>
  );
}
