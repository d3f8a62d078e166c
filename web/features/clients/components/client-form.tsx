import { useEffect } from "react";
import { useForm } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import {
  ClientFormSchema,
  type Client,
  type ClientForm as ClientFormValues,
} from "../../../../shared/schemas/clients.ts";
import { CompanyField } from "../../companies/index.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateClient, useUpdateClient } from "../api/save-client.ts";

/**
 * The client form (spec section 2, 'New Client'): Company and Client Name, 'Save Client'.
 * A super-admin picks the company of a new client; a company-admin's is fixed, and a client
 * never moves between companies, so the field is then shown disabled.
 */
export function ClientForm({
  client,
  onSaved,
  onDirtyChange,
}: {
  client?: Client;
  onSaved: () => void;
  /** Told whether the form holds unsaved changes (the drawer asks before closing). */
  onDirtyChange?: (isDirty: boolean) => void;
}) {
  const me = useCurrentUser();
  const picksCompany = useCan("allCompanies") && !client;
  const create = useCreateClient();
  const update = useUpdateClient(client?.id ?? "");
  const save = client ? update : create;
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = useForm<ClientFormValues>({
    resolver: formResolver(ClientFormSchema),
    defaultValues: { company_id: client?.companyId ?? me.companyId ?? "", name: client?.name ?? "" },
  });
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (client) await update.mutateAsync({ name: values.name });
      else await create.mutateAsync(values);
      onDirtyChange?.(false);
      onSaved();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["name", "company_id"]);
    }
  });

  const fixedCompanyName = client ? (client.companyName ?? "Unknown") : (me.company?.name ?? "");
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}
    >
      {save.isError && !(save.error as { fields?: unknown }).fields ? (
        <Alert severity="error">{errorMessage(save.error)}</Alert>
      ) : null}
      {picksCompany ? (
        <CompanyField control={control} name="company_id" required fullWidth />
      ) : (
        <TextField label="Company" value={fixedCompanyName} disabled fullWidth />
      )}
      <FormTextField control={control} name="name" label="Client Name" required autoFocus />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {isSubmitting ? "Saving..." : "Save Client"}
      </Button>
    </Box>
  );
}
