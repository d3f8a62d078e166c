import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { SxProps, Theme } from "@mui/material/styles";
import {
  DEFAULT_EXPIRY_DAYS,
  EXPIRY_DAYS_MAX,
  EXPIRY_RULES,
  EXPIRY_RULE_LABELS,
  LEAD_DAYS_MAX,
} from "../../shared/domain/lifecycle.ts";

/** What a form needs to hold the expiry defaults (the permit form and the template rows). */
export interface ExpiryFieldValues extends FieldValues {
  expiry_rule?: string;
  expiry_days?: string | number | null;
  renewal_lead_days?: string | number | null;
}

/**
 * 'Expiry Rule' ('Fixed date' or 'Days after last passed inspection'), its 'Days' (shown only
 * under the second rule, 180 when first chosen) and 'Renewal Lead Time (days)', bound to a
 * react-hook-form form whose fields have those names (issue 11). Rendered as siblings, so the
 * parent's grid or flex row places them.
 */
export function ExpiryRuleFields<T extends ExpiryFieldValues, C, O extends FieldValues>({
  control,
  size,
  fieldSx,
  showHints = true,
}: {
  // Any form whose values include the three fields, whatever its context and output types.
  control: Control<T, C, O>;
  size?: "small" | "medium";
  fieldSx?: SxProps<Theme>;
  showHints?: boolean;
}) {
  const rule = useController({ control, name: "expiry_rule" as FieldPath<T> });
  const days = useController({ control, name: "expiry_days" as FieldPath<T> });
  const lead = useController({ control, name: "renewal_lead_days" as FieldPath<T> });
  const isAfterInspection = rule.field.value === "after_inspection";
  const number = (max: number) => ({ inputMode: "numeric" as const, min: 0, max, step: 1 });
  return (
    <>
      <TextField
        select
        fullWidth
        size={size}
        label="Expiry Rule"
        name={rule.field.name}
        value={rule.field.value ?? "fixed"}
        onChange={(e) => {
          rule.field.onChange(e.target.value);
          const isEmpty =
            days.field.value === "" || days.field.value === null || days.field.value === undefined;
          if (e.target.value === "after_inspection" && isEmpty)
            days.field.onChange(String(DEFAULT_EXPIRY_DAYS));
        }}
        onBlur={rule.field.onBlur}
        inputRef={rule.field.ref}
        error={!!rule.fieldState.error}
        helperText={
          rule.fieldState.error?.message ??
          (showHints && isAfterInspection ? "A passed inspection moves the expiration date." : undefined)
        }
        sx={fieldSx}
        slotProps={{ inputLabel: { shrink: true } }}
      >
        {EXPIRY_RULES.map((r) => (
          <MenuItem key={r} value={r}>
            {EXPIRY_RULE_LABELS[r]}
          </MenuItem>
        ))}
      </TextField>
      {isAfterInspection ? (
        <TextField
          fullWidth
          size={size}
          type="number"
          label="Days"
          name={days.field.name}
          value={days.field.value ?? ""}
          onChange={days.field.onChange}
          onBlur={days.field.onBlur}
          inputRef={days.field.ref}
          error={!!days.fieldState.error}
          helperText={
            days.fieldState.error?.message ?? (showHints ? "After the last passed inspection" : undefined)
          }
          sx={fieldSx}
          slotProps={{
            htmlInput: { ...number(EXPIRY_DAYS_MAX), min: 1, "aria-required": true },
            input: { endAdornment: <InputAdornment position="end">days</InputAdornment> },
          }}
        />
      ) : null}
      <TextField
        fullWidth
        size={size}
        type="number"
        label="Renewal Lead Time (days)"
        name={lead.field.name}
        value={lead.field.value ?? ""}
        onChange={lead.field.onChange}
        onBlur={lead.field.onBlur}
        inputRef={lead.field.ref}
        error={!!lead.fieldState.error}
        helperText={
          lead.fieldState.error?.message ??
          (showHints
            ? "Renew-by date = expiration date minus these days; reminders count down to it."
            : undefined)
        }
        sx={fieldSx}
        slotProps={{ htmlInput: number(LEAD_DAYS_MAX) }}
      />
    </>
  );
}
