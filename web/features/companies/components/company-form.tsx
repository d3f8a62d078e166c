import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Link as RouterLink, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import UploadIcon from "@mui/icons-material/UploadFileOutlined";
import { DEFAULT_CURRENCY } from "../../../../shared/domain/bonds.ts";
import {
  CompanyInputSchema,
  LOGO_CONTENT_TYPES,
  slugify,
  type Company,
  type CompanyInput,
  type CompanyInputParsed,
} from "../../../../shared/schemas/companies.ts";
import { CurrencyField } from "../../../components/currency-field.tsx";
import { DateOrderField } from "../../../components/date-order-field.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { paths } from "../../../lib/paths.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useRemoveLogo, useUploadLogo } from "../api/company-logo.ts";
import { useCreateCompany, useUpdateCompany } from "../api/save-company.ts";
import { CompanyLogo } from "./company-logo.tsx";

const resolver = formResolver(CompanyInputSchema);
const FIELDS = [
  "name",
  "slug",
  "address",
  "phone",
  "website",
  "contactName",
  "contactEmail",
  "timeZone",
  "requireTwoFactor",
  "currency",
  "dateOrder",
] as const;
// Some engines leave UTC out of their list; the server accepts any zone Intl knows.
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
const zoneOptions = (current: string) =>
  !current || TIME_ZONES.includes(current) ? TIME_ZONES : [current, ...TIME_ZONES];

function valuesOf(company: Company | undefined, defaultTimeZone: string): CompanyInput {
  return {
    name: company?.name ?? "",
    slug: company?.slug ?? "",
    address: company?.address ?? "",
    phone: company?.phone ?? "",
    website: company?.website ?? "",
    contactName: company?.contactName ?? "",
    contactEmail: company?.contactEmail ?? "",
    timeZone: company?.timeZone ?? defaultTimeZone,
    requireTwoFactor: company?.requireTwoFactor ?? false,
    currency: company?.currency ?? DEFAULT_CURRENCY,
    dateOrder: company?.dateOrder ?? "MDY",
  };
}

/**
 * The company form (spec sections 2 and 5): Name and Slug required (the slug follows the name
 * until it is edited), contact details, time zone, and the logo. The logo is uploaded after the
 * company is saved; the server checks that it really is a PNG, JPEG or WebP image.
 */
