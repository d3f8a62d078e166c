import { RequireSession } from "./guards.tsx";
import { AppLayout } from "./layout/app-layout.tsx";

/**
 * Everything behind the session guard, loaded as its own chunk so that the sign-in page
 * downloads neither the header, the nav nor their icons.
 */
export default function AppShell() {
  return (
    <RequireSession>
      <AppLayout />
    </RequireSession>
  );
}
