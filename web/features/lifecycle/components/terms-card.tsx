import { Fragment, type ReactNode } from "react";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import { visuallyHidden } from "@mui/utils";
import { TERM_KIND_LABELS } from "../../../../shared/domain/lifecycle.ts";
import type { Lifecycle, Term, TermExtension } from "../../../../shared/schemas/lifecycle.ts";
import { DetailCard, EmptyState, RowDetails } from "../../../components/detail-card.tsx";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { BROWSER_LOCALE, formatAmount, formatDay, formatDayOrDash } from "../../../lib/format.ts";
import { extensionReasonText } from "../../../../shared/domain/audit-text.ts";
import { InternalChip } from "../../../components/internal-chip.tsx";

/**
 * What a term adds to its kind: the fee and note of a renewal (the reason of an old lone extension),
 * each internal one marked for staff (issue 25; a client-user never receives one).
 */
function termDetails(term: Term, currency: string): ReactNode {
  const parts: [string, boolean, string][] = [];
  if (term.renewal_fee)
    parts.push([`Fee ${formatAmount(term.renewal_fee, currency)}`, term.renewal_fee_internal, "fee"]);
  if (term.reason)
    parts.push([extensionReasonText(term.reason, BROWSER_LOCALE), term.reason_internal, "reason"]);
  if (term.note) parts.push([term.note, term.note_internal, "note"]);
  if (!parts.length) return null;
  return parts.map(([text, internal, of], i) => (
    <Fragment key={of}>
      {i ? " · " : null}
      {text}
      {internal ? <InternalChip of={of} /> : null}
    </Fragment>
  ));
}

const isCurrent = (term: Term, lifecycle: Lifecycle, index: number, terms: Term[]) =>
  !lifecycle.closed && term.term_no === lifecycle.term_no && index === terms.length - 1;

/**
 * An extension as a sub-line of its term: "Extended Nov 2, 2027: ~~Dec 1, 2027~~ → Mar 1, 2028 ·
 * Agency backlog". The earlier date is struck through and read out as "was Dec 1, 2027".
 */
function ExtensionLine({ extension }: { extension: TermExtension }) {
  const was = formatDay(extension.previous_expiration_date);
  return (
    <Typography
      component="li"
      variant="caption"
      sx={{ display: "block", color: "text.secondary", overflowWrap: "anywhere" }}
    >
      Extended {formatDay(extension.extended_on)}:{" "}
      {was ? (
        <>
          <Box component="del" sx={{ textDecorationThickness: "1px" }}>
            <Box component="span" sx={visuallyHidden}>
              was{" "}
            </Box>
            {was}
          </Box>{" "}
          <span aria-hidden>→</span>
          <Box component="span" sx={visuallyHidden}>
            , now
          </Box>{" "}
        </>
      ) : null}
      <Box component="span" sx={{ color: "text.primary", whiteSpace: "nowrap" }}>
        {formatDayOrDash(extension.expiration_date)}
      </Box>
      {/* An inspection's reason with its date as the screens show it (issue 25). */}
      {extension.reason ? ` · ${extensionReasonText(extension.reason, BROWSER_LOCALE)}` : null}
      {extension.reason && extension.reason_internal ? <InternalChip of="reason" /> : null}
    </Typography>
  );
}

function Extensions({ term }: { term: Term }) {
  if (term.extensions.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label={`Extensions of term ${term.term_no}`}
      sx={{ listStyle: "none", m: 0, mt: 0.5, p: 0 }}
    >
      {term.extensions.map((e) => (
        <ExtensionLine key={e.id} extension={e} />
      ))}
    </Box>
  );
}

function HowCell({ term, currency }: { term: Term; currency: string }) {
  const details = termDetails(term, currency);
  return (
    <>
      <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>
        {TERM_KIND_LABELS[term.kind]}
      </Typography>
      <RowDetails>{details}</RowDetails>
    </>
  );
}