export function CompanyForm({ company, defaultTimeZone }: { company?: Company; defaultTimeZone: string }) {
  const isEdit = !!company;
  const navigate = useNavigate();
  const notify = useNotify();
  const create = useCreateCompany();
  const update = useUpdateCompany(company?.id ?? "");
  const uploadLogo = useUploadLogo();
  const removeLogo = useRemoveLogo();
  const [formError, setFormError] = useState<string | null>(null);
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const isSlugEdited = useRef(isEdit);

  const {
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { isSubmitting, isDirty },
  } = useForm<CompanyInput, unknown, CompanyInputParsed>({
    resolver,
    defaultValues: valuesOf(company, defaultTimeZone),
  });
  // Leaving with unsaved changes (Cancel, a link) asks first (issue 14).
  const guard = useUnsavedChanges(isDirty || !!logoFile);

  const name = useWatch({ control, name: "name" });
  useEffect(() => {
    if (!isSlugEdited.current) setValue("slug", slugify(name ?? ""));
  }, [name, setValue]);

  const preview = useMemo(() => (logoFile ? URL.createObjectURL(logoFile) : null), [logoFile]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    let saved: Company;
    try {
      saved = isEdit ? await update.mutateAsync(values) : await create.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      // Spec section 8: the server's error, else 'Company update failed'.
      setFormError(errorMessage(error, isEdit ? "Company update failed" : "Company creation failed"));
      return;
    }
    if (logoFile) {
      try {
        await uploadLogo.mutateAsync({ companyId: saved.id, file: logoFile });
      } catch (error) {
        const message = `Logo upload failed: ${errorMessage(error)}`;
        setFormError(message);
        // A new company exists now: go on editing it (the snackbar carries the message there).
        if (!isEdit) {
          notify(message, "error");
          void navigate(paths.editCompany(saved.id), { replace: true });
        }
        return;
      }
    }
    notify(isEdit ? "Company saved." : "Company created.", "success");
    void navigate(paths.companies);
  });

  const shownLogo = preview ?? company?.logoUrl ?? null;
  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={onSubmit} sx={{ p: { xs: 2, sm: 3 } }}>
      {formError ? (
        <Alert severity="error" sx={{ mb: 3 }}>
          {formError}
        </Alert>
      ) : null}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2.5 }}>
        <FormTextField control={control} name="name" label="Name" required autoFocus={!isEdit} />
        <Controller
          control={control}
          name="slug"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              onChange={(event) => {
                isSlugEdited.current = true;
                field.onChange(event.target.value.toLowerCase());
              }}
              label="Slug"
              error={!!fieldState.error}
              helperText={fieldState.error?.message ?? "Lowercase letters, digits and hyphens; unique."}
              slotProps={{ htmlInput: { "aria-required": true, spellCheck: false } }}
            />
          )}
        />
        <FormTextField
          control={control}
          name="address"
          label="Address"
          sx={{ gridColumn: { md: "1 / -1" } }}
        />
        <FormTextField control={control} name="phone" label="Phone" type="tel" autoComplete="off" />
        <FormTextField control={control} name="website" label="Website" placeholder="https://example.com" />
        <FormTextField control={control} name="contactName" label="Contact Name" autoComplete="off" />
        <FormTextField
          control={control}
          name="contactEmail"
          label="Contact Email"
          type="email"
          autoComplete="off"
        />
        <Controller
          control={control}
          name="timeZone"
          render={({ field, fieldState }) => (
            <Autocomplete
              options={zoneOptions(field.value ?? "")}
              value={field.value || null}
              onChange={(_event, value) => field.onChange(value ?? "")}
              onBlur={field.onBlur}
              autoHighlight
              renderInput={(params) => (
                <TextField
                  {...params}
                  inputRef={field.ref}
                  label="Time Zone"
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? "Reminders and “today” follow this zone."}
                />
              )}
            />
          )}
        />
        <Controller
          control={control}
          name="currency"
          render={({ field, fieldState }) => (
            <CurrencyField
              value={field.value ?? ""}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="dateOrder"
          render={({ field, fieldState }) => (
            <DateOrderField
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="requireTwoFactor"
          render={({ field }) => (
            <Box sx={{ gridColumn: { md: "1 / -1" } }}>
              <FormControlLabel
                control={
                  <Switch
                    checked={!!field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    slotProps={{ input: { ref: field.ref, "aria-describedby": "require-two-factor-help" } }}
                  />
                }
                label="Require two-factor sign-in"
              />
              <FormHelperText id="require-two-factor-help" sx={{ mt: 0, ml: 0 }}>
                The company&apos;s admins and users must sign in with a code from an authenticator app. Those
                who have not set it up are asked to at their next visit. Client users may turn it on
                themselves.
              </FormHelperText>
            </Box>
          )}
        />
        <Box>
          <Typography component="h2" variant="subtitle2" sx={{ mb: 1 }} id="company-logo-label">
            Logo
          </Typography>
          <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
            <Box
              sx={{
                border: 1,
                borderColor: "divider",
                borderRadius: 1,
                p: 1,
                minWidth: 136,
                height: 76,
                display: "flex",
                alignItems: "center",
                justifyContent: "center",
                bgcolor: "background.default",
              }}
            >
              {shownLogo ? (
                <CompanyLogo name={company?.name ?? "New company"} url={shownLogo} size={56} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  No logo
                </Typography>
              )}
            </Box>
            <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5 }}>
              <Button
                variant="outlined"
                startIcon={<UploadIcon />}
                onClick={() => fileInput.current?.click()}
              >
                {shownLogo ? "Change Logo" : "Choose Logo"}
              </Button>
              {company?.logoUrl && !logoFile ? (
                <Button
                  color="error"
                  size="small"
                  disabled={removeLogo.isPending}
                  onClick={() => removeLogo.mutate(company.id)}
                >
                  Remove Logo
                </Button>
              ) : null}
            </Box>
            <input
              ref={fileInput}
              type="file"
              hidden
              aria-labelledby="company-logo-label"
              accept={LOGO_CONTENT_TYPES.join(",")}
              onChange={(event) => {
                setLogoFile(event.target.files?.[0] ?? null);
                event.target.value = "";
              }}
            />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {logoFile
              ? `${logoFile.name} will be uploaded when you save.`
              : "PNG, JPEG or WebP. Shown in the header."}
          </Typography>
        </Box>
      </Box>
      <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", mt: 3 }}>
        <Button component={RouterLink} to={paths.companies} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save Company"}
        </Button>
      </Box>
      {guard.prompt}
    </Paper>
  );
}
