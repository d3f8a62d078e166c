import Chip from "@mui/material/Chip";
import { BOND_STATUS_LABELS, type BondStatus } from "../../../../shared/domain/bonds.ts";

/** Chip colours of a bond's status: open ones green (Reduced blue), a claim red, closed ones plain. */
export const BOND_STATUS_COLORS: Record<BondStatus, "success" | "info" | "error" | "default"> = {
  active: "success",
  reduced: "info",
  released: "default",
  cancelled: "default",
  claimed: "error",
};

export function BondStatusChip({ status }: { status: BondStatus | null }) {
  if (!status) return null;
  return (
    <Chip
      label={BOND_STATUS_LABELS[status]}
      color={BOND_STATUS_COLORS[status]}
      variant={BOND_STATUS_COLORS[status] === "default" ? "outlined" : "filled"}
      size="small"
      sx={{ fontWeight: 600 }}
    />
  );
}
