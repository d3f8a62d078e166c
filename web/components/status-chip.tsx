import Chip from "@mui/material/Chip";
import { statusTone } from "../../shared/domain/record-status.ts";

/**
 * A record's one status (shared/domain/record-status.ts: "Required", "Expired", "Active · past
 * expiry", "Released", "Closed · Finaled"...), coloured by its tone: the only status chip a permit
 * or bond shows wherever it is listed or opened (issue 25). `data-status-chip` marks it for the
 * screens tour, which checks that no record shows two.
 */
export function StatusChip({ status, sx }: { status: string; sx?: object }) {
  const tone = statusTone(status);
  return (
    <Chip
      label={status}
      color={tone}
      variant={tone === "default" ? "outlined" : "filled"}
      size="small"
      aria-label={`Status: ${status}`}
      data-status-chip=""
      // A narrow table cell may wrap a long status ("Active · past expiry") rather than clip the table.
      sx={{
        fontWeight: 600,
        height: "auto",
        minHeight: 24,
        "& .MuiChip-label": { whiteSpace: "normal" },
        ...sx,
      }}
    />
  );
}
