import { lazy, Suspense, useEffect, useState } from "react";
import { subscribeNotifications, type Notification } from "../lib/notify.ts";

// Most visits never show a message; the snackbar's code is fetched when the first one comes.
const NotificationSnackbar = lazy(() => import("./notification-snackbar.tsx"));

/**
 * Shows notify()/useNotify() messages. Mounted once, at the root. A new message replaces the one
 * on screen at once (issue 14: an old "Template added." must not stand beside a later error); the
 * same message again (several queries failing together) is shown once.
 */
export function NotificationsHost() {
  const [queue, setQueue] = useState<Notification[]>([]);
  const [closingId, setClosingId] = useState<number | null>(null);
  const current = queue[0];

  useEffect(
    () =>
      subscribeNotifications((next) =>
        setQueue((q) =>
          q[0] && q[0].message === next.message && q[0].severity === next.severity && closingId !== q[0].id
            ? q
            : [next],
        ),
      ),
    [closingId],
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
