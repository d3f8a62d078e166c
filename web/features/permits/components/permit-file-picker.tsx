import { useRef } from "react";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";

/**
 * Permit File Upload: picks the file the form uploads once the permit is saved (spec deviation 3:
 * it really uploads). `replaces` says that, on edit, it archives the current attachment.
 */
export function PermitFilePicker({
  file,
  onChange,
  replaces,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  replaces: boolean;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="permit-file-heading"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id="permit-file-heading" variant="h2" sx={{ fontSize: "1.15rem", mb: 1 }}>
        Permit File Upload
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The file is attached to the permit when you save
        {replaces ? "; it replaces the current attachment" : ""}.
      </Typography>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <Button variant="outlined" component="label" startIcon={<AttachFile />}>
          Choose File
          <input
            ref={fileInput}
            type="file"
            hidden
            aria-label="Permit file"
            onChange={(e) => onChange(e.target.files?.[0] ?? null)}
          />
        </Button>
        {file ? (
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
            <Typography variant="body2" noWrap sx={{ maxWidth: 320 }}>
              {file.name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              ({Math.max(1, Math.round(file.size / 1024))} KB)
            </Typography>
            <IconButton
              size="small"
              aria-label="Remove the chosen file"
              onClick={() => {
                onChange(null);
                if (fileInput.current) fileInput.current.value = "";
              }}
            >
              <Close fontSize="small" />
            </IconButton>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No file chosen
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
