import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { visuallyHidden } from "@mui/utils";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlineOutlined";
import Block from "@mui/icons-material/Block";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import GppMaybeOutlined from "@mui/icons-material/GppMaybeOutlined";
import LockOpenOutlined from "@mui/icons-material/LockOpenOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import ShieldOutlined from "@mui/icons-material/ShieldOutlined";
import TrendingDown from "@mui/icons-material/TrendingDown";
import Undo from "@mui/icons-material/Undo";
import {
  BOND_STATUS_LABELS,
  COLLATERAL_FORM_LABELS,
  LEDGER_KIND_LABELS,
} from "../../../../../shared/domain/bonds.ts";
import type { BondLedger, Collateral, LedgerEntry, LinkedBond } from "../../../../../shared/schemas/bonds.ts";
import type { PermitDetail } from "../../../../../shared/schemas/permits.ts";
import { useIsPhone } from "../../../../components/record-cards.tsx";
import { errorMessage } from "../../../../lib/api.ts";
import {
  formatAmount,
  formatAmountChange,
  formatDay,
  formatMoment,
  formatMoney,
  formatPercent,
} from "../../../../lib/format.ts";
import { paths } from "../../../../lib/paths.ts";
import { BondStatusChip } from "../bond-status-chip.tsx";
import { DetailCard, EmptyState, FieldGrid } from "./detail-card.tsx";
import {
  AddCollateralDialog,
  CancelBondDialog,
  ClaimDialog,
  MaintenanceBondDialog,
  ReduceDialog,
  ReleaseCollateralDialog,
  ReleaseDialog,
  ReverseDialog,
  RiderDialog,
} from "./bond-dialogs.tsx";

/** A ledger entry's document: the bond's attachment, downloaded like any other. */
function DocumentLink({ document }: { document: LedgerEntry["document"] }) {
  if (!document) return <>—</>;
  // The attachments feature serves every attachment here (Content-Disposition: attachment). A long
  // name keeps to one line (the whole name in its tooltip).
  return (
    <Link
      href={`/api/attachments/${document.id}/download`}
      download
      title={document.name}
      // A 44 px target on a phone, like every other control there.
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.5,
        maxWidth: "100%",
        verticalAlign: "top",
        minHeight: { xs: 44, md: "auto" },
        minWidth: { xs: 44, md: "auto" },
      }}
    >
      <DescriptionOutlined sx={{ fontSize: 16, flexShrink: 0 }} aria-hidden />
      <Box
        component="span"
        sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", minWidth: 0 }}
      >
        {document.name}
      </Box>
    </Link>
  );
}

