import type { User } from "../../../../shared/schemas/users.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useResetTwoFactor } from "../api/reset-two-factor.ts";

const fullName = (u: User) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** Confirms an admin's reset of a user's two-factor sign-in (a lost phone). */
export function ResetTwoFactorDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const reset = useResetTwoFactor();
  const close = () => {
    reset.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!user}
      title="Reset Two-Factor"
      message="Reset this user's two-factor authentication?"
      details={
        user
          ? `${fullName(user)} (${user.email}) is signed out everywhere, their authenticator app and recovery codes stop working, and they set up a new app at their next sign-in if it is required. Do this only after checking who is asking, for example when a phone is lost.`
          : undefined
      }
      confirmLabel="Reset Two-Factor"
      isBusy={reset.isPending}
      error={reset.isError ? errorMessage(reset.error) : undefined}
      onClose={close}
      onConfirm={() => user && reset.mutate(user.id, { onSuccess: close })}
    />
  );
}
