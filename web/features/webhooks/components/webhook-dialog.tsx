import { useEffect, useRef } from "react";
import { useController, useWatch } from "react-hook-form";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import {
  guessWebhookFormat,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookEventType,
  type WebhookFormat,
} from "../../../../shared/domain/webhooks.ts";
import {
  WEBHOOK_PRIVATE_MESSAGE,
  WEBHOOK_UNRESOLVED_MESSAGE,
  WEBHOOK_URL_MAX,
  WebhookInputSchema,
  WebhookPatchSchema,
  type Webhook,
  type WebhookCreated,
} from "../../../../shared/schemas/webhooks.ts";
import { DialogField, full, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { useCan } from "../../../lib/session.tsx";
import { CompanyField } from "../../companies/index.ts";
import { useCreateWebhook } from "../api/create-webhook.ts";
import { useUpdateWebhook } from "../api/update-webhook.ts";
import { WebhookEventsField } from "./webhook-events-field.tsx";
import { eventsForBody, eventsForForm } from "./webhook-text.ts";

interface WebhookFormValues {
  company_id: string;
  url: string;
  format: WebhookFormat;
  events: WebhookEventType[];
}

const formatHelp = (format: WebhookFormat) =>
  format === "standard"
    ? "Signed JSON any system can verify"
    : `A message card in ${format === "slack" ? "a Slack channel" : "a Teams channel"}`;

/** The server refuses an address it must not reach with a message about the URL: shown at the URL. */
const URL_MESSAGES = [WEBHOOK_PRIVATE_MESSAGE, WEBHOOK_UNRESOLVED_MESSAGE];
function atUrlField(error: unknown): unknown {
  if (error instanceof ApiError && !error.fields && URL_MESSAGES.includes(error.message))
    return new ApiError(error.status, error.code, error.message, { url: error.message });
  return error;
}

/**
 * 'Add Webhook' and 'Edit' (issue 30, item 3): URL, Format (guessed from the URL once typed, until
 * one is picked), Events (every one ticked: events null, those added later too), and a
 * super-admin's Company when adding. `onCreated` gets the new endpoint with its secret, shown next, once.
 */
export function WebhookDialog({
  open,
  webhook,
  companyId,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** The endpoint edited; null: 'Add Webhook'. */
  webhook: Webhook | null;
  /** A super-admin's company filter, else "". */
  companyId: string;
  onClose: () => void;
  onCreated: (created: WebhookCreated) => void;
}) {
  const isEdit = !!webhook;
  const picksCompany = useCan("allCompanies") && !isEdit;
  const create = useCreateWebhook();
  const update = useUpdateWebhook({ isForm: true });
  const empty: WebhookFormValues = {
    company_id: companyId,
    url: webhook?.url ?? "",
    format: webhook?.format ?? "standard",
    events: eventsForForm(webhook?.events ?? null),
  };
  const toBody = (v: WebhookFormValues) => ({
    ...(isEdit ? {} : { company_id: picksCompany ? v.company_id : null }),
    url: v.url,
    format: v.format,
    events: eventsForBody(v.events),
  });
  const { form, control, dialog } = useStepForm<WebhookFormValues>({
    empty,
    schema: isEdit ? WebhookPatchSchema : WebhookInputSchema,
    toBody,
    save: async (values) => {
      try {
        if (webhook) await update.mutateAsync({ id: webhook.id, patch: toBody(values) });
        else onCreated(await create.mutateAsync(toBody(values)));
      } catch (error) {
        throw atUrlField(error);
      }
    },
    onClose,
  });

  // The format follows the URL as it is typed (a Slack or Teams address), until one is picked.
  const isFormatPicked = useRef(isEdit);
  useEffect(() => {
    isFormatPicked.current = isEdit;
  }, [open, isEdit]);
  const format = useController({ control, name: "format" });
  const url = useWatch({ control, name: "url" });
  useEffect(() => {
    if (!isFormatPicked.current && url) form.setValue("format", guessWebhookFormat(url.trim()));
  }, [url, form]);

  return (
    <StepDialog
      {...dialog}
      open={open}
      title={isEdit ? "Edit Webhook" : "Add Webhook"}
      intro="Permitrack sends a POST to this address when the events you choose happen in your company."
      submitLabel="Save"
    >
      {picksCompany ? (
        <CompanyField control={control} name="company_id" required fullWidth sx={full} />
      ) : null}
      <DialogField
        control={control}
        name="url"
        label="URL"
        required
        maxLength={WEBHOOK_URL_MAX}
        autoFocus
        type="url"
        inputMode="url"
        helperText="The address that receives the events, starting with https://"
        sx={full}
      />
      <TextField
        select
        fullWidth
        label="Format"
        name={format.field.name}
        value={format.field.value}
        inputRef={format.field.ref}
        onBlur={format.field.onBlur}
        onChange={(e) => {
          isFormatPicked.current = true;
          format.field.onChange(e.target.value);
        }}
        error={!!format.fieldState.error}
        helperText={format.fieldState.error?.message ?? formatHelp(format.field.value)}
        sx={full}
      >
        {WEBHOOK_FORMATS.map((f) => (
          <MenuItem key={f} value={f}>
            {WEBHOOK_FORMAT_LABELS[f]}
          </MenuItem>
        ))}
      </TextField>
      <WebhookEventsField control={control} name="events" />
    </StepDialog>
  );
}
