import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { FileChooser } from "../../../components/dialog-kit/index.ts";

/**
 * Permit File Upload: picks the file the form uploads once the permit is saved (spec deviation 3:
 * it really uploads). `replaces` says that, on edit, it archives the current attachment.
 */
export function PermitFilePicker({
  file,
  onChange,
  replaces,
  children,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  replaces: boolean;
  /** Below the chooser: the chosen file's suggested values (issue 28). */
  children?: ReactNode;
}) {
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
        {replaces ? "; it replaces the current attachment" : ""}. A PDF or image is read at once for values to
        fill in.
      </Typography>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <FileChooser
          file={file}
          onChange={onChange}
          label="Permit file"
          buttonLabel="Choose File"
          hint="No file chosen"
          showSize
          nameWidth={320}
        />
      </Box>
      {children ? <Box sx={{ mt: 2, "&:empty": { display: "none" } }}>{children}</Box> : null}
    </Paper>
  );
}
