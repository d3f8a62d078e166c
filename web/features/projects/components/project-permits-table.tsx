import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { DashboardPermit } from "../../../../shared/schemas/projects.ts";
import { paths } from "../../../lib/paths.ts";
import { formatDayOrDash } from "../../../lib/format.ts";
import { RecordCard, RecordCards, useIsPhone } from "../../../components/record-cards.tsx";
import { StatusChip } from "../../../components/status-chip.tsx";

const URGENCY_COLOR = { expired: "error.main", expiring: "warning.dark" } as const;

function ExpirationDate({ permit }: { permit: DashboardPermit }) {
  const isNa = permit.status === "N/A";
  return (
    <Box
      component="span"
      sx={
        permit.urgency && !isNa
          ? { color: URGENCY_COLOR[permit.urgency], fontWeight: 600, whiteSpace: "nowrap" }
          : { whiteSpace: "nowrap" }
      }
    >
      {formatDayOrDash(permit.expiration_date)}
    </Box>
  );
}

function DetailsLink({ permit, isBlock = false }: { permit: DashboardPermit; isBlock?: boolean }) {
  return (
    <Link
      component={RouterLink}
      to={paths.permit(permit.id)}
      aria-label={`Details of ${permit.permit_name}`}
      sx={isBlock ? { display: "inline-flex", alignItems: "center", minHeight: 44, px: 1 } : undefined}
    >
      Details
    </Link>
  );
}

/** The project's permits on a phone: one card each, every column of the table labelled. */
function ProjectPermitCards({ permits }: { permits: DashboardPermit[] }) {
  return (
    <RecordCards label="Project permits">
      {permits.map((permit) => (
        <RecordCard
          key={permit.id}
          isMuted={permit.status === "N/A"}
          title={permit.permit_name}
          subtitle={permit.permit_number}
          fields={[
            { label: "Agency", value: permit.agency || "—" },
            { label: "Application Date", value: formatDayOrDash(permit.permit_application_date) },
            { label: "Expiration Date", value: <ExpirationDate permit={permit} /> },
            { label: "Status", value: <StatusChip status={permit.display_status} /> },
          ]}
          actions={<DetailsLink permit={permit} isBlock />}
        />
      ))}
    </RecordCards>
  );
}

/** The project's permits; N/A ones come last (the server's order) and are greyed. */
export function ProjectPermitsTable({ permits }: { permits: DashboardPermit[] }) {
  const isPhone = useIsPhone();
  if (!permits.length) {
    return (
      <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
        <Typography color="text.secondary">No permits in this project yet.</Typography>
      </Paper>
    );
  }
  if (isPhone) return <ProjectPermitCards permits={permits} />;
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
              // Greyed, yet readable (4.5:1): the secondary text colour, not the disabled one.
              <TableRow key={permit.id} hover sx={isNa ? { "& td": { color: "text.secondary" } } : undefined}>
                <TableCell sx={{ fontWeight: isNa ? undefined : 500 }}>
                  {permit.permit_name}
                  <Typography variant="caption" component="div" color="text.secondary">
                    {permit.permit_number}
                  </Typography>
                </TableCell>
                <TableCell>{permit.agency || "—"}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {formatDayOrDash(permit.permit_application_date)}
                </TableCell>
                <TableCell>
                  <ExpirationDate permit={permit} />
                </TableCell>
                <TableCell>
                  <StatusChip status={permit.display_status} />
                </TableCell>
                <TableCell>
                  <DetailsLink permit={permit} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
