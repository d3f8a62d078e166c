import {
  API_KEY_NAME_MAX,
  ApiKeyInputSchema,
  type ApiKeyCreated,
  type ApiKeyFormValues,
} from "../../../../shared/schemas/api-keys.ts";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import { DialogField, full, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { useCan } from "../../../lib/session.tsx";
import { CompanyField } from "../../companies/index.ts";
import { useCreateApiKey } from "../api/create-api-key.ts";

const ROLE_OPTIONS = [
  { value: "company-user", label: ROLE_LABELS["company-user"] },
  { value: "company-admin", label: ROLE_LABELS["company-admin"] },
];

/**
 * 'Create API Key' (issue 30): Name, Role (Company Admin or Company User, never Super Admin),
 * Expires (optional), and a super-admin's Company. `onCreated` gets the key, shown next, once.
 */
export function ApiKeyDialog({
  open,
  companyId,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** A super-admin's company filter, else "". */
  companyId: string;
  onClose: () => void;
  onCreated: (created: ApiKeyCreated) => void;
}) {
  const picksCompany = useCan("allCompanies");
  const create = useCreateApiKey();
  const empty: ApiKeyFormValues = { company_id: companyId, name: "", role: "company-user", expires_on: "" };
  const { control, dialog } = useStepForm<ApiKeyFormValues>({
    empty,
    schema: ApiKeyInputSchema,
    toBody: (v) => ({ ...v, company_id: picksCompany ? v.company_id : null }),
    save: async (values) => {
      const created = await create.mutateAsync({
        ...values,
        company_id: picksCompany ? values.company_id : null,
      });
      onCreated(created);
    },
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Create API Key"
      intro="Another system (accounting, a project platform) calls the Permitrack API with this key, acting with the role you choose."
      submitLabel="Create"
    >
      {picksCompany ? (
        <CompanyField control={control} name="company_id" required fullWidth sx={full} />
      ) : null}
      <DialogField
        control={control}
        name="name"
        label="Name"
        required
        maxLength={API_KEY_NAME_MAX}
        autoFocus
        helperText="What uses it, e.g. 'Accounting sync'"
        sx={full}
      />
      <DialogField control={control} name="role" label="Role" options={ROLE_OPTIONS} required />
      <DialogField
        control={control}
        name="expires_on"
        label="Expires"
        type="date"
        helperText="Optional: the last day it works"
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </StepDialog>
  );
}
