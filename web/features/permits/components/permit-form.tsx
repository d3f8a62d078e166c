import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useController, useForm, useWatch, type Control, type Resolver } from "react-hook-form";
import { useNavigate } from "react-router";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { GUARANTEE_TYPES, RECORD_TYPES, RECORD_TYPE_LABELS } from "../../../../shared/domain/statuses.ts";
import {
  COMPANY_MISSING_MESSAGE,
  PERMIT_INPUT_FIELDS,
  PERMIT_LIMITS,
  PROJECT_REQUIRED_MESSAGE,
  PermitInputSchema,
  type PermitDetail,
  type PermitFormValues,
  type PermitInput,
} from "../../../../shared/schemas/permits.ts";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useCan } from "../../../lib/session.tsx";
import { useAgencies } from "../api/get-agencies.ts";
import { usePermitFormOptions } from "../api/get-form-options.ts";
import { useSavePermit } from "../api/save-permit.ts";
import { useUploadPermitFile } from "../api/upload-permit-file.ts";
import { AuditTrailList } from "./audit-trail-list.tsx";

/** Checks that need data the schema does not have: the company's projects, the super-admin's company. */
interface FormContext {
  hasProjects: boolean;
  needsCompany: boolean;
}

const schemaResolver = zodResolver(PermitInputSchema);
const resolver: Resolver<PermitFormValues, FormContext, PermitInput> = async (values, context, options) => {
  const result = await schemaResolver(values, context, options);
  const extra: Record<string, { type: string; message: string }> = {};
  if (context?.needsCompany && !values.company_id)
    extra.company_id = { type: "required", message: COMPANY_MISSING_MESSAGE };
  if (context?.hasProjects && !values.project_id)
    extra.project_id = { type: "required", message: PROJECT_REQUIRED_MESSAGE };
  if (!Object.keys(extra).length) return result;
  return { values: {}, errors: { ...extra, ...result.errors } };
};

const EMPTY: PermitFormValues = {
  permit_number: "",
  permit_name: "",
  record_type: "permit",
  agency: "",
  is_required: true,
  archived: false,
  project_id: "",
  company_id: "",
  permit_application_date: "",
  issue_date: "",
  expiration_date: "",
  start_date: "",
  close_date: "",
  phase: "",
  aka: "",
  grantor_link: "",
  bond_amount: "",
  surety_company: "",
  bond_number: "",
  guarantee_type: "",
};

function valuesOf(permit: PermitDetail): PermitFormValues {
  return {
    permit_number: permit.permit_number,
    permit_name: permit.permit_name,
    record_type: permit.record_type,
    agency: permit.agency ?? "",
    is_required: permit.status === "Required",
    archived: permit.archived,
    project_id: permit.project_id ?? "",
    company_id: permit.company_id,
    permit_application_date: permit.permit_application_date ?? "",
    issue_date: permit.issue_date ?? "",
    expiration_date: permit.expiration_date ?? "",
    start_date: permit.start_date ?? "",
    close_date: permit.close_date ?? "",
    phase: permit.phase ?? "",
    aka: permit.aka ?? "",
    grantor_link: permit.grantor_link ?? "",
    bond_amount: permit.bond_amount ?? "",
    surety_company: permit.surety_company ?? "",
    bond_number: permit.bond_number ?? "",
    guarantee_type: permit.guarantee_type ?? "",
  };
}

type FieldName = (typeof PERMIT_INPUT_FIELDS)[number];

