import { useMemo, type Ref } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { CONTACT_KIND_LABELS, CONTACT_LIMITS, contactLabel } from "../../../../shared/domain/contacts.ts";
import type { ContactChoice } from "../../../../shared/schemas/contacts.ts";
import { useContactPicker } from "../api/list-contacts.ts";

/**
 * The permit form's 'Contacts' (issue 27): some of the company's contacts, picked by typing a
 * name, organization or e-mail. Each choice reads "Name — Organization" with its e-mail and kind
 * below; a chosen one is a chip. `companyId` null: the user's own company (a super-admin's form
 * passes the chosen one; none chosen, nothing to pick).
 */
export function ContactsField({
  companyId,
  isEnabled = true,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  name = "contact_ids",
}: {
  companyId: string | null;
  /** False while the company is not known yet (a super-admin's new permit). */
  isEnabled?: boolean;
  value: string[];
  onChange: (ids: string[]) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  name?: string;
}) {
  const picker = useContactPicker(companyId, { enabled: isEnabled });
  const options = useMemo(() => picker.data?.contacts ?? [], [picker.data]);
  const byId = useMemo(() => new Map(options.map((c) => [c.id, c])), [options]);
  // Chosen ids the list does not hold (yet): kept, shown by id until it loads.
  const chosen = value.map(
    (id) =>
      byId.get(id) ?? ({ id, name: "…", email: null, organization: null, kind: "other" } as ContactChoice),
  );
  const none = picker.isSuccess && options.length === 0;
  return (
    <Autocomplete
      multiple
      options={options}
      value={chosen}
      disabled={!isEnabled}
      onChange={(_e, next) => onChange(next.map((c) => c.id).slice(0, CONTACT_LIMITS.perPermit))}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(c) => contactLabel(c)}
      filterOptions={(list, { inputValue }) => {
        const q = inputValue.trim().toLowerCase();
        if (!q) return list;
        return list.filter((c) =>
          [c.name, c.organization, c.email].some((v) => v?.toLowerCase().includes(q)),
        );
      }}
      loading={picker.isFetching}
      noOptionsText="No contacts match. Add contacts on the Contacts page."
      renderOption={({ key, ...props }, c) => (
        <Box component="li" key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>
              {contactLabel(c)}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
              {[c.email, CONTACT_KIND_LABELS[c.kind]].filter(Boolean).join(" · ")}
            </Typography>
          </Box>
        </Box>
      )}
      renderValue={(list, getItemProps) =>
        list.map((c, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} label={contactLabel(c)} size="small" {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Contacts"
          name={name}
          inputRef={inputRef}
          onBlur={onBlur}
          error={!!error}
          placeholder={value.length ? undefined : "Agency contact, surety agent..."}
          helperText={
            error ??
            (!isEnabled
              ? "Select a company first."
              : none
                ? "This company has no contacts yet: add them on the Contacts page."
                : "The people at the agency, the surety and others this permit involves.")
          }
        />
      )}
    />
  );
}
