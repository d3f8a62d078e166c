import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import EventRepeat from "@mui/icons-material/EventRepeat";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import type { InspectionResult } from "../../../../shared/domain/lifecycle.ts";
import type { Inspection, Lifecycle } from "../../../../shared/schemas/lifecycle.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { formatDay } from "../../../lib/format.ts";
import { InspectionDialog } from "./inspection-dialog.tsx";
import { InternalChip } from "../../../components/internal-chip.tsx";

const RESULT_COLORS: Record<InspectionResult, "success" | "error" | "warning" | "default"> = {
  Passed: "success",
  Failed: "error",
  Partial: "warning",
  Cancelled: "default",
};

function InspectionRow({ inspection }: { inspection: Inspection }) {
  const meta = [formatDay(inspection.date), inspection.inspector].filter(Boolean).join(" · ");
  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        gap: 1.5,
        alignItems: "flex-start",
        p: 1.25,
        border: 1,
        borderColor: "divider",
        borderRadius: 2,
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>
          {inspection.inspection_type}
        </Typography>
        <Typography variant="caption" sx={{ color: "text.secondary", display: "block" }}>
          {meta}
        </Typography>
        {inspection.notes ? (
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: "anywhere", whiteSpace: "pre-line" }}>
            {inspection.notes}
            {inspection.notes_internal ? <InternalChip of="notes" /> : null}
          </Typography>
        ) : null}
      </Box>
      <Chip
        label={inspection.result}
        size="small"
        color={RESULT_COLORS[inspection.result]}
        variant={inspection.result === "Cancelled" ? "outlined" : "filled"}
        sx={{ fontWeight: 600, flexShrink: 0 }}
      />
    </Box>
  );
}

/** Inspections, newest first, with 'Record Inspection' for those who may. */
export function InspectionsCard({
  permitId,
  lifecycle,
  today,
}: {
  permitId: string;
  lifecycle: Lifecycle;
  today: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DetailCard
      title="Inspections"
      icon={<FactCheckOutlined />}
      action={
        lifecycle.can.inspect ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<EventRepeat />}
            onClick={() => setOpen(true)}
            sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
          >
            Record Inspection
          </Button>
        ) : null
      }
    >
      {lifecycle.inspections.length === 0 ? (
        <EmptyState>No inspections recorded.</EmptyState>
      ) : (
        <Box
          component="ul"
          aria-label="Inspections"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
        >
          {lifecycle.inspections.map((inspection) => (
            <InspectionRow key={inspection.id} inspection={inspection} />
          ))}
        </Box>
      )}
      {lifecycle.can.inspect ? (
        <InspectionDialog
          permitId={permitId}
          open={open}
          onClose={() => setOpen(false)}
          today={today}
          movesExpiryBy={lifecycle.expiry_rule === "after_inspection" ? lifecycle.expiry_days : null}
        />
      ) : null}
    </DetailCard>
  );
}