/** A term's facts on a phone: two short columns, label beside value, so a term stays a few lines. */
function TermFacts({
  term,
  currency,
  numberLabel,
}: {
  term: Term;
  currency: string;
  numberLabel: string | null;
}) {
  const details = termDetails(term, currency);
  const facts: [string, ReactNode][] = [
    ...(numberLabel ? [[numberLabel, term.permit_number] as [string, string]] : []),
    ["Issued", formatDay(term.issue_date)],
    ["Expires", formatDay(term.expiration_date)],
    ["Ended", formatDay(term.ended_on)],
  ];
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: "grid", gridTemplateColumns: "auto minmax(0, 1fr)", columnGap: 1.5, rowGap: 0.25 }}
    >
      {[...facts, ...(details ? [["Details", details] as [string, ReactNode]] : [])].map(([label, value]) => (
        <Box key={label} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" sx={{ color: "text.secondary" }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
            {value ?? "—"}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Terms: one row per term (Term, Permit #, Issued, Expires, Ended, How), its extensions as
 * sub-lines with the dates they replaced struck through (issue 25); a renewal's fee in the
 * company's `currency`. A bond's terms have no Permit # column: its number is in Bond Details.
 */
export function TermsCard({
  lifecycle,
  currency,
  isBond = false,
}: {
  lifecycle: Lifecycle;
  currency: string;
  isBond?: boolean;
}) {
  const isPhone = useIsPhone();
  const terms = lifecycle.terms;
  const numberLabel = isBond ? null : "Permit #";
  const current = (
    <Chip label="Current" size="small" color="primary" variant="outlined" sx={{ ml: 1, height: 20 }} />
  );
  return (
    <DetailCard title="Terms" icon={<HistoryOutlined />}>
      {terms.length === 0 ? (
        <EmptyState>No terms recorded.</EmptyState>
      ) : isPhone ? (
        <Box
          component="ul"
          aria-label="Terms"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
        >
          {terms.map((term, i) => (
            <Box
              component="li"
              key={term.id}
              sx={{ border: 1, borderColor: "divider", borderRadius: 2, p: 1.5 }}
            >
              <Box sx={{ display: "flex", alignItems: "center", mb: 0.75 }}>
                <Typography variant="body2" sx={{ fontWeight: 650 }}>
                  Term {term.term_no} · {TERM_KIND_LABELS[term.kind]}
                </Typography>
                {isCurrent(term, lifecycle, i, terms) ? current : null}
              </Box>
              <TermFacts term={term} currency={currency} numberLabel={numberLabel} />
              <Extensions term={term} />
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer>
          {/* Each term is a row group: its row, then its extensions on a line across the columns.
              Tighter cells, so a long permit number stays on one line and the table fits 1280 px. */}
          <Table
            size="small"
            aria-label="Terms"
            sx={{
              "& th, & td": { px: 1 },
              "& td": { verticalAlign: "top" },
              "& tbody > tr:not(:last-of-type) > td": { borderBottom: 0 },
            }}
          >
            <TableHead>
              <TableRow>
                <TableCell>Term</TableCell>
                {numberLabel ? <TableCell sx={{ whiteSpace: "nowrap" }}>{numberLabel}</TableCell> : null}
                <TableCell>Issued</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Ended</TableCell>
                <TableCell>How</TableCell>
              </TableRow>
            </TableHead>
            {terms.map((term, i) => (
              <TableBody
                key={term.id}
                data-term={term.term_no}
                sx={isCurrent(term, lifecycle, i, terms) ? { bgcolor: "action.hover" } : undefined}
              >
                <TableRow>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {term.term_no}
                    {isCurrent(term, lifecycle, i, terms) ? current : null}
                  </TableCell>
                  {numberLabel ? (
                    <TableCell sx={{ whiteSpace: "nowrap" }}>{term.permit_number}</TableCell>
                  ) : null}
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.issue_date)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.expiration_date)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.ended_on)}</TableCell>
                  <TableCell>
                    <HowCell term={term} currency={currency} />
                  </TableCell>
                </TableRow>
                {term.extensions.length ? (
                  <TableRow>
                    <TableCell />
                    <TableCell colSpan={numberLabel ? 5 : 4} sx={{ pt: 0 }}>
                      <Extensions term={term} />
                    </TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            ))}
          </Table>
        </TableContainer>
      )}
    </DetailCard>
  );
}
