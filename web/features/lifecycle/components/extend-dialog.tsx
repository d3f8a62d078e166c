import { ExtensionInputSchema, LIFECYCLE_LIMITS } from "../../../../shared/schemas/lifecycle.ts";
import { DateReasonDialog } from "../../../components/dialog-kit/index.ts";
import { formatDay } from "../../../lib/format.ts";
import { useExtendPermit } from "../api/lifecycle-steps.ts";

/** 'Extend Permit': the same term, a later date, and why. */
export function ExtendDialog({
  permitId,
  open,
  onClose,
  currentExpiry,
}: {
  permitId: string;
  open: boolean;
  onClose: () => void;
  currentExpiry: string | null;
}) {
  const extend = useExtendPermit(permitId);
  return (
    <DateReasonDialog
      open={open}
      onClose={onClose}
      title="Extend Permit"
      intro={`Keeps the current term and moves its expiration date from ${
        formatDay(currentExpiry) ?? "none"
      } to a later one.`}
      submitLabel="Save Extension"
      initialDate=""
      dateLabel="New Expiration Date"
      dateField="new_expiration_date"
      reasonRequired
      reasonMaxLength={LIFECYCLE_LIMITS.reason}
      internalField="reason_internal"
      schema={ExtensionInputSchema}
      toBody={(v) => ({ new_expiration_date: v.date, reason: v.reason, reason_internal: v.internal })}
      save={extend.mutateAsync}
    />
  );
}
