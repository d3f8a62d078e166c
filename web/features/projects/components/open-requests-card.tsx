import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { formatDayOrDash } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { RequestStateChip } from "../../document-requests/index.ts";

/**
 * 'Open Requests' (issue 27): the documents asked of outside parties for the project's permits and
 * bonds that are still open or await review: document, item (a link to its page), party (staff),
 * state and due date (overdue in red). Nothing shows when there are none.
 */
export function OpenRequestsCard({ dashboard }: { dashboard: ProjectDashboard }) {
  const requests = dashboard.open_requests;
  if (!requests.length) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="open-requests-title" sx={{ mb: 3 }}>
      <CardContent>
        <Typography id="open-requests-title" variant="h3" component="h2" sx={{ mb: 1.5 }}>
          Open Requests
        </Typography>
        <Box component="ul" sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1 }}>
          {requests.map((r) => (
            <Box
              component="li"
              key={r.id}
              sx={{
                display: "grid",
                gridTemplateColumns: { xs: "1fr auto", md: "2fr 2fr 2fr auto 1fr" },
                alignItems: "center",
                columnGap: 2,
                rowGap: 0.5,
                py: 1,
                borderTop: 1,
                borderColor: "divider",
                "&:first-of-type": { borderTop: 0, pt: 0 },
              }}
            >
              <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>{r.document_label}</Typography>
              <Box sx={{ gridColumn: { xs: 2, md: 4 }, gridRow: { xs: 1, md: "auto" } }}>
                <RequestStateChip request={{ state: r.state, stateLabel: r.state_label }} />
              </Box>
              <Link
                component={RouterLink}
                to={paths.permit(r.permit_id)}
                underline="hover"
                sx={{ overflowWrap: "anywhere", gridColumn: { xs: "1 / -1", md: 2 }, gridRow: { md: 1 } }}
              >
                {r.item_name}
              </Link>
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ overflowWrap: "anywhere", gridColumn: { xs: "1 / -1", md: 3 }, gridRow: { md: 1 } }}
              >
                {r.party_name ?? "Outside party"}
              </Typography>
              <Typography
                variant="body2"
                sx={{
                  gridColumn: { xs: "1 / -1", md: 5 },
                  gridRow: { md: 1 },
                  ...(r.overdue ? { color: "error.main", fontWeight: 650 } : {}),
                }}
              >
                {r.due_date
                  ? `Due ${formatDayOrDash(r.due_date)}${r.overdue ? " (overdue)" : ""}`
                  : "No due date"}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
