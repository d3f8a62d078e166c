import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { SURETY_WARNING_PERCENT } from "../../../../shared/domain/bonds.ts";
import type { BySurety } from "../../../../shared/schemas/bonds.ts";
import { formatAmount, formatAmountShort } from "../../../lib/format.ts";
import { suretyLabel } from "./surety-label.ts";

/**
 * A bar per surety: its open exposure, in the warning colour over 80 % of its aggregate limit.
 * Loaded on demand (recharts); the table beside it carries the same figures for screen readers.
 */
export default function ExposureChart({ rows, currency }: { rows: BySurety[]; currency: string | null }) {
  const theme = useTheme();
  const data = rows.map((r) => ({
    name: suretyLabel(r),
    amount: Number(r.amount),
    high: r.percent_of_aggregate !== null && r.percent_of_aggregate > SURETY_WARNING_PERCENT,
  }));
  const axis = { fill: theme.palette.text.secondary, fontSize: 12 };
  const height = Math.max(160, 48 + rows.length * 40);
  return (
    <Box>
      <Typography variant="h3" sx={{ fontSize: "0.95rem", mb: 1 }}>
        Open exposure by surety
      </Typography>
      <Box sx={{ width: "100%", height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ left: 8, right: 16, top: 4, bottom: 4 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke={theme.palette.divider} />
            <XAxis
              type="number"
              tick={axis}
              tickFormatter={(v: number) => formatAmountShort(v, currency)}
              allowDecimals={false}
            />
            <YAxis type="category" dataKey="name" width={130} tick={axis} interval={0} />
            <Tooltip
              cursor={{ fill: theme.palette.action.hover }}
              formatter={(v) => [formatAmount(Number(v), currency), "Open exposure"]}
              contentStyle={{
                background: theme.palette.background.paper,
                border: `1px solid ${theme.palette.divider}`,
                color: theme.palette.text.primary,
              }}
            />
            <Bar dataKey="amount" name="Open exposure" isAnimationActive={false} maxBarSize={28}>
              {data.map((d) => (
                <Cell key={d.name} fill={d.high ? theme.palette.warning.main : theme.palette.primary.main} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </Box>
    </Box>
  );
}
