import { Link as RouterLink } from "react-router";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { RequestQueueItem } from "../../../../shared/schemas/request-queue.ts";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { formatDayOf, formatDayOrDash } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { RequestStateChip } from "./request-item.tsx";

const itemWord = (r: RequestQueueItem) => (r.itemKind === "bond" ? "Bond" : "Permit");

/** The permit's or bond's page; on a phone a 44 px target. */
function ItemLink({ r, isPhone = false }: { r: RequestQueueItem; isPhone?: boolean }) {
  return (
    <Link
      component={RouterLink}
      to={paths.permit(r.permitId)}
      underline="hover"
      sx={{
        fontWeight: 500,
        ...(isPhone ? { display: "inline-flex", alignItems: "center", minHeight: 44 } : {}),
      }}
    >
      {r.itemName}
    </Link>
  );
}

function Party({ r }: { r: RequestQueueItem }) {
  return (
    <>
      {r.partyName}
      {r.partyOrganization ? (
        <Typography component="span" variant="caption" sx={{ display: "block", color: "text.secondary" }}>
          {r.partyOrganization}
        </Typography>
      ) : null}
    </>
  );
}

function Due({ r }: { r: RequestQueueItem }) {
  return (
    <Typography
      component="span"
      variant="body2"
      sx={r.overdue ? { color: "error.main", fontWeight: 650 } : undefined}
    >
      {formatDayOrDash(r.dueDate)}
      {r.overdue ? " (overdue)" : ""}
    </Typography>
  );
}

/**
 * The Requests page's rows (issue 27): Document, Permit/Bond (a link to its page), Party (name,
 * organization), State, Sent, Due (overdue in red), Submitted, and the Company for a super-admin
 * who sees every company's. Cards on a phone.
 */
export function RequestQueueTable({
  items,
  showCompany,
}: {
  items: RequestQueueItem[];
  showCompany: boolean;
}) {
  const isPhone = useIsPhone();
  if (isPhone) {
    return (
      <RecordCards label="Requests">
        {items.map((r) => {
          const fields: RecordField[] = [
            ...(showCompany ? [{ label: "Company", value: r.companyName }] : []),
            { label: "State", value: <RequestStateChip request={r} /> },
            { label: itemWord(r), value: <ItemLink r={r} isPhone /> },
            { label: "Party", value: <Party r={r} /> },
            { label: "Sent", value: formatDayOf(r.createdAt) },
            { label: "Due", value: <Due r={r} /> },
            { label: "Submitted", value: r.submittedAt ? formatDayOf(r.submittedAt) : "—" },
          ];
          return <RecordCard key={r.id} title={r.documentLabel} fields={fields} />;
        })}
      </RecordCards>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Requests" sx={{ "& th": { whiteSpace: "nowrap" } }}>
        <TableHead>
          <TableRow>
            <TableCell>Document</TableCell>
            <TableCell>Permit/Bond</TableCell>
            {showCompany ? <TableCell>Company</TableCell> : null}
            <TableCell>Party</TableCell>
            <TableCell>State</TableCell>
            <TableCell>Sent</TableCell>
            <TableCell>Due</TableCell>
            <TableCell>Submitted</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((r) => (
            <TableRow key={r.id} hover>
              <TableCell sx={{ fontWeight: 500, overflowWrap: "anywhere", minWidth: 140 }}>
                {r.documentLabel}
              </TableCell>
              <TableCell sx={{ overflowWrap: "anywhere", minWidth: 160 }}>
                <ItemLink r={r} />
                <Typography
                  component="span"
                  variant="caption"
                  sx={{ display: "block", color: "text.secondary" }}
                >
                  {itemWord(r)} {r.itemNumber}
                </Typography>
              </TableCell>
              {showCompany ? <TableCell>{r.companyName}</TableCell> : null}
              <TableCell sx={{ overflowWrap: "anywhere", minWidth: 140 }}>
                <Party r={r} />
              </TableCell>
              <TableCell>
                <RequestStateChip request={r} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOf(r.createdAt)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <Due r={r} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {r.submittedAt ? formatDayOf(r.submittedAt) : "—"}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
