import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { CATEGORY_INFO } from "../categories.ts";

/** 'Permits by Status' (350 x 220, spec section 9); loaded on demand with recharts. */
export default function StatusPie({ categories }: { categories: ProjectDashboard["categories"] }) {
  const theme = useTheme();
  const data = categories.filter((c) => c.count > 0);
  const summary = categories.map((c) => `${c.category} ${c.count}`).join(", ");
  return (
    <Box
      role="img"
      aria-label={`Permits by Status: ${summary}`}
      sx={{ width: "100%", maxWidth: 350, height: 220 }}
    >
      <ResponsiveContainer width="100%" height={220}>
        {/* Room around the ring for the counts beside it, which would otherwise be cut at the edge. */}
        <PieChart margin={{ top: 12, right: 28, bottom: 4, left: 28 }}>
          <Pie
            data={data}
            dataKey="count"
            nameKey="category"
            innerRadius={42}
            outerRadius={68}
            paddingAngle={data.length > 1 ? 2 : 0}
            isAnimationActive={false}
            // Counts and legend in the text colour: amber or green on white would be unreadable.
            label={{ fill: theme.palette.text.primary, fontSize: 13 }}
          >
            {data.map((entry) => (
              <Cell key={entry.category} fill={CATEGORY_INFO[entry.category].color} />
            ))}
          </Pie>
          <Tooltip />
          <Legend
            verticalAlign="bottom"
            height={28}
            formatter={(value: string) => <span style={{ color: theme.palette.text.primary }}>{value}</span>}
          />
        </PieChart>
      </ResponsiveContainer>
    </Box>
  );
}
