import { CONTACT_KIND_LABELS, CONTACT_KINDS, CONTACT_LIMITS } from "../../../../shared/domain/contacts.ts";
import {
  ContactInputSchema,
  type Contact,
  type ContactFormValues,
} from "../../../../shared/schemas/contacts.ts";
import {
  DialogField,
  full,
  NoteField,
  StepDialog,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { useCan } from "../../../lib/session.tsx";
import { CompanyField } from "../../companies/index.ts";
import { useCreateContact, useUpdateContact } from "../api/save-contact.ts";

const KIND_OPTIONS = CONTACT_KINDS.map((k) => ({ value: k, label: CONTACT_KIND_LABELS[k] }));

const valuesOf = (contact: Contact | null, companyId: string): ContactFormValues => ({
  company_id: contact?.company_id ?? companyId,
  name: contact?.name ?? "",
  email: contact?.email ?? "",
  organization: contact?.organization ?? "",
  kind: contact?.kind ?? "agency",
  phone: contact?.phone ?? "",
  notes: contact?.notes ?? "",
});

/**
 * 'Add Contact' and 'Edit' (issue 27), on the dialog kit: Name, E-mail, Organization, Kind,
 * Phone, Notes, and a super-admin's Company for a new one. A taken e-mail comes back from the
 * server onto the E-mail field.
 */
export function ContactDialog({
  open,
  contact,
  companyId,
  onClose,
}: {
  open: boolean;
  /** The contact being edited; null: a new one. */
  contact: Contact | null;
  /** A new contact's company: the super-admin's company filter, else "". */
  companyId: string;
  onClose: () => void;
}) {
  const picksCompany = useCan("allCompanies") && !contact;
  const create = useCreateContact();
  const update = useUpdateContact();
  const { control, dialog } = useStepForm<ContactFormValues>({
    empty: valuesOf(contact, companyId),
    schema: ContactInputSchema,
    // An edit never moves a contact; everyone but a super-admin writes to their own company.
    toBody: (v) => ({ ...v, company_id: picksCompany ? v.company_id : null }),
    save: (values) => {
      const body = { ...values, company_id: picksCompany ? values.company_id : null };
      return contact ? update.mutateAsync({ id: contact.id, body }) : create.mutateAsync(body);
    },
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title={contact ? "Edit Contact" : "Add Contact"}
      intro="Someone outside your company a permit or bond involves. An e-mail is optional, but one contact per e-mail."
      submitLabel={contact ? "Save Contact" : "Add Contact"}
    >
      {picksCompany ? (
        <CompanyField control={control} name="company_id" required fullWidth sx={full} />
      ) : null}
      <DialogField
        control={control}
        name="name"
        label="Name"
        required
        maxLength={CONTACT_LIMITS.name}
        autoFocus
      />
      <DialogField
        control={control}
        name="organization"
        label="Organization"
        maxLength={CONTACT_LIMITS.organization}
      />
      <DialogField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        maxLength={CONTACT_LIMITS.email}
      />
      <DialogField control={control} name="phone" label="Phone" type="tel" maxLength={CONTACT_LIMITS.phone} />
      <DialogField control={control} name="kind" label="Kind" options={KIND_OPTIONS} sx={full} />
      <NoteField control={control} name="notes" label="Notes" maxLength={CONTACT_LIMITS.notes} />
    </StepDialog>
  );
}
