import Chip from "@mui/material/Chip";
import LockOutlined from "@mui/icons-material/LockOutlined";

/**
 * The mark of an internal note, fee or reason (issue 25), as an internal comment wears it: staff
 * see it beside the text; a client-user never receives the text, so never sees the mark.
 */
export function InternalChip({ of }: { of: string }) {
  return (
    <Chip
      icon={<LockOutlined />}
      label="Internal"
      size="small"
      color="warning"
      variant="outlined"
      title={`Internal ${of}: your team only, never the client`}
      sx={{ height: 20, ml: 0.75, verticalAlign: "text-bottom", "& .MuiChip-label": { px: 0.75 } }}
    />
  );
}
