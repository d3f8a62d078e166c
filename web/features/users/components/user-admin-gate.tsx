import type { ReactNode } from "react";
import Alert from "@mui/material/Alert";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { useMe } from "../../../lib/session.tsx";

/**
 * The users pages' own checks (spec section 8: 'Not authenticated.'; a role without the page gets
 * the one access-denied text, issue 25). The session guard normally redirects first and the server
 * refuses anyway; this keeps the page honest if it ever renders without them.
 */
export function UserAdminGate({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <PageSpinner />;
  if (!me.data) return <Alert severity="error">Not authenticated.</Alert>;
  if (!me.data.capabilities.includes("users.manage")) {
    return <AccessDenied />;
  }
  return children;
}