/** A text, date or select input bound to the form, with its error (client or server) below it. */
function Field({
  control,
  name,
  label,
  required,
  maxLength,
  ...props
}: {
  control: Control<PermitFormValues, FormContext, PermitInput>;
  name: FieldName;
  label: string;
  required?: boolean;
  maxLength?: number;
} & Omit<TextFieldProps, "name" | "label" | "value" | "onChange" | "required">) {
  const { field, fieldState } = useController({ control, name });
  const isDate = props.type === "date";
  return (
    <TextField
      {...props}
      fullWidth
      label={label}
      name={field.name}
      value={field.value ?? ""}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!fieldState.error}
      helperText={fieldState.error?.message ?? props.helperText}
      slotProps={{
        ...props.slotProps,
        htmlInput: { maxLength, "aria-required": required || undefined },
        ...(isDate || props.select ? { inputLabel: { shrink: true } } : {}),
        ...(props.select ? { select: { displayEmpty: true } } : {}),
      }}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h2" sx={{ fontSize: "1.15rem", mb: 2 }}>
        {title}
      </Typography>
      <Box
        sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" }, gap: 2 }}
      >
        {children}
      </Box>
    </Paper>
  );
}

const full = { gridColumn: "1 / -1" } as const;

export interface PermitFormProps {
  /** The permit being edited; none when creating. */
  permit?: PermitDetail;
  /** Creating within a project (/projects/{projectId}/permits/new): preselected. */
  projectId?: string;
  /** Where Cancel goes, and where a save goes unless it lands on the permit. */
  backTo: string;
}

/**
 * The permit form (spec section 2), create and edit: Project Info, Agency Info, Timeline, Permit
 * File Upload, Company (super-admin), Archived, and on edit the Audit Trail. Every rule is in
 * PermitInputSchema, which the server applies again.
 */
