import { useState } from "react";
import { Controller, useForm, useWatch, type Resolver } from "react-hook-form";
import { Link as RouterLink, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import { can } from "../../../../shared/domain/permissions.ts";
import { COMPANY_ASSIGNABLE_ROLES, ROLE_LABELS, ROLES } from "../../../../shared/domain/roles.ts";
import {
  CreateUserSchema,
  UpdateUserSchema,
  type CreateUser,
  type CreateUserInput,
  type UpdateUser,
  type User,
} from "../../../../shared/schemas/users.ts";
import { CompanyField } from "../../companies/index.ts";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { PasswordField } from "../../../components/password-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateUser, useUpdateUser } from "../api/save-user.ts";

// One form state for both modes; on edit the e-mail is shown but not sent, and the password is
// optional. The resolver hands over the schema's parsed output, which the submit passes on as such.
type Values = CreateUserInput;
const createResolver = formResolver(CreateUserSchema) as unknown as Resolver<Values>;
const updateResolver = formResolver(UpdateUserSchema) as unknown as Resolver<Values>;
const FIELDS = ["email", "firstName", "lastName", "companyId", "phone", "title", "role", "password"] as const;

/**
 * The user form (spec sections 2 and 5): Email, First Name, Last Name, Company required (the
 * selector is the super-admin's; a company-admin's users are always in its company), phone,
 * title, role, and a password required only on create. The e-mail is not editable on edit.
 */
export function UserForm({ user }: { user?: User }) {
  const isEdit = !!user;
  const me = useCurrentUser();
  const chooseCompany = useCan("allCompanies");
  const roles = useCan("users.manageSuperAdmins") ? ROLES : COMPANY_ASSIGNABLE_ROLES;
  const navigate = useNavigate();
  const create = useCreateUser();
  const update = useUpdateUser(user?.id ?? "");
  const [formError, setFormError] = useState<string | null>(null);

  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = useForm<Values>({
    resolver: isEdit ? updateResolver : createResolver,
    defaultValues: {
      email: user?.email ?? "",
      firstName: user?.firstName ?? "",
      lastName: user?.lastName ?? "",
      companyId: user?.companyId ?? (chooseCompany ? "" : me.companyId),
      phone: user?.phone ?? "",
      title: user?.title ?? "",
      role: user?.role ?? "company-user",
      password: "",
      mustResetPassword: user?.mustResetPassword ?? true,
    },
  });
  const role = useWatch({ control, name: "role" });
  // A role that sees every company belongs to none (the matrix's allCompanies: the super-admin).
  const hasNoCompany = can(role, "allCompanies");
  const isSelf = user?.id === me.id;
  const guard = useUnsavedChanges(isDirty);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      if (isEdit) await update.mutateAsync(values as unknown as UpdateUser);
      else await create.mutateAsync(values as unknown as CreateUser);
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      // Spec section 8: the server's message, else 'User update failed' / 'User creation failed'.
      setFormError(errorMessage(error, isEdit ? "User update failed" : "User creation failed"));
      return;
    }
    void navigate(paths.users);
  });

  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={onSubmit} sx={{ p: { xs: 2, sm: 3 } }}>
      {formError ? (
        <Alert severity="error" sx={{ mb: 3 }}>
          {formError}
        </Alert>
      ) : null}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2.5 }}>
        <FormTextField
          control={control}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          required
          disabled={isEdit}
          autoFocus={!isEdit}
          helperText={isEdit ? "The e-mail address cannot be changed." : undefined}
          sx={{ gridColumn: { md: "1 / -1" } }}
        />
        <FormTextField
          control={control}
          name="firstName"
          label="First Name"
          required
          autoComplete="off"
          autoFocus={isEdit}
        />
        <FormTextField control={control} name="lastName" label="Last Name" required autoComplete="off" />
        <Controller
          control={control}
          name="role"
          render={({ field, fieldState }) => (
            <TextField
              select
              label="Role"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              disabled={isSelf}
              error={!!fieldState.error}
              helperText={
                fieldState.error?.message ?? (isSelf ? "You cannot change your own role." : undefined)
              }
            >
              {roles.map((r) => (
                <MenuItem key={r} value={r}>
                  {ROLE_LABELS[r]}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {chooseCompany ? (
          <CompanyField
            control={control}
            name="companyId"
            value={hasNoCompany ? "" : undefined}
            disabled={hasNoCompany}
            placeholder={hasNoCompany ? "No Company" : "Select Company"}
            helperText={hasNoCompany ? "Super-admins belong to no company." : undefined}
          />
        ) : null}
        <FormTextField control={control} name="phone" label="Phone" type="tel" autoComplete="off" />
        <FormTextField control={control} name="title" label="Title" autoComplete="off" />
        <PasswordField
          control={control}
          name="password"
          label="Password"
          autoComplete="new-password"
          required={!isEdit}
          helperText={
            isEdit
              ? "Leave empty to keep the current password. A new one signs the user out everywhere."
              : "At least 8 characters."
          }
        />
        <Controller
          control={control}
          name="mustResetPassword"
          render={({ field }) => (
            <FormControlLabel
              sx={{ alignSelf: "start", mt: 1 }}
              control={
                <Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />
              }
              label="Must reset password at next sign-in"
            />
          )}
        />
      </Box>
      <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", mt: 3 }}>
        <Button component={RouterLink} to={paths.users} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : isEdit ? "Save User" : "Create User"}
        </Button>
      </Box>
      {guard.prompt}
    </Paper>
  );
}