/** What an entry adds to its kind: the percent, the obligee's acceptance, the reversal's target, the reason. */
function entryDetails(entry: LedgerEntry, entries: LedgerEntry[]): string | null {
  const target = entry.reverses_id ? entries.find((e) => e.id === entry.reverses_id) : null;
  const parts = [
    entry.percent ? `By ${formatPercent(Number(entry.percent) / 100)}` : null,
    entry.obligee_acceptance_date ? `Obligee accepted ${formatDay(entry.obligee_acceptance_date)}` : null,
    target ? `Reverses the ${LEDGER_KIND_LABELS[target.kind]} of ${formatDay(target.effective_date)}` : null,
    entry.reason,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

function EventCell({ entry, entries }: { entry: LedgerEntry; entries: LedgerEntry[] }) {
  const details = entryDetails(entry, entries);
  return (
    <>
      <Box
        component="span"
        sx={{ display: "inline-flex", alignItems: "center", gap: 0.75, flexWrap: "wrap" }}
      >
        <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
          {LEDGER_KIND_LABELS[entry.kind]}
        </Typography>
        {entry.reversed_by_id ? (
          <Chip label="Reversed" size="small" variant="outlined" sx={{ height: 20 }} />
        ) : null}
      </Box>
      {details ? (
        <Typography
          component="span"
          variant="caption"
          sx={{ display: "block", color: "text.secondary", overflowWrap: "anywhere" }}
        >
          {details}
        </Typography>
      ) : null}
    </>
  );
}

/** 'Reverse' on an entry: a text button on a phone's card, an icon (with its tooltip) in the table. */
function ReverseButton({
  entry,
  onReverse,
  isIcon = false,
}: {
  entry: LedgerEntry;
  onReverse: (e: LedgerEntry) => void;
  isIcon?: boolean;
}) {
  const label = `Reverse the ${LEDGER_KIND_LABELS[entry.kind]} of ${formatDay(entry.effective_date)}`;
  if (isIcon)
    return (
      <Tooltip title="Reverse">
        <IconButton size="small" onClick={() => onReverse(entry)} aria-label={label}>
          <Undo fontSize="small" />
        </IconButton>
      </Tooltip>
    );
  return (
    <Button
      size="small"
      color="inherit"
      startIcon={<Undo fontSize="small" />}
      onClick={() => onReverse(entry)}
      aria-label={label}
      sx={{ whiteSpace: "nowrap" }}
    >
      Reverse
    </Button>
  );
}

/** The ledger as a table: Date, Event, Change, Amount (running), Document, By; 'Reverse' where allowed. */
function LedgerTable({ ledger, onReverse }: { ledger: BondLedger; onReverse: (entry: LedgerEntry) => void }) {
  const hasActions = ledger.entries.some((e) => e.can_reverse);
  const money = { whiteSpace: "nowrap", textAlign: "right" } as const;
  return (
    <TableContainer>
      <Table
        size="small"
        aria-label="Bond Ledger"
        // Narrower gutters and 13 px text: the six columns fit the page's main column at 1280 px.
        sx={{ "& td, & th": { px: 1 }, "& td": { fontSize: "0.8125rem" } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Event</TableCell>
            <TableCell sx={money}>Change</TableCell>
            <TableCell sx={money}>Amount</TableCell>
            <TableCell>Document</TableCell>
            <TableCell>By</TableCell>
            {hasActions ? (
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            ) : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {ledger.entries.map((entry) => (
            <TableRow
              key={entry.id}
              data-kind={entry.kind}
              sx={entry.reversed_by_id ? { "& td": { color: "text.secondary" } } : undefined}
            >
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDay(entry.effective_date)}</TableCell>
              <TableCell sx={{ minWidth: 120 }}>
                <EventCell entry={entry} entries={ledger.entries} />
              </TableCell>
              <TableCell sx={money}>
                {entry.kind === "original"
                  ? formatAmount(entry.change, ledger.currency)
                  : formatAmountChange(entry.change, ledger.currency)}
              </TableCell>
              <TableCell sx={{ ...money, fontWeight: 600 }}>
                {formatAmount(entry.amount_after, ledger.currency)}
              </TableCell>
              <TableCell sx={{ maxWidth: 150 }}>
                <DocumentLink document={entry.document} />
              </TableCell>
              <TableCell title={formatMoment(entry.created_at)} sx={{ whiteSpace: "nowrap" }}>
                {entry.by.name}
              </TableCell>
              {hasActions ? (
                <TableCell sx={{ py: 0, px: 0.5 }}>
                  {entry.can_reverse ? <ReverseButton entry={entry} onReverse={onReverse} isIcon /> : null}
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The ledger on a phone: one card per entry, the same facts labelled. */
function LedgerList({ ledger, onReverse }: { ledger: BondLedger; onReverse: (entry: LedgerEntry) => void }) {
  return (
    <Box
      component="ul"
      aria-label="Bond Ledger"
      sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
    >
      {ledger.entries.map((entry) => (
        <Box
          component="li"
          key={entry.id}
          data-kind={entry.kind}
          sx={{
            border: 1,
            borderColor: "divider",
            borderRadius: 2,
            p: 1.5,
            ...(entry.reversed_by_id ? { bgcolor: "action.hover" } : {}),
          }}
        >
          <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, alignItems: "flex-start" }}>
            <Box sx={{ minWidth: 0 }}>
              <EventCell entry={entry} entries={ledger.entries} />
            </Box>
            <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
              {formatAmount(entry.amount_after, ledger.currency)}
            </Typography>
          </Box>
          <Box
            component="dl"
            sx={{
              m: 0,
              mt: 0.75,
              display: "grid",
              gridTemplateColumns: "auto minmax(0, 1fr)",
              columnGap: 1.5,
              rowGap: 0.25,
            }}
          >
            {(
              [
                ["Date", formatDay(entry.effective_date)],
                [
                  "Change",
                  entry.kind === "original"
                    ? formatAmount(entry.change, ledger.currency)
                    : formatAmountChange(entry.change, ledger.currency),
                ],
                ["Document", <DocumentLink key="d" document={entry.document} />],
                ["By", entry.by.name],
              ] as const
            ).map(([label, value]) => (
              <Box key={label} sx={{ display: "contents" }}>
                <Typography component="dt" variant="body2" sx={{ color: "text.secondary" }}>
                  {label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {entry.can_reverse ? (
            <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 0.5 }}>
              <ReverseButton entry={entry} onReverse={onReverse} />
            </Box>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}

type LedgerDialog = "rider" | "reduce" | "release" | "cancel" | "claim" | null;

/**
 * 'Bond Ledger' (issue 12): the bond's status, original and current amount, and every entry with the
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
    <DetailCard
      title="Bond Ledger"
      icon={<ReceiptLongOutlined />}
      action={<BondStatusChip status={ledger.status} />}
    >
      <FieldGrid
        items={[
          { label: "Original Amount", value: formatAmount(ledger.original_amount, ledger.currency) },
          { label: "Current Amount", value: formatAmount(ledger.current_amount, ledger.currency) },
          { label: "Status", value: ledger.status ? BOND_STATUS_LABELS[ledger.status] : null },
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
              ? "No ledger yet: save the bond's form (Edit Permit) to open it with its amount."
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

/** "P-1042 · Main Street Maintenance (Active, $12,500.00)": a linked bond, as a link to its page. */
function LinkedBondLine({ label, bond, currency }: { label: string; bond: LinkedBond; currency: string }) {
  const facts = [
    bond.status ? BOND_STATUS_LABELS[bond.status] : null,
    formatAmount(bond.current_amount, currency),
  ].filter(Boolean);
  return (
    <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
      {label}:{" "}
      <Link component={RouterLink} to={paths.permit(bond.id)} sx={{ fontWeight: 600 }}>
        {bond.bond_number ?? bond.permit_number} · {bond.permit_name}
      </Link>
      {facts.length ? (
        <Typography component="span" variant="body2" sx={{ color: "text.secondary" }}>
          {" "}
          ({facts.join(", ")})
        </Typography>
      ) : null}
    </Typography>
  );
}

/**
 * Bond Details: the surety, number and type, and the link between a performance bond and its
 * maintenance bond, both ways; 'Start Maintenance Bond' on a performance bond once work is accepted.
 */
export function BondDetailsCard({
  permit,
  ledger,
  today,
}: {
  permit: PermitDetail;
  ledger: BondLedger | undefined;
  today: string;
}) {
  const [isStarting, setIsStarting] = useState(false);
  const canStart = !!ledger?.can.start_maintenance_bond;
  return (
    <DetailCard title="Bond Details" icon={<ShieldOutlined />}>
      <FieldGrid
        items={[
          { label: "Surety Company", value: ledger?.surety?.name ?? permit.surety_company },
          { label: "Bond Number", value: permit.bond_number },
          { label: "Guarantee Type", value: permit.guarantee_type },
          ...(ledger ? [] : [{ label: "Bond Amount", value: formatMoney(permit.bond_amount) }]),
        ]}
      />
      {ledger?.maintenance_bond || ledger?.performance_bond ? (
        <Box sx={{ display: "grid", gap: 0.5, mt: 2, pt: 1.5, borderTop: 1, borderColor: "divider" }}>
          {ledger.maintenance_bond ? (
            <LinkedBondLine
              label="Maintenance bond"
              bond={ledger.maintenance_bond}
              currency={ledger.currency}
            />
          ) : null}
          {ledger.performance_bond ? (
            <LinkedBondLine
              label="Performance bond"
              bond={ledger.performance_bond}
              currency={ledger.currency}
            />
          ) : null}
        </Box>
      ) : null}
      {canStart ? (
        // In the card's body, not its header: the caption is too long for a phone's header row.
        <Box sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: "divider" }}>
          <Button variant="outlined" startIcon={<BuildOutlined />} onClick={() => setIsStarting(true)}>
            Start Maintenance Bond
          </Button>
        </Box>
      ) : null}
      {canStart && ledger ? (
        <MaintenanceBondDialog
          permitId={permit.id}
          ledger={ledger}
          today={today}
          open={isStarting}
          onClose={() => setIsStarting(false)}
        />
      ) : null}
    </DetailCard>
  );
}

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

/** The bond cards while the ledger loads, or its error in their place. */
export function BondLedgerPending({ error }: { error: unknown }) {
  return (
    <DetailCard title="Bond Ledger" icon={<ReceiptLongOutlined />}>
      {error ? (
        <Alert severity="error">{errorMessage(error)}</Alert>
      ) : (
        <Skeleton variant="rounded" height={96} />
      )}
    </DetailCard>
  );
}
