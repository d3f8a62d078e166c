import { lazy, Suspense, useEffect, useState } from "react";
import { subscribeNotifications, type Notification } from "../lib/notify.ts";

// Most visits never show a message; the snackbar's code is fetched when the first one comes.
const NotificationSnackbar = lazy(() => import("./notification-snackbar.tsx"));

/** Shows notify()/useNotify() messages one at a time. Mounted once, at the root. */
export function NotificationsHost() {
  const [queue, setQueue] = useState<Notification[]>([]);
  const [closingId, setClosingId] = useState<number | null>(null);
  const current = queue[0];

  useEffect(
    () =>
      subscribeNotifications((next) =>
        // The same message twice (several queries failing together) is shown once.
        setQueue((q) =>
          q.some((n) => n.message === next.message && n.severity === next.severity) ? q : [...q, next],
        ),
      ),
    [],
  );

  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <NotificationSnackbar
        key={current.id}
        notification={current}
        open={closingId !== current.id}
        onClose={() => setClosingId(current.id)}
        onExited={() => setQueue((q) => q.slice(1))}
      />
    </Suspense>
  );
}
