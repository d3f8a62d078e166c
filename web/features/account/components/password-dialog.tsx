import { useForm } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { CurrentPasswordSchema, type CurrentPassword } from "../../../../shared/schemas/auth.ts";
import { PasswordField } from "../../../components/password-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver } from "../../../lib/form-resolver.ts";

const resolver = formResolver(CurrentPasswordSchema);

/** Asks for the current password before a change to two-factor sign-in. */
export function PasswordDialog({
  open,
  title,
  description,
  confirmLabel,
  confirmColor = "primary",
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  confirmColor?: "primary" | "error";
  /** Rejects with the server's error, which the dialog shows. */
  onConfirm: (password: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting, errors },
  } = useForm<CurrentPassword>({ resolver, defaultValues: { password: "" } });
  const close = () => {
    if (isSubmitting) return;
    reset();
    onClose();
  };
  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await onConfirm(password);
      reset();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["password"]))
        setError("root", { message: errorMessage(error) });
    }
  });

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="password-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="password-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText>
          {errors.root ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {errors.root.message}
            </Alert>
          ) : null}
          <PasswordField
            control={control}
            name="password"
            label="Current Password"
            autoComplete="current-password"
            autoFocus
            required
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={confirmColor} disabled={isSubmitting}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
