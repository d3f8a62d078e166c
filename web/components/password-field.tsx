import { useState } from "react";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import type { FieldValues } from "react-hook-form";
import { FormTextField, type FormTextFieldProps } from "./form-text-field.tsx";

type PasswordFieldProps<T extends FieldValues> = Omit<FormTextFieldProps<T>, "type" | "endAdornment"> & {
  /** Accessible names of the toggle, e.g. "Show password" / "Hide password". */
  showLabel?: string;
  hideLabel?: string;
};

/** A password input bound to react-hook-form, with a show/hide toggle button. */
export function PasswordField<T extends FieldValues>({
  showLabel = "Show password",
  hideLabel = "Hide password",
  ...props
}: PasswordFieldProps<T>) {
  const [isVisible, setIsVisible] = useState(false);
  return (
    <FormTextField
      {...props}
      type={isVisible ? "text" : "password"}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={isVisible ? hideLabel : showLabel}
            onClick={() => setIsVisible((v) => !v)}
            // Keep the caret in the input when the button is clicked with the mouse.
            onMouseDown={(event) => event.preventDefault()}
            edge="end"
            disabled={props.disabled}
          >
            {isVisible ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
