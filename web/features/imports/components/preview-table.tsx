import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";

/** The file's first rows under its own header, as read by the server. */
export function PreviewTable({ columns, rows }: { columns: string[]; rows: string[][] }) {
  return (
    // It scrolls both ways (16 columns): focusable, so a keyboard can scroll it too (WCAG 2.1.1).
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label="File preview"
      sx={{ maxHeight: 420, border: 1, borderColor: "divider", borderRadius: 1 }}
    >
      <Table size="small" stickyHeader aria-label="Preview of the first rows">
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 700, color: "text.secondary" }}>Row</TableCell>
            {columns.map((c, i) => (
              <TableCell key={`${c}-${i}`} sx={{ fontWeight: 700, whiteSpace: "nowrap" }}>
                {c}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, r) => (
            <TableRow key={r} hover>
              <TableCell sx={{ color: "text.secondary" }}>{r + 2}</TableCell>
              {row.map((value, c) => (
                <TableCell
                  key={c}
                  sx={{ whiteSpace: "nowrap", maxWidth: 240, overflow: "hidden", textOverflow: "ellipsis" }}
                  title={value}
                >
                  {value}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
