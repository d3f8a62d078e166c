import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import CopyIcon from "@mui/icons-material/ContentCopyOutlined";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import { PRODUCT_NAME } from "../../../../shared/domain/constants.ts";
import { useNotify } from "../../../lib/notify.ts";

/**
 * Recovery codes, shown once (after the set-up and after a renewal): each signs in once without the
 * phone. Copy and download so that they end up somewhere safe; `onDone` closes them for good.
 */
export function RecoveryCodes({
  codes,
  email,
  doneLabel = "Done",
  onDone,
}: {
  codes: string[];
  email: string;
  doneLabel?: string;
  onDone: () => void;
}) {
  const notify = useNotify();
  const text = [
    `${PRODUCT_NAME} recovery codes for ${email}`,
    "Each code signs you in once if you cannot use your authenticator app.",
    "",
    ...codes,
    "",
  ].join("\n");

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify("Recovery codes copied.", "success");
    } catch {
      notify("Copying is not allowed here. Download the codes instead.", "warning");
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${PRODUCT_NAME.toLowerCase()}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Box component="section" aria-labelledby="recovery-codes-title">
      <Typography id="recovery-codes-title" variant="h3" component="h3" sx={{ fontSize: "1.05rem", mb: 1 }}>
        Recovery codes
      </Typography>
      <Alert severity="warning" sx={{ mb: 2 }}>
        Save these codes now: they are shown only once. Each one signs you in once if your phone is lost.
      </Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        sx={{
          listStyle: "none",
          m: 0,
          p: 2,
          display: "grid",
          gridTemplateColumns: { xs: "1fr 1fr", sm: "repeat(2, max-content)" },
          columnGap: 4,
          rowGap: 1,
          justifyContent: "center",
          bgcolor: "action.hover",
          borderRadius: 1,
          fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
          fontSize: "1rem",
          letterSpacing: "0.04em",
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 2 }}>
        <Button variant="outlined" startIcon={<CopyIcon />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
          Download
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" onClick={onDone}>
          {doneLabel}
        </Button>
      </Box>
    </Box>
  );
}
