import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { LIST_CATEGORY_COLORS } from "../../../../shared/domain/permit-rules.ts";
import type { PermitSummary } from "../../../../shared/schemas/permits.ts";

function ChartCard({
  title,
  children,
  height,
}: {
  title: string;
  children: React.ReactElement;
  height: number;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h3" component="h3" sx={{ fontSize: "1.05rem", mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ width: "100%", height }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </Box>
    </Paper>
  );
}

/**
 * The Analytics Dashboard's two charts (spec section 2: pie 550x300, bar 600x379). Loaded on
 * demand with recharts, which is most of the page's JavaScript.
 */
export default function PermitCharts({ summary }: { summary: PermitSummary }) {
  const theme = useTheme();
  const statusData = summary.by_status.filter((s) => s.count > 0);
  const agencyData =
    summary.other_agencies > 0
      ? [...summary.by_agency, { agency: "Other", count: summary.other_agencies }]
      : summary.by_agency;
  const axis = { fill: theme.palette.text.secondary, fontSize: 12 };
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", lg: "minmax(0, 550fr) minmax(0, 600fr)" },
        alignItems: "start",
        gap: 2,
      }}
    >
      <ChartCard title="Permits by Status" height={300}>
        {statusData.length ? (
          <PieChart>
            <Pie
              data={statusData}
              dataKey="count"
              nameKey="category"
              outerRadius="72%"
              // Counts and legend in the text colour: the amber slice's own colour is unreadable as text.
              label={{ fill: theme.palette.text.primary, fontSize: 13 }}
              isAnimationActive={false}
            >
              {statusData.map((s) => (
                <Cell key={s.category} fill={LIST_CATEGORY_COLORS[s.category]} />
              ))}
            </Pie>
            <Tooltip />
            <Legend
              formatter={(value: string) => (
                <span style={{ color: theme.palette.text.primary }}>{value}</span>
              )}
            />
          </PieChart>
        ) : (
          <EmptyChart />
        )}
      </ChartCard>
      <ChartCard title="Permits by Agency" height={379}>
        {agencyData.length ? (
          <BarChart data={agencyData} layout="vertical" margin={{ left: 8, right: 16 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke={theme.palette.divider} />
            <XAxis type="number" allowDecimals={false} tick={axis} />
            <YAxis type="category" dataKey="agency" width={150} tick={axis} interval={0} />
            <Tooltip cursor={{ fill: theme.palette.action.hover }} />
            <Bar dataKey="count" name="Permits" fill={theme.palette.primary.main} isAnimationActive={false} />
          </BarChart>
        ) : (
          <EmptyChart />
        )}
      </ChartCard>
    </Box>
  );
}

function EmptyChart() {
  return (
    <Box sx={{ height: "100%", display: "grid", placeItems: "center", color: "text.secondary" }}>
      <Typography variant="body2">No permits to chart.</Typography>
    </Box>
  );
}
