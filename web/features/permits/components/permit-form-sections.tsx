import { Controller, useController } from "react-hook-form";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { FINAL_STATUSES } from "../../../../shared/domain/lifecycle.ts";
import { GUARANTEE_TYPES, RECORD_TYPES, RECORD_TYPE_LABELS } from "../../../../shared/domain/statuses.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { ExpiryRuleFields } from "../../../components/expiry-rule-fields.tsx";
import { SuretyField } from "../../sureties/index.ts";
import { PERMIT_LIMITS, type PermitFormOptions } from "../../../../shared/schemas/permits.ts";
import { AgencyField, Field, Section, fullWidth } from "./permit-form-fields.tsx";
import type { PermitFormControl } from "./permit-form-values.ts";

/**
 * The super-admin's Company: the choices come with the form options (GET /api/permits/form-options).
 * Projects belong to one company, so choosing another calls `onChange` to clear the project.
 */
export function CompanySection({
  control,
  companies,
  onChange,
}: {
  control: PermitFormControl;
  companies: PermitFormOptions["companies"];
  onChange: () => void;
}) {
  return (
    <Section title="Company">
      <Controller
        control={control}
        name="company_id"
        render={({ field, fieldState }) => (
          <TextField
            select
            fullWidth
            label="Company"
            name={field.name}
            value={field.value ?? ""}
            onChange={(e) => {
              field.onChange(e);
              onChange();
            }}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={!!fieldState.error}
            helperText={fieldState.error?.message}
            sx={fullWidth}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              htmlInput: { "aria-required": true },
            }}
          >
            <MenuItem value="" disabled>
              Select Company
            </MenuItem>
            {companies.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </Section>
  );
}

/** Project Info: the project (off while the company has none; `emptyHint` says why), number, name, type. */
export function ProjectInfoSection({
  control,
  projects,
  emptyHint,
}: {
  control: PermitFormControl;
  projects: PermitFormOptions["projects"];
  emptyHint: string | undefined;
}) {
  const hasProjects = projects.length > 0;
  return (
    <Section title="Project Info">
      <Controller
        control={control}
        name="project_id"
        render={({ field, fieldState }) => (
          <TextField
            select
            fullWidth
            label="Project"
            name={field.name}
            value={projects.some((p) => p.id === field.value) ? field.value : ""}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            disabled={!hasProjects}
            error={!!fieldState.error}
            helperText={fieldState.error?.message ?? emptyHint}
            sx={fullWidth}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              htmlInput: { "aria-required": hasProjects || undefined },
            }}
          >
            <MenuItem value="" disabled>
              Select a project
            </MenuItem>
            {projects.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
                {p.project_number ? ` (${p.project_number})` : ""}
                {p.client_name ? ` · ${p.client_name}` : ""}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Field
        control={control}
        name="permit_number"
        label="Permit Number"
        required
        maxLength={PERMIT_LIMITS.permitNumber}
      />
      <Field
        control={control}
        name="permit_name"
        label="Permit Name"
        required
        maxLength={PERMIT_LIMITS.permitName}
      />
      <Field control={control} name="record_type" label="Record Type" select required>
        {RECORD_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {RECORD_TYPE_LABELS[t]}
          </MenuItem>
        ))}
      </Field>
      <Field control={control} name="phase" label="Phase" maxLength={PERMIT_LIMITS.shortText} />
      <Field control={control} name="aka" label="AKA" maxLength={PERMIT_LIMITS.shortText} />
    </Section>
  );
}

