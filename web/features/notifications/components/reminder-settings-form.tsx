import { useForm, Controller } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { ESCALATION_DAYS_MAX } from "../../../../shared/domain/lifecycle.ts";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import {
  UpdateNotificationSettingsSchema,
  type NotificationSettings,
  type UpdateNotificationSettings,
} from "../../../../shared/schemas/notifications.ts";
import { CurrencyField } from "../../../components/currency-field.tsx";
import { DateOrderField } from "../../../components/date-order-field.tsx";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useSaveNotificationSettings } from "../api/settings.ts";

const SWITCHES = [
  { name: "email30Day", label: "30 days before expiration" },
  { name: "email7Day", label: "7 days before expiration" },
  { name: "email1Day", label: "1 day before expiration" },
] as const;

const formValues = (s: NotificationSettings): UpdateNotificationSettings => ({
  email30Day: s.email30Day,
  email7Day: s.email7Day,
  email1Day: s.email1Day,
  escalationDays: s.escalationDays,
  overdueDigest: s.overdueDigest,
  currency: s.currency,
  dateOrder: s.dateOrder,
  recipientUserIds: s.users.filter((u) => u.receivesReminders).map((u) => u.id),
});

const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** The company's reminder switches and recipients, saved together. */
export function ReminderSettingsForm({
  settings,
  companyId,
}: {
  settings: NotificationSettings;
  companyId: string;
}) {
  const save = useSaveNotificationSettings(companyId);
  const { control, handleSubmit, reset, setError, formState } = useForm<UpdateNotificationSettings>({
    resolver: formResolver(UpdateNotificationSettingsSchema),
    values: formValues(settings),
  });
  const canEdit = settings.can.edit;
  const guard = useUnsavedChanges(canEdit && formState.isDirty && !save.isPending);
  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: (saved) => reset(formValues(saved)),
      onError: (error) =>
        applyServerFieldErrors(error, setError, [
          "recipientUserIds",
          "escalationDays",
          "overdueDigest",
          "currency",
          "dateOrder",
        ]),
    }),
  );

  return (
    <Box component="form" onSubmit={onSubmit} noValidate aria-label="Notification settings">
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "1fr", md: "minmax(0, 1fr) minmax(0, 1.4fr)" },
        }}
      >
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography variant="h3" component="h2" gutterBottom>
            Reminder e-mails
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Recipients get one e-mail a day, at {hourLabel(settings.reminderHour)} ({settings.timeZone}),
            listing the permits and bonds of {settings.companyName} that reached one of these points.
          </Typography>
          <FormGroup>
            {SWITCHES.map((s) => (
              <Controller
                key={s.name}
                control={control}
                name={s.name}
                render={({ field }) => (
                  <FormControlLabel
                    label={s.label}
                    disabled={!canEdit}
                    control={
                      <Switch
                        checked={field.value}
                        onChange={(_e, checked) => field.onChange(checked)}
                        onBlur={field.onBlur}
                      />
                    }
                  />
                )}
              />
            ))}
          </FormGroup>

          <Divider sx={{ my: 3 }} />
          <Typography variant="h3" component="h2" gutterBottom>
            Escalation
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Company admins hear of a permit that nobody renewed, extended, acknowledged or closed this many
            days before its expiration (or renew-by) date, once per term.
          </Typography>
          <Controller
            control={control}
            name="escalationDays"
            render={({ field, fieldState }) => (
              <TextField
                type="number"
                label="Escalation Days"
                name={field.name}
                disabled={!canEdit}
                value={field.value === undefined || Number.isNaN(field.value) ? "" : field.value}
                onChange={(e) => field.onChange(e.target.value === "" ? Number.NaN : Number(e.target.value))}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? `1 to ${ESCALATION_DAYS_MAX} days (default 7)`}
                sx={{ maxWidth: 240, mb: 1 }}
                slotProps={{ htmlInput: { min: 1, max: ESCALATION_DAYS_MAX, step: 1, inputMode: "numeric" } }}
              />
            )}
          />
          <Controller
            control={control}
            name="overdueDigest"
            render={({ field }) => (
              <FormControlLabel
                label="Overdue digest"
                disabled={!canEdit}
                sx={{ display: "flex", mt: 1 }}
                control={
                  <Switch
                    checked={!!field.value}
                    onChange={(_e, checked) => field.onChange(checked)}
                    onBlur={field.onBlur}
                  />
                }
              />
            )}
          />
          <Typography variant="body2" color="text.secondary">
            A daily e-mail to company admins listing expired permits that are still open, until each is
            renewed, closed or archived.
          </Typography>

          <Divider sx={{ my: 3 }} />
          <Typography variant="h3" component="h2" gutterBottom>
            Currency
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            The currency of {settings.companyName}&apos;s bond amounts, surety limits and exposure.
          </Typography>
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
                disabled={!canEdit}
              />
            )}
          />

          <Divider sx={{ my: 3 }} />
          <Typography variant="h3" component="h2" gutterBottom>
            Date Order
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Which date 03/04/2026 is when {settings.companyName}&apos;s uploaded documents are read for
            suggested values.
          </Typography>
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
                disabled={!canEdit}
              />
            )}
          />
        </Paper>

        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography variant="h3" component="h2" gutterBottom id="recipients-heading">
            Recipients
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            Company users who receive the reminder e-mails.
          </Typography>
          <Controller
            control={control}
            name="recipientUserIds"
            render={({ field, fieldState }) => {
              const selected = new Set(field.value);
              const toggle = (id: string, on: boolean) =>
                field.onChange(on ? [...field.value, id] : field.value.filter((v) => v !== id));
              return (
                <>
                  {settings.users.length === 0 ? (
                    <Alert severity="info">
                      This company has no active users who can receive reminders yet.
                    </Alert>
                  ) : (
                    <FormGroup aria-labelledby="recipients-heading">
                      {settings.users.map((u) => (
                        <FormControlLabel
                          key={u.id}
                          disabled={!canEdit}
                          sx={{ alignItems: "flex-start", my: 0.5, mr: 0 }}
                          control={
                            <Checkbox
                              checked={selected.has(u.id)}
                              onChange={(_e, checked) => toggle(u.id, checked)}
                              sx={{ pt: 0.25 }}
                              slotProps={{ input: { "aria-label": `${u.name} (${u.email})` } }}
                            />
                          }
                          label={
                            <Box
                              sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", columnGap: 1 }}
                            >
                              <span>{u.name}</span>
                              <Typography
                                component="span"
                                variant="body2"
                                color="text.secondary"
                                sx={{ wordBreak: "break-all" }}
                              >
                                {u.email}
                              </Typography>
                              <Chip size="small" variant="outlined" label={ROLE_LABELS[u.role]} />
                            </Box>
                          }
                        />
                      ))}
                    </FormGroup>
                  )}
                  {fieldState.error ? (
                    <FormHelperText error>{fieldState.error.message}</FormHelperText>
                  ) : null}
                </>
              );
            }}
          />
        </Paper>
      </Box>

      {save.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(save.error)}
        </Alert>
      ) : null}
      {canEdit ? (
        <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 2 }}>
          <Button type="submit" variant="contained" disabled={save.isPending || !formState.isDirty}>
            {save.isPending ? "Saving..." : "Save Settings"}
          </Button>
        </Box>
      ) : null}
      {guard.prompt}
    </Box>
  );
}
