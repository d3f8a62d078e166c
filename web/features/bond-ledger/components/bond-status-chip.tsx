import { BOND_STATUS_LABELS, isOpenBondStatus, type BondStatus } from "../../../../shared/domain/bonds.ts";
import { PAST_EXPIRY } from "../../../../shared/domain/record-status.ts";
import { StatusChip } from "../../../components/status-chip.tsx";

/**
 * A bond's one status in a list row: its ledger status, "Active · past expiry" once an open bond's
 * expiration date has passed (the row's urgency says so), coloured as every record status is.
 */
export function BondStatusChip({
  status,
  pastExpiry = false,
}: {
  status: BondStatus | null;
  pastExpiry?: boolean;
}) {
  if (!status) return null;
  const label = BOND_STATUS_LABELS[status];
  return <StatusChip status={pastExpiry && isOpenBondStatus(status) ? `${label} · ${PAST_EXPIRY}` : label} />;
}
