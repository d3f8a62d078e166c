import { useMemo, type Ref } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";

// Every currency the browser knows (ISO 4217), with its name in the browser's language.
const CODES: string[] = (() => {
  try {
    return Intl.supportedValuesOf("currency");
  } catch {
    return ["USD", "EUR", "GBP", "CAD", "AUD"];
  }
})();

function currencyName(code: string): string | undefined {
  try {
    return new Intl.DisplayNames(undefined, { type: "currency" }).of(code);
  } catch {
    return undefined;
  }
}

/**
 * A company's 'Currency' (issue 12): an ISO 4217 code, chosen from the codes the browser knows or
 * typed ("eur" is read as "EUR"); bond amounts are shown in it, in each viewer's own number format.
 */
export function CurrencyField({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  disabled,
  helperText = "ISO 4217 code, e.g. USD or EUR: bond amounts are shown in it.",
}: {
  value: string;
  onChange: (code: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  disabled?: boolean;
  helperText?: string;
}) {
  const options = useMemo(() => (value && !CODES.includes(value) ? [value, ...CODES] : CODES), [value]);
  return (
    <Autocomplete
      freeSolo
      autoHighlight
      disabled={disabled}
      options={options}
      inputValue={value}
      onInputChange={(_event, next) => onChange(next.trim().toUpperCase().slice(0, 3))}
      getOptionLabel={(option) => option}
      renderOption={({ key, ...props }, option) => {
        const name = currencyName(option);
        return (
          <li key={key} {...props}>
            {name ? `${option} · ${name}` : option}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Currency"
          inputRef={inputRef}
          onBlur={onBlur}
          error={!!error}
          helperText={error ?? helperText}
          slotProps={{
            ...params.slotProps,
            htmlInput: {
              ...params.slotProps.htmlInput,
              maxLength: 3,
              autoCapitalize: "characters",
              spellCheck: false,
            },
          }}
        />
      )}
    />
  );
}
