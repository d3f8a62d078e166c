import { Controller } from "react-hook-form";
import { ContactsField } from "../../contacts/index.ts";
import { Section, fullWidth } from "./permit-form-fields.tsx";
import type { PermitFormControl } from "./permit-form-values.ts";

/**
 * Contacts (issue 27): the company's contacts the permit or bond lists (its agency contact, its
 * surety agent), picked from the contacts feature's field. A super-admin's form passes its chosen
 * company (`companyId`), none chosen yet: `isEnabled` false.
 */
export function ContactsSection({
  control,
  companyId,
  isEnabled,
}: {
  control: PermitFormControl;
  companyId: string | null;
  isEnabled: boolean;
}) {
  return (
    <Section title="Contacts">
      <Controller
        control={control}
        name="contact_ids"
        render={({ field, fieldState }) => (
          <div style={fullWidth}>
            <ContactsField
              companyId={companyId}
              isEnabled={isEnabled}
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          </div>
        )}
      />
    </Section>
  );
}
