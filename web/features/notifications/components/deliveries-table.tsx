import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Theme } from "@mui/material/styles";
import {
  DELIVERY_STATUS_LABELS,
  deliveryLabel,
  type CompanyDelivery,
  type DeliveryStatus,
} from "../../../../shared/schemas/reminders.ts";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatDayOrDash, formatMoment } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { useRecentDeliveries } from "../api/deliveries.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

const STATUS_COLORS: Record<DeliveryStatus, "success" | "error" | "warning" | "default" | "info"> = {
  sent: "success",
  failed: "error",
  pending: "warning",
  sending: "info",
  cancelled: "default",
};

const thresholdText = (d: CompanyDelivery) =>
  d.kind === "reminder" ? `${d.threshold} ${d.threshold === 1 ? "day" : "days"}` : deliveryLabel(d);
const errorText = (d: CompanyDelivery) =>
  `${d.lastError ?? "—"}${d.status === "pending" && d.attempts > 0 ? ` (retrying, try ${d.attempts + 1})` : ""}`;

function StatusChip({ status }: { status: DeliveryStatus }) {
  return <Chip size="small" color={STATUS_COLORS[status]} label={DELIVERY_STATUS_LABELS[status]} />;
}

function PermitLink({ d }: { d: CompanyDelivery }) {
  // An overdue (or overdue-request) digest lists the company's overdue permits (requests) of its day; it names none by itself.
  if (!d.permit) {
    return (
      <>
        <Typography variant="body2">
          {d.kind === "overdue_request" ? "Overdue requests" : "Overdue permits"}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          as of {formatDayOrDash(d.dueDate)}
        </Typography>
      </>
    );
  }
  return (
    <>
      <Link component={RouterLink} to={paths.permit(d.permit.id)}>
        {d.permit.name}
      </Link>
      <Typography variant="body2" color="text.secondary">
        {d.permit.number} · {d.task ? "task due" : "expires"} {formatDayOrDash(d.expirationDate)}
      </Typography>
    </>
  );
}

/** The company's recent reminder deliveries: what went out, when, to whom, and what failed. */
export function DeliveriesTable({ companyId }: { companyId: string }) {
  const deliveries = useRecentDeliveries(companyId);
  const isNarrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("md"));
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(10);
  const rows = deliveries.data?.slice(page * rowsPerPage, (page + 1) * rowsPerPage) ?? [];

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        Recent deliveries
      </Typography>
      {deliveries.isPending ? (
        <PageSpinner label="Loading deliveries..." />
      ) : deliveries.isError ? (
        <Alert severity="error">{errorMessage(deliveries.error)}</Alert>
      ) : deliveries.data.length === 0 ? (
        <Typography color="text.secondary">{EMPTY_STATES.deliveries.none}</Typography>
      ) : (
        <>
          {isNarrow ? (
            <Box component="ul" aria-label="Recent deliveries" sx={{ listStyle: "none", p: 0, m: 0 }}>
              {rows.map((d) => (
                <Box component="li" key={d.id} sx={{ py: 1.5, borderBottom: 1, borderColor: "divider" }}>
                  <Box
                    sx={{
                      display: "flex",
                      justifyContent: "space-between",
                      gap: 1,
                      alignItems: "flex-start",
                    }}
                  >
                    <Box sx={{ minWidth: 0 }}>
                      <PermitLink d={d} />
                    </Box>
                    <StatusChip status={d.status} />
                  </Box>
                  <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: "anywhere" }}>
                    {d.kind === "reminder" ? `${thresholdText(d)} reminder` : deliveryLabel(d)} to{" "}
                    {d.recipientEmail}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {formatMoment(d.sentAt ?? d.createdAt)}
                  </Typography>
                  {d.lastError ? (
                    <Typography variant="body2" color={d.status === "failed" ? "error" : "text.secondary"}>
                      {errorText(d)}
                    </Typography>
                  ) : null}
                </Box>
              ))}
            </Box>
          ) : (
            <TableContainer>
              <Table size="small" aria-label="Recent deliveries">
                <TableHead>
                  <TableRow>
                    <TableCell>When</TableCell>
                    <TableCell>Permit</TableCell>
                    <TableCell>Threshold</TableCell>
                    <TableCell>Recipient</TableCell>
                    <TableCell>Status</TableCell>
                    <TableCell>Error</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((d) => (
                    <TableRow key={d.id}>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>
                        {formatMoment(d.sentAt ?? d.createdAt)}
                      </TableCell>
                      <TableCell>
                        <PermitLink d={d} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{thresholdText(d)}</TableCell>
                      <TableCell sx={{ overflowWrap: "anywhere" }}>{d.recipientEmail}</TableCell>
                      <TableCell>
                        <StatusChip status={d.status} />
                      </TableCell>
                      <TableCell
                        sx={{ color: d.status === "failed" ? "error.main" : "text.secondary", maxWidth: 280 }}
                      >
                        {errorText(d)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <TablePagination
            component="div"
            count={deliveries.data.length}
            page={page}
            onPageChange={(_e, next) => setPage(next)}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={[10, 25, 50, 100]}
            onRowsPerPageChange={(e) => {
              setRowsPerPage(Number(e.target.value));
              setPage(0);
            }}
            labelRowsPerPage={isNarrow ? "Rows" : "Rows per page"}
          />
        </>
      )}
    </Paper>
  );
}