/** Agency Info: agency (with the company's agencies as suggestions), Required, grantor link. */
export function AgencySection({
  control,
  agencies,
  isLoading,
}: {
  control: PermitFormControl;
  agencies: string[];
  isLoading: boolean;
}) {
  return (
    <Section title="Agency Info">
      <AgencyField control={control} options={agencies} loading={isLoading} />
      <Controller
        control={control}
        name="is_required"
        render={({ field }) => (
          <FormControlLabel
            sx={{ alignSelf: "center" }}
            control={
              <Checkbox
                checked={!!field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                slotProps={{ input: { ref: field.ref } }}
              />
            }
            label="Required"
          />
        )}
      />
      <Field
        control={control}
        name="grantor_link"
        label="Grantor Link"
        type="url"
        placeholder="https://"
        maxLength={PERMIT_LIMITS.grantorLink}
        sx={fullWidth}
      />
    </Section>
  );
}

/**
 * 'Surety Company' (issue 12): one of the company's sureties, or a new name (created on save). The
 * form sends the chosen surety's id, or the typed name for the server to match or create.
 */
function BondSuretyField({ control, companyId }: { control: PermitFormControl; companyId: string | null }) {
  const name = useController({ control, name: "surety_company" });
  const id = useController({ control, name: "surety_id" });
  return (
    <SuretyField
      companyId={companyId}
      value={String(name.field.value ?? "")}
      onChange={(typed, suretyId) => {
        name.field.onChange(typed);
        id.field.onChange(suretyId ?? "");
      }}
      onBlur={name.field.onBlur}
      inputRef={name.field.ref}
      error={name.fieldState.error?.message ?? id.fieldState.error?.message}
    />
  );
}

/**
 * Bond / Guarantee: shown for the bond record type only. The amount is the bond's original (penal)
 * sum: riders, reductions and the release go in the Bond Ledger on the bond's page (issue 12).
 */
export function BondSection({
  control,
  companyId,
  hasLedger,
}: {
  control: PermitFormControl;
  companyId: string | null;
  /** The bond's ledger exists: its original amount is fixed (the server refuses a change). */
  hasLedger: boolean;
}) {
  return (
    <Section title="Bond / Guarantee">
      <Field
        control={control}
        name="bond_amount"
        label="Original Bond Amount"
        disabled={hasLedger}
        // In the company's currency, which the form does not know (the API sends it with the ledger).
        helperText={
          hasLedger
            ? "The first entry of the Bond Ledger: record a Rider there to change the amount."
            : "In the company's currency, as issued; later changes go in the Bond Ledger."
        }
        inputMode="decimal"
      />
      <Field control={control} name="guarantee_type" label="Guarantee Type" select required>
        <MenuItem value="" disabled>
          Select a type
        </MenuItem>
        {GUARANTEE_TYPES.map((g) => (
          <MenuItem key={g} value={g}>
            {g}
          </MenuItem>
        ))}
      </Field>
      <BondSuretyField control={control} companyId={companyId} />
      <Field control={control} name="bond_number" label="Bond Number" maxLength={PERMIT_LIMITS.shortText} />
    </Section>
  );
}

/** Timeline: the five dates. */
export function TimelineSection({ control }: { control: PermitFormControl }) {
  return (
    <Section title="Timeline">
      <Field control={control} name="permit_application_date" label="Application Date" type="date" />
      <Field control={control} name="issue_date" label="Issue Date" type="date" />
      <Field
        control={control}
        name="start_date"
        label="Start Date"
        type="date"
        helperText="Left empty, it is set to today when you save."
      />
      <Field control={control} name="expiration_date" label="Expiration Date" type="date" required />
      <Field control={control} name="close_date" label="Close Date" type="date" />
      <Field control={control} name="final_status" label="Final Status" select>
        <MenuItem value="">None</MenuItem>
        {FINAL_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {s}
          </MenuItem>
        ))}
      </Field>
    </Section>
  );
}

/**
 * Responsibility and Renewal (issue 11): who answers for the permit (the company's active staff;
 * a person disabled since stays shown until someone picks another), how its expiry is set, and
 * how long before expiry the agency wants the renewal.
 */
export function RenewalSection({
  control,
  staff,
  current,
}: {
  control: PermitFormControl;
  staff: PermitFormOptions["staff"];
  current: PermitDetail["responsible"];
}) {
  const choices = current && !staff.some((s) => s.id === current.id) ? [...staff, current] : staff;
  return (
    <Section title="Responsibility and Renewal">
      <Field
        control={control}
        name="responsible_user_id"
        label="Responsible Person"
        select
        helperText="Gets this permit's reminders too."
        sx={fullWidth}
      >
        <MenuItem value="">
          <em>No one</em>
        </MenuItem>
        {choices.map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.name}
          </MenuItem>
        ))}
      </Field>
      <ExpiryRuleFields control={control} />
    </Section>
  );
}

/** The Archived switch, in its own strip. */
export function ArchivedSwitch({ control }: { control: PermitFormControl }) {
  return (
    <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1.5 }}>
      <Controller
        control={control}
        name="archived"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={!!field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                slotProps={{ input: { ref: field.ref } }}
              />
            }
            label="Archived"
          />
        )}
      />
    </Paper>
  );
}
