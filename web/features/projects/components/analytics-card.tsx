import { lazy, Suspense } from "react";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { CATEGORY_INFO } from "../categories.ts";

const StatusPie = lazy(() => import("./status-pie.tsx"));

/** 'Analytics Dashboard': the pie of the project's categories and what each one means. */
export function AnalyticsCard({ dashboard }: { dashboard: ProjectDashboard }) {
  const counted = dashboard.categories.reduce((sum, c) => sum + c.count, 0);
  return (
    <Card variant="outlined" sx={{ height: "100%" }}>
      <CardContent>
        <Typography variant="h3" component="h2" gutterBottom>
          Analytics Dashboard
        </Typography>
        <Typography variant="subtitle2" component="h3" color="text.secondary">
          Permits by Status
        </Typography>
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2, mt: 1 }}>
          {counted ? (
            <Suspense
              fallback={<Skeleton variant="circular" width={150} height={150} sx={{ m: "35px 100px" }} />}
            >
              <StatusPie categories={dashboard.categories} />
            </Suspense>
          ) : (
            <Box sx={{ width: "100%", maxWidth: 350, height: 220, display: "grid", placeItems: "center" }}>
              <Typography color="text.secondary">No permits in a category yet.</Typography>
            </Box>
          )}
          <Box sx={{ flex: "1 1 220px" }}>
            <Box component="dl" sx={{ m: 0 }}>
              {dashboard.categories.map(({ category, count }) => (
                <Box key={category} sx={{ mb: 1.5 }}>
                  <Box component="dt" sx={{ display: "flex", alignItems: "center", gap: 1, fontWeight: 600 }}>
                    <Box
                      sx={{
                        width: 12,
                        height: 12,
                        borderRadius: "50%",
                        bgcolor: CATEGORY_INFO[category].color,
                      }}
                    />
                    {category}: {count}
                  </Box>
                  <Box component="dd" sx={{ ml: 2.5, color: "text.secondary", fontSize: "0.875rem" }}>
                    {CATEGORY_INFO[category].explanation}
                  </Box>
                </Box>
              ))}
            </Box>
            {/* After the list, not in it: a <dl> holds only term and description groups. */}
            <Typography variant="caption" color="text.secondary" component="p">
              Permits neither started, applied for nor issued, and N/A permits, count in no category.
            </Typography>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
