import Box from "@mui/material/Box";
import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { CATEGORY_INFO } from "../categories.ts";

/** 'Permits by Status' (350 x 220, spec section 9); loaded on demand with recharts. */
export default function StatusPie({ categories }: { categories: ProjectDashboard["categories"] }) {
  const data = categories.filter((c) => c.count > 0);
  const summary = categories.map((c) => `${c.category} ${c.count}`).join(", ");
  return (
    <Box
      role="img"
      aria-label={`Permits by Status: ${summary}`}
      sx={{ width: "100%", maxWidth: 350, height: 220 }}
    >
      <ResponsiveContainer width="100%" height={220}>
        <PieChart>
          <Pie
            data={data}
            dataKey="count"
            nameKey="category"
            innerRadius={45}
            outerRadius={75}
            paddingAngle={data.length > 1 ? 2 : 0}
            isAnimationActive={false}
            label={({ value }) => String(value)}
          >
            {data.map((entry) => (
              <Cell key={entry.category} fill={CATEGORY_INFO[entry.category].color} />
            ))}
          </Pie>
          <Tooltip />
          <Legend verticalAlign="bottom" height={28} />
        </PieChart>
      </ResponsiveContainer>
    </Box>
  );
}
