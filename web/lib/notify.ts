import { createContext, useContext } from "react";

/**
 * App-wide feedback messages (the snackbar). `notify` works outside React too (the query
 * client reports mutation errors through it); components should use `useNotify()`.
 * <NotificationsHost/> (web/components/notifications-host.tsx) renders the queue.
 */
export type NotifySeverity = "success" | "info" | "warning" | "error";
/** A button beside the message, e.g. 'Undo' after a deletion (issue 25). */
export interface NotifyAction {
  label: string;
  onClick: () => void;
}
export interface Notification {
  id: number;
  message: string;
  severity: NotifySeverity;
  action?: NotifyAction;
}
export type NotifyFn = (message: string, severity?: NotifySeverity, action?: NotifyAction) => void;

type Listener = (notification: Notification) => void;
const listeners = new Set<Listener>();
let nextId = 1;

export const notify: NotifyFn = (message, severity = "info", action) => {
  const notification = { id: nextId++, message, severity, ...(action ? { action } : {}) };
  for (const listener of listeners) listener(notification);
};

export function subscribeNotifications(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Overridable in tests/stories by providing another function. */
export const NotifyContext = createContext<NotifyFn>(notify);

/** `const notify = useNotify(); notify("Permit saved.", "success");` */
export function useNotify(): NotifyFn {
  return useContext(NotifyContext);
}