export function PermitForm({ permit, projectId, backTo }: PermitFormProps) {
  const navigate = useNavigate();
  const notify = useNotify();
  const isSuperAdmin = useCan("allCompanies");
  const save = useSavePermit(permit?.id ?? null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadPermitFile(setProgress);
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const defaultValues = useMemo(
    () => (permit ? valuesOf(permit) : { ...EMPTY, project_id: projectId ?? "" }),
    [permit, projectId],
  );
  const [hasProjects, setHasProjects] = useState(false);
  const { control, handleSubmit, setError, setValue, formState } = useForm<
    PermitFormValues,
    FormContext,
    PermitInput
  >({
    resolver,
    // Read by the resolver at each check; react-hook-form takes the latest props on every render.
    context: { hasProjects, needsCompany: isSuperAdmin },
    defaultValues,
  });
  const [companyId, recordType] = useWatch({ control, name: ["company_id", "record_type"] });

  // A super-admin's form works on the chosen company (or, opened from a project, on its company).
  const options = usePermitFormOptions(
    isSuperAdmin ? companyId || null : null,
    isSuperAdmin && !companyId ? (projectId ?? null) : null,
  );
  const agencies = useAgencies(isSuperAdmin ? companyId || null : null);
  const projects = options.data?.projects ?? [];
  if (hasProjects !== projects.length > 0) setHasProjects(projects.length > 0);
  useEffect(() => {
    if (isSuperAdmin && !companyId && options.data?.company_id)
      setValue("company_id", options.data.company_id);
  }, [isSuperAdmin, companyId, options.data?.company_id, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    let saved: PermitDetail;
    try {
      saved = await save.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, PERMIT_INPUT_FIELDS);
      return;
    }
    if (file) {
      try {
        await upload.mutateAsync({ permitId: saved.id, file });
      } catch (error) {
        notify(
          `The permit was saved, but the file could not be uploaded: ${errorMessage(error)} Upload it again from the permit's page.`,
          "error",
        );
        await navigate(`/permits/${saved.id}`);
        return;
      }
    }
    await navigate(permit ? `/permits/${saved.id}` : backTo);
  });

  const busy = formState.isSubmitting;
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: "grid", gap: 2, maxWidth: 1040 }}>
      {save.isError && !formHasFieldErrors(save.error) ? (
        <Alert severity="error">{errorMessage(save.error)}</Alert>
      ) : null}
      {options.isError ? <Alert severity="error">{errorMessage(options.error)}</Alert> : null}

      {isSuperAdmin ? (
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
                  // Projects belong to one company: another company means choosing again.
                  setValue("project_id", "");
                }}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
                sx={full}
                slotProps={{
                  select: { displayEmpty: true },
                  inputLabel: { shrink: true },
                  htmlInput: { "aria-required": true },
                }}
              >
                <MenuItem value="" disabled>
                  Select Company
                </MenuItem>
                {(options.data?.companies ?? []).map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Section>
      ) : null}

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
              helperText={
                fieldState.error?.message ??
                (options.isSuccess && !hasProjects
                  ? isSuperAdmin && !companyId
                    ? "Select a company first."
                    : "This company has no projects yet."
                  : undefined)
              }
              sx={full}
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

      <Section title="Agency Info">
        <AgencyField control={control} options={agencies.data ?? []} loading={agencies.isFetching} />
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
          sx={full}
        />
      </Section>

      {recordType === "bond" ? (
        <Section title="Bond / Guarantee">
          <Field
            control={control}
            name="bond_amount"
            label="Bond Amount"
            slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment> } }}
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
          <Field
            control={control}
            name="surety_company"
            label="Surety Company"
            maxLength={PERMIT_LIMITS.shortText}
          />
          <Field
            control={control}
            name="bond_number"
            label="Bond Number"
            maxLength={PERMIT_LIMITS.shortText}
          />
        </Section>
      ) : null}

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
      </Section>

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="permit-file-heading"
        sx={{ p: { xs: 2, sm: 3 } }}
      >
        <Typography id="permit-file-heading" variant="h2" sx={{ fontSize: "1.15rem", mb: 1 }}>
          Permit File Upload
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The file is attached to the permit when you save
          {permit ? "; it replaces the current attachment" : ""}.
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
          <Button variant="outlined" component="label" startIcon={<AttachFile />}>
            Choose File
            <input
              ref={fileInput}
              type="file"
              hidden
              aria-label="Permit file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          {file ? (
            <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
              <Typography variant="body2" noWrap sx={{ maxWidth: 320 }}>
                {file.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                ({Math.max(1, Math.round(file.size / 1024))} KB)
              </Typography>
              <IconButton
                size="small"
                aria-label="Remove the chosen file"
                onClick={() => {
                  setFile(null);
                  if (fileInput.current) fileInput.current.value = "";
                }}
              >
                <Close fontSize="small" />
              </IconButton>
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              No file chosen
            </Typography>
          )}
        </Box>
      </Paper>

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

      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }}>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {permit ? "Update Permit" : "Create Permit"}
        </Button>
        <Button size="large" disabled={busy} onClick={() => void navigate(backTo)}>
          Cancel
        </Button>
        {busy ? (
          <Typography variant="body2" color="text.secondary" sx={{ alignSelf: "center" }} role="status">
            {upload.isPending ? `Uploading the file... ${Math.round(progress * 100)}%` : "Saving..."}
          </Typography>
        ) : null}
      </Box>

      {permit ? <AuditTrailList permitId={permit.id} /> : null}
    </Box>
  );
}

/** A VALIDATION answer is shown on its fields; anything else in the alert above the form. */
function formHasFieldErrors(error: unknown): boolean {
  const fields = (error as { fields?: Record<string, string> } | null)?.fields;
  return !!fields && Object.keys(fields).some((f) => (PERMIT_INPUT_FIELDS as readonly string[]).includes(f));
}

/** Agency: free text with the company's existing agencies as suggestions. */
function AgencyField({
  control,
  options,
  loading,
}: {
  control: Control<PermitFormValues, FormContext, PermitInput>;
  options: string[];
  loading: boolean;
}) {
  const { field, fieldState } = useController({ control, name: "agency" });
  return (
    <Autocomplete
      freeSolo
      options={options}
      loading={loading}
      inputValue={field.value ?? ""}
      onInputChange={(_event, value) => field.onChange(value)}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Agency"
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          slotProps={{
            ...params.slotProps,
            htmlInput: {
              ...params.slotProps.htmlInput,
              maxLength: PERMIT_LIMITS.agency,
              "aria-required": true,
            },
          }}
        />
      )}
    />
  );
}
