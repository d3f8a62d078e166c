import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlineOutlined";
import Block from "@mui/icons-material/Block";
import GppMaybeOutlined from "@mui/icons-material/GppMaybeOutlined";
import LockOpenOutlined from "@mui/icons-material/LockOpenOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import TrendingDown from "@mui/icons-material/TrendingDown";
import type { BondLedger, LedgerEntry } from "../../../../shared/schemas/bonds.ts";
import { DetailCard, EmptyState, FieldGrid, PendingCard } from "../../../components/detail-card.tsx";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { formatAmount } from "../../../lib/format.ts";
import { CancelBondDialog, ClaimDialog, ReleaseDialog, ReverseDialog } from "./closing-dialogs.tsx";
import { LedgerList, LedgerTable } from "./ledger-entries.tsx";
import { ReduceDialog } from "./reduce-dialog.tsx";
import { RiderDialog } from "./rider-dialog.tsx";

type LedgerDialog = "rider" | "reduce" | "release" | "cancel" | "claim" | null;

/**
 * 'Bond Ledger' (issue 12): the bond's original and current amount, and every entry with the
 * running amount. Entries are never edited: a wrong one is reversed by a new entry. The steps come
 * from the API's `can` flags: Add Rider, Reduce Bond, Release Bond, Cancel Bond, Record Claim.
 */
export function BondLedgerCard({
  permitId,
  ledger,
  today,
}: {
  permitId: string;
  ledger: BondLedger;
  today: string;
}) {
  const isPhone = useIsPhone();
  const [dialog, setDialog] = useState<LedgerDialog>(null);
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);
  const { can } = ledger;
  const hasSteps = can.rider || can.reduction || can.release || can.cancellation || can.claim;
  const dialogProps = { permitId, ledger, today, onClose: () => setDialog(null) };
  return (
    // The bond's status is the page header's one chip (issue 25), not repeated here.
    <DetailCard title="Bond Ledger" icon={<ReceiptLongOutlined />}>
      <FieldGrid
        items={[
          { label: "Original Amount", value: formatAmount(ledger.original_amount, ledger.currency) },
          { label: "Current Amount", value: formatAmount(ledger.current_amount, ledger.currency) },
        ]}
      />
      {hasSteps ? (
        <Box
          role="group"
          aria-label="Bond actions"
          sx={{
            display: "flex",
            flexWrap: "wrap",
            gap: 1,
            mt: 2,
            pt: 2,
            borderTop: 1,
            borderColor: "divider",
          }}
        >
          {can.rider ? (
            <Button variant="contained" startIcon={<AddCircleOutline />} onClick={() => setDialog("rider")}>
              Add Rider
            </Button>
          ) : null}
          {can.reduction ? (
            <Button variant="outlined" startIcon={<TrendingDown />} onClick={() => setDialog("reduce")}>
              Reduce Bond
            </Button>
          ) : null}
          {can.release ? (
            <Button variant="outlined" startIcon={<LockOpenOutlined />} onClick={() => setDialog("release")}>
              Release Bond
            </Button>
          ) : null}
          {can.cancellation || can.claim ? (
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", ml: { sm: "auto" } }}>
              {can.claim ? (
                <Button color="inherit" startIcon={<GppMaybeOutlined />} onClick={() => setDialog("claim")}>
                  Record Claim
                </Button>
              ) : null}
              {can.cancellation ? (
                <Button color="inherit" startIcon={<Block />} onClick={() => setDialog("cancel")}>
                  Cancel Bond
                </Button>
              ) : null}
            </Box>
          ) : null}
        </Box>
      ) : null}
      <Box sx={{ mt: 2 }}>
        {ledger.entries.length === 0 ? (
          <EmptyState>
            {ledger.original_amount
              ? "No ledger yet: save the bond's form (Edit Bond) to open it with its amount."
              : "No ledger yet: enter the bond's amount on its form to open it."}
          </EmptyState>
        ) : isPhone ? (
          <LedgerList ledger={ledger} onReverse={setReversing} />
        ) : (
          <LedgerTable ledger={ledger} onReverse={setReversing} />
        )}
      </Box>
      {can.rider ? <RiderDialog {...dialogProps} open={dialog === "rider"} /> : null}
      {can.reduction ? <ReduceDialog {...dialogProps} open={dialog === "reduce"} /> : null}
      {can.release ? <ReleaseDialog {...dialogProps} open={dialog === "release"} /> : null}
      {can.cancellation ? <CancelBondDialog {...dialogProps} open={dialog === "cancel"} /> : null}
      {can.claim ? <ClaimDialog {...dialogProps} open={dialog === "claim"} /> : null}
      {can.reverse ? (
        <ReverseDialog
          permitId={permitId}
          ledger={ledger}
          today={today}
          entry={reversing}
          onClose={() => setReversing(null)}
        />
      ) : null}
    </DetailCard>
  );
}

/** The bond cards while the ledger loads, or its error in their place. */
export const BondLedgerPending = ({ error }: { error: unknown }) => (
  <PendingCard title="Bond Ledger" icon={<ReceiptLongOutlined />} error={error} />
);
