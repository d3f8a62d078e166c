import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlineOutlined";
import { visuallyHidden } from "@mui/utils";
import { lighten, type Theme } from "@mui/material/styles";
import type { SystemStyleObject } from "@mui/system";
import type { PermitListItem } from "../../../../shared/schemas/permits.ts";
import { formatDay, formatDayOf } from "../../../lib/format.ts";

/**
 * The All Permits list's lifecycle cells (issue 11): Renew By and Responsible, with a small marker
 * when the current term is acknowledged. Plain elements styled by their container
 * (lifecyclePartsSx), like the list's other row parts: a page renders 50 rows.
 */

/** "Acknowledged by Sam Baker on Nov 22, 2026": the same words in the list and on the permit's page. */
export const acknowledgedLabel = (a: { by: string; at: string }) =>
  `Acknowledged by ${a.by} on ${formatDayOf(a.at)}`;

/**
 * The renew-by date, or a dash without a lead time; once passed (on a permit not closed) it reads
 * as overdue, as the list's overdue expiration dates do: bold, in the error colour, and the word
 * for a screen reader (issue 25: it was plain text).
 */
export function RenewByText({ permit }: { permit: PermitListItem }) {
  const day = formatDay(permit.renew_by_date);
  if (!day) return <>—</>;
  if (!permit.renew_by_overdue) return <>{day}</>;
  return (
    <span className="permit-renew-overdue" title="Renew-by date passed">
      {day}
      <span style={visuallyHidden}> (overdue)</span>
    </span>
  );
}

/** A phone card's acknowledgement: the check and its words, which a card has room for. */
export function AcknowledgedLine({
  acknowledged,
}: {
  acknowledged: NonNullable<PermitListItem["acknowledged"]>;
}) {
  return (
    <span className="permit-ack-line">
      <CheckCircleOutlined sx={{ fontSize: 16 }} aria-hidden />
      {acknowledgedLabel(acknowledged)}
    </span>
  );
}

/**
 * The responsible person's name, and the acknowledgement marker (a check with its words as title).
 * `withMarker` false: the caller shows the acknowledgement in words (a phone card).
 */
export function ResponsibleText({
  permit,
  withMarker = true,
}: {
  permit: PermitListItem;
  withMarker?: boolean;
}) {
  const ack = withMarker ? permit.acknowledged : null;
  return (
    <span className="permit-responsible">
      {permit.responsible?.name ?? (ack ? null : "—")}
      {ack ? (
        <span
          className="permit-ack"
          role="img"
          aria-label={acknowledgedLabel(ack)}
          title={acknowledgedLabel(ack)}
        >
          <CheckCircleOutlined sx={{ fontSize: 16 }} />
        </span>
      ) : null}
    </span>
  );
}

export const lifecyclePartsSx = (theme: Theme): SystemStyleObject<Theme> => ({
  "& .permit-responsible": { display: "inline-flex", alignItems: "center", gap: "4px" },
  "& .permit-renew-overdue": {
    fontWeight: 600,
    whiteSpace: "nowrap",
    // 4.5:1 on an expired row's red too, in either theme.
    color:
      theme.palette.mode === "dark" ? lighten(theme.palette.error.light, 0.35) : theme.palette.error.dark,
  },
  "& .permit-ack-line": {
    display: "flex",
    alignItems: "center",
    gap: "6px",
    fontSize: "0.8125rem",
    "& svg": {
      color: theme.palette.mode === "dark" ? theme.palette.success.light : theme.palette.success.dark,
    },
  },
  "& .permit-ack": {
    display: "inline-flex",
    color: theme.palette.mode === "dark" ? theme.palette.success.light : theme.palette.success.dark,
  },
});
