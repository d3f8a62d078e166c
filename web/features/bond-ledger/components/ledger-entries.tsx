import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { visuallyHidden } from "@mui/utils";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import Undo from "@mui/icons-material/Undo";
import { RowDetails } from "../../../components/detail-card.tsx";
import { LEDGER_KIND_LABELS } from "../../../../shared/domain/bonds.ts";
import type { BondLedger, LedgerEntry } from "../../../../shared/schemas/bonds.ts";
import {
  formatAmount,
  formatAmountChange,
  formatDay,
  formatMoment,
  formatPercent,
} from "../../../lib/format.ts";

/**
 * A bond's ledger entries (issue 12), as a table on a wide screen and as cards on a phone: the
 * date, the event with its details, the change, the running amount, the document, who, and
 * 'Reverse' where the API allows it.
 */

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
      <RowDetails>{details}</RowDetails>
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
export function LedgerTable({
  ledger,
  onReverse,
}: {
  ledger: BondLedger;
  onReverse: (entry: LedgerEntry) => void;
}) {
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
export function LedgerList({
  ledger,
  onReverse,
}: {
  ledger: BondLedger;
  onReverse: (entry: LedgerEntry) => void;
}) {
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
