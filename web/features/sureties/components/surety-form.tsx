import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import {
  BOND_LIMITS,
  SuretyInputSchema,
  type Surety,
  type SuretyFormValues,
  type SuretyInput,
} from "../../../../shared/schemas/bonds.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { CompanyField } from "../../companies/index.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateSurety, useUpdateSurety } from "../api/save-surety.ts";
import { useCompanyCurrency } from "./surety-currency.ts";

const FIELDS = [
  "company_id",
  "name",
  "contact_name",
  "phone",
  "email",
  "single_limit",
  "aggregate_limit",
] as const;

/**
 * The Surety Admin form: Name, Contact, Phone, E-mail and the surety's bonding capacity ('Single
 * Limit', 'Aggregate Limit') in the company's currency. A super-admin picks the company of a new
 * surety; a surety never moves between companies.
 */
export function SuretyForm({
  surety,
  onSaved,
  onDirtyChange,
}: {
  surety?: Surety;
  onSaved: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
}) {
  const me = useCurrentUser();
  const picksCompany = useCan("allCompanies") && !surety;
  const create = useCreateSurety();
  const update = useUpdateSurety(surety?.id ?? "");
  const save = surety ? update : create;
  const currencyOf = useCompanyCurrency();
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = useForm<SuretyFormValues, unknown, SuretyInput>({
    resolver: formResolver(SuretyInputSchema),
    defaultValues: {
      company_id: surety?.company_id ?? me.companyId ?? "",
      name: surety?.name ?? "",
      contact_name: surety?.contact_name ?? "",
      phone: surety?.phone ?? "",
      email: surety?.email ?? "",
      single_limit: surety?.single_limit ?? "",
      aggregate_limit: surety?.aggregate_limit ?? "",
    },
  });
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);
  const companyId = useWatch({ control, name: "company_id" });
  const currency = currencyOf(companyId);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(surety ? { ...values, company_id: null } : values);
      onDirtyChange?.(false);
      onSaved();
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
    }
  });

  const hasFieldErrors =
    isApiError(save.error) && !!save.error.fields && Object.keys(save.error.fields).length;
  const money = {
    htmlInputProps: { inputMode: "decimal" as const },
    startAdornment: <InputAdornment position="start">{currency}</InputAdornment>,
  };
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}
    >
      {save.isError && !hasFieldErrors ? <Alert severity="error">{errorMessage(save.error)}</Alert> : null}
      {picksCompany ? (
        <CompanyField control={control} name="company_id" required fullWidth />
      ) : surety ? null : (
        <TextField label="Company" value={me.company?.name ?? ""} disabled fullWidth />
      )}
      <FormTextField
        control={control}
        name="name"
        label="Name"
        required
        autoFocus
        htmlInputProps={{ maxLength: BOND_LIMITS.suretyName }}
      />
      <FormTextField
        control={control}
        name="contact_name"
        label="Contact"
        autoComplete="off"
        htmlInputProps={{ maxLength: BOND_LIMITS.contactName }}
      />
      <FormTextField
        control={control}
        name="phone"
        label="Phone"
        type="tel"
        autoComplete="off"
        htmlInputProps={{ maxLength: BOND_LIMITS.phone }}
      />
      <FormTextField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="off"
        htmlInputProps={{ maxLength: BOND_LIMITS.email }}
      />
      <FormTextField
        control={control}
        name="single_limit"
        label="Single Limit"
        helperText="The largest single bond the surety will write."
        {...money}
      />
      <FormTextField
        control={control}
        name="aggregate_limit"
        label="Aggregate Limit"
        helperText="The most the surety will have outstanding for the company at once."
        {...money}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {isSubmitting ? "Saving..." : "Save Surety"}
      </Button>
    </Box>
  );
}
