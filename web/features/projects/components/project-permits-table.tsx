import { Link as RouterLink } from "react-router";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { statusChipColor } from "../../../../shared/domain/permit-rules.ts";
import type { DashboardPermit } from "../../../../shared/schemas/projects.ts";
import { paths } from "../../../lib/paths.ts";
import { formatDate } from "../format.ts";

const URGENCY_COLOR = { expired: "error.main", expiring: "warning.dark" } as const;

/** The project's permits; N/A ones come last (the server's order) and are greyed. */
export function ProjectPermitsTable({ permits }: { permits: DashboardPermit[] }) {
  if (!permits.length) {
    return (
      <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
        <Typography color="text.secondary">No permits in this project yet.</Typography>
      </Paper>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Project permits">
        <TableHead>
          <TableRow>
            <TableCell>Permit Name</TableCell>
            <TableCell>Agency</TableCell>
            <TableCell>Application Date</TableCell>
            <TableCell>Expiration Date</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Details</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {permits.map((permit) => {
            const isNa = permit.status === "N/A";
            return (
              <TableRow key={permit.id} hover sx={isNa ? { "& td": { color: "text.disabled" } } : undefined}>
                <TableCell sx={{ fontWeight: isNa ? undefined : 500 }}>
                  {permit.permit_name}
                  <Typography
                    variant="caption"
                    component="div"
                    color={isNa ? "text.disabled" : "text.secondary"}
                  >
                    {permit.permit_number}
                  </Typography>
                </TableCell>
                <TableCell>{permit.agency || "—"}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {formatDate(permit.permit_application_date)}
                </TableCell>
                <TableCell
                  sx={{
                    whiteSpace: "nowrap",
                    ...(permit.urgency && !isNa
                      ? { color: URGENCY_COLOR[permit.urgency], fontWeight: 600 }
                      : {}),
                  }}
                >
                  {formatDate(permit.expiration_date)}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant={isNa ? "outlined" : "filled"}
                    color={isNa ? "default" : statusChipColor(permit.display_status)}
                    label={permit.display_status}
                  />
                </TableCell>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={paths.permit(permit.id)}
                    aria-label={`Details of ${permit.permit_name}`}
                  >
                    Details
                  </Link>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
