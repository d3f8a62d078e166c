import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import { COLLATERAL_FORM_LABELS } from "../../../../shared/domain/bonds.ts";
import type { BondLedger, Collateral } from "../../../../shared/schemas/bonds.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { formatAmount, formatDay } from "../../../lib/format.ts";
import { AddCollateralDialog, ReleaseCollateralDialog } from "./collateral-dialogs.tsx";

function CollateralRow({
  item,
  currency,
  onRelease,
}: {
  item: Collateral;
  currency: string;
  onRelease: (c: Collateral) => void;
}) {
  const dates = [
    `Held since ${formatDay(item.held_since)}`,
    item.released_on ? `released ${formatDay(item.released_on)}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        alignItems: "flex-start",
        gap: 1.5,
        p: 1.25,
        border: 1,
        borderColor: "divider",
        borderRadius: 2,
        bgcolor: item.released_on ? "action.hover" : "background.paper",
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {COLLATERAL_FORM_LABELS[item.form]} · {formatAmount(item.amount, currency)}
        </Typography>
        <Typography variant="caption" sx={{ display: "block", color: "text.secondary" }}>
          {dates}
        </Typography>
        {item.note ? (
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: "anywhere", whiteSpace: "pre-line" }}>
            {item.note}
          </Typography>
        ) : null}
      </Box>
      {item.released_on ? (
        <Chip label="Released" size="small" variant="outlined" sx={{ flexShrink: 0 }} />
      ) : item.can_release ? (
        <Button
          size="small"
          variant="outlined"
          onClick={() => onRelease(item)}
          aria-label={`Release the ${COLLATERAL_FORM_LABELS[item.form]} of ${formatAmount(item.amount, currency)}`}
          sx={{ flexShrink: 0 }}
        >
          Release
        </Button>
      ) : (
        <Chip label="Held" size="small" color="primary" variant="outlined" sx={{ flexShrink: 0 }} />
      )}
    </Box>
  );
}

/**
 * Collateral (issue 12): what the surety holds against the bond, held and released; staff only (the
 * API sends none to a client-user, and the page then shows no card). It is released with or after
 * the bond, which the Release buttons follow (the API's can_release).
 */
export function CollateralCard({
  permitId,
  ledger,
  today,
}: {
  permitId: string;
  ledger: BondLedger;
  today: string;
}) {
  const [isAdding, setIsAdding] = useState(false);
  const [releasing, setReleasing] = useState<Collateral | null>(null);
  const items = ledger.collateral ?? [];
  const hasHeld = items.some((c) => !c.released_on);
  return (
    <DetailCard
      title="Collateral"
      icon={<SavingsOutlined />}
      action={
        ledger.can.add_collateral ? (
          <Button
            variant="outlined"
            size="small"
            onClick={() => setIsAdding(true)}
            sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
          >
            Add Collateral
          </Button>
        ) : null
      }
    >
      {items.length ? (
        <>
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            Held:{" "}
            <Box component="span" sx={{ fontWeight: 650 }}>
              {formatAmount(ledger.collateral_held ?? "0", ledger.currency)}
            </Box>
          </Typography>
          <Box
            component="ul"
            aria-label="Collateral"
            sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
          >
            {items.map((item) => (
              <CollateralRow key={item.id} item={item} currency={ledger.currency} onRelease={setReleasing} />
            ))}
          </Box>
          {hasHeld && !items.some((c) => c.can_release) && ledger.can.add_collateral ? (
            <Typography variant="caption" sx={{ display: "block", mt: 1, color: "text.secondary" }}>
              Collateral is released with or after the bond.
            </Typography>
          ) : null}
        </>
      ) : (
        <EmptyState>No collateral held.</EmptyState>
      )}
      {ledger.can.add_collateral ? (
        <AddCollateralDialog
          permitId={permitId}
          ledger={ledger}
          today={today}
          open={isAdding}
          onClose={() => setIsAdding(false)}
        />
      ) : null}
      <ReleaseCollateralDialog
        permitId={permitId}
        ledger={ledger}
        today={today}
        collateral={releasing}
        onClose={() => setReleasing(null)}
      />
    </DetailCard>
  );
}
