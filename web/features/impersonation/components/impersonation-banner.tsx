import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import type { Me } from "../../../../shared/schemas/auth.ts";
import { useStopImpersonation } from "../api/impersonation.ts";

/** Shown on every signed-in page while a super-admin views the app as another user. */
export function ImpersonationBanner({ me }: { me: Me }) {
  const stop = useStopImpersonation();
  if (!me.impersonator) return null;
  const name = `${me.firstName} ${me.lastName}`.trim() || me.email;
  return (
    <Alert
      severity="warning"
      variant="filled"
      sx={{ borderRadius: 0, alignItems: "center" }}
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          onClick={() => stop.mutate()}
          disabled={stop.isPending || stop.isSuccess}
        >
          Stop
        </Button>
      }
    >
      Viewing as {name} ({me.email}). Signed in as {me.impersonator.name}.
    </Alert>
  );
}
