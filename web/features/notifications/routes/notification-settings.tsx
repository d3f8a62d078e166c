import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the notifications feature issue replaces this screen. */
export default function NotificationSettingsPage() {
  return (
    <ComingSoon
      title="Notification Settings"
      description="Reminder switches (30, 7, 1 day) and reminder recipients."
    />
  );
}
