import { useEffect, useRef } from "react";
import { useController, useWatch, type Control } from "react-hook-form";
import Autocomplete, { createFilterOptions } from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormLabel from "@mui/material/FormLabel";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  DOCUMENT_KIND_LABELS,
  DOCUMENT_KINDS,
  KIND_FIELDS,
  REQUEST_FIELD_LABELS,
  REQUEST_MESSAGE_MAX,
  REQUEST_TITLE_MAX,
  type RequestField,
} from "../../../../shared/domain/document-requests.ts";
import {
  DialogField,
  full,
  NoteField,
  StepDialog,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { useCompanyToday } from "../../../lib/session.tsx";
import { useRequestOptions } from "../api/request-options.ts";
import { useCreateRequest } from "../api/request-writes.ts";
import type { RequestContact } from "../api/types.ts";
import { emptyRequest, requestFormSchema, toRequestBody, type RequestFormValues } from "./request-form.ts";

const EMPTY_NAMES = emptyRequest(false);
const KIND_OPTIONS = DOCUMENT_KINDS.map((kind) => ({ value: kind, label: DOCUMENT_KIND_LABELS[kind] }));
const contactText = (c: RequestContact) => [c.organization, c.email].filter(Boolean).join(" · ");
const filterContacts = createFilterOptions<RequestContact>({
  stringify: (c) => `${c.name} ${c.organization ?? ""} ${c.email ?? ""}`,
});

/** 'Contact': one of the company's contacts, or a new name typed in (then saved as a contact). */
function ContactField({
  control,
  contacts,
  isLoading,
  onPick,
}: {
  control: Control<RequestFormValues>;
  contacts: RequestContact[];
  isLoading: boolean;
  onPick: (contact: RequestContact | null) => void;
}) {
  const { field, fieldState } = useController({ control, name: "name" });
  const contactId = useWatch({ control, name: "contactId" });
  const picked = contacts.find((c) => c.id === contactId);
  const hint = picked
    ? `A saved contact${picked.organization ? ` of ${picked.organization}` : ""}.`
    : "Pick a saved contact, or type the name of someone new.";
  return (
    <Autocomplete<RequestContact, false, false, true>
      freeSolo
      options={contacts}
      loading={isLoading}
      filterOptions={filterContacts}
      getOptionLabel={(option) => (typeof option === "string" ? option : option.name)}
      inputValue={field.value}
      onInputChange={(_event, value, reason) => {
        if (reason !== "input" && reason !== "clear") return;
        field.onChange(value);
        onPick(null);
      }}
      onChange={(_event, value) => {
        if (value && typeof value !== "string") {
          field.onChange(value.name);
          onPick(value);
        }
      }}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {option.name}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
              {contactText(option) || "No e-mail yet"}
            </Typography>
          </Box>
        </li>
      )}
      sx={full}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Contact"
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? hint}
        />
      )}
    />
  );
}

/** The checkboxes of the values the party fills in beside the file, of those the document offers. */
function FieldsChoice({
  control,
  offered,
}: {
  control: Control<RequestFormValues>;
  offered: readonly RequestField[];
}) {
  const { field } = useController({ control, name: "fields" });
  if (!offered.length) return null;
  const chosen = field.value;
  return (
    <FormControl component="fieldset" sx={full}>
      <FormLabel component="legend">Also ask them to fill in</FormLabel>
      <FormGroup row>
        {offered.map((name) => (
          <FormControlLabel
            key={name}
            label={REQUEST_FIELD_LABELS[name]}
            control={
              <Checkbox
                checked={chosen.includes(name)}
                onChange={(event) =>
                  field.onChange(event.target.checked ? [...chosen, name] : chosen.filter((f) => f !== name))
                }
              />
            }
          />
        ))}
      </FormGroup>
    </FormControl>
  );
}

/**
 * 'Request Document': asks a contact (an agency clerk, a surety agent) for a document about this
 * permit or bond. They get an e-mail with a link to a page where they upload it, no account needed;
 * what they send waits on the Requests card for review.
 */
export function RequestDocumentDialog({
  permitId,
  isBond,
  open,
  onClose,
}: {
  permitId: string;
  isBond: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const today = useCompanyToday();
  const options = useRequestOptions(permitId, open);
  const contacts = options.data?.contacts ?? [];
  const create = useCreateRequest(permitId);
  const { form, control, dialog } = useStepForm<RequestFormValues>({
    empty: emptyRequest(isBond),
    schema: requestFormSchema(today),
    // The server's word on a picked contact (say, no longer there) goes under 'Contact'.
    fieldOf: (apiField) =>
      apiField === "contactId"
        ? "name"
        : apiField in EMPTY_NAMES
          ? (apiField as keyof RequestFormValues)
          : null,
    save: (values) =>
      create.mutateAsync(
        toRequestBody(
          values,
          contacts.find((c) => c.id === values.contactId),
        ),
      ),
    onClose,
  });
  const [kind, contactId] = useWatch({ control, name: ["documentKind", "contactId"] });
  const offered = KIND_FIELDS[kind];
  // A new document offers its own fields, all ticked.
  const lastKind = useRef(kind);
  useEffect(() => {
    if (lastKind.current === kind) return;
    lastKind.current = kind;
    form.setValue("fields", [...KIND_FIELDS[kind]]);
  }, [form, kind]);
  const pickContact = (contact: RequestContact | null) => {
    const before = form.getValues("contactId");
    form.setValue("contactId", contact?.id ?? "");
    if (contact) {
      form.setValue("email", contact.email ?? "");
      form.setValue("organization", contact.organization ?? "");
      form.clearErrors(["name", "email"]);
    } else if (before) {
      form.setValue("email", "");
      form.setValue("organization", "");
    }
  };
  const hasEmail = !!contacts.find((c) => c.id === contactId)?.email;
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Request Document"
      intro="The contact gets an e-mail with a link to upload the document, no account needed. What they send waits here for your review before it changes anything."
      submitLabel="Send Request"
    >
      <ContactField
        control={control}
        contacts={contacts}
        isLoading={options.isPending}
        onPick={pickContact}
      />
      <DialogField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        required
        maxLength={254}
        slotProps={{ input: { readOnly: hasEmail } }}
        helperText={
          hasEmail
            ? "From the contact."
            : contactId
              ? "This contact has none yet."
              : "Saved with the new contact."
        }
        sx={contactId ? full : undefined}
      />
      {contactId ? null : (
        <DialogField control={control} name="organization" label="Organization" maxLength={200} />
      )}
      <DialogField control={control} name="documentKind" label="Document" options={KIND_OPTIONS} required />
      {kind === "other" ? (
        <DialogField control={control} name="title" label="Title" required maxLength={REQUEST_TITLE_MAX} />
      ) : null}
      <DialogField control={control} name="dueDate" label="Due Date" type="date" />
      <NoteField control={control} name="message" label="Message" maxLength={REQUEST_MESSAGE_MAX} />
      <FieldsChoice control={control} offered={offered} />
    </StepDialog>
  );
}
