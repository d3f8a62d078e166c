import { useRef, useState, type DragEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../../../lib/api.ts";
import { formatBytes } from "../../../lib/format.ts";
import { useUploadLinkFile } from "../api/request-link.ts";
import type { RequestLink } from "../api/types.ts";

/** The files sent so far, each with its size. */
export function SentFiles({ files }: { files: RequestLink["files"] }) {
  if (!files.length) return null;
  return (
    <Box
      component="ul"
      aria-label="Files sent"
      sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 0.75 }}
    >
      {files.map((file) => (
        <Box
          component="li"
          key={file.id}
          sx={{
            display: "flex",
            alignItems: "center",
            gap: 1,
            px: 1.5,
            py: 1,
            borderRadius: 1.5,
            border: 1,
            borderColor: "divider",
            minWidth: 0,
          }}
        >
          <Box aria-hidden sx={{ color: "success.main", fontWeight: 700 }}>
            ✓
          </Box>
          <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: "anywhere" }}>
            {file.filename}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
            {formatBytes(file.size)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The file picker: a drop zone on a desktop (drop a file on it, or press its button), the phone's
 * own file input behind the same button. Each file is uploaded when chosen and listed once stored,
 * so nothing is lost if the page is left before 'Submit'.
 */
export function LinkFilePicker({
  token,
  files,
  label,
}: {
  token: string;
  files: RequestLink["files"];
  label: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState(0);
  const [isOver, setIsOver] = useState(false);
  const [current, setCurrent] = useState<string | null>(null);
  const upload = useUploadLinkFile(token, setProgress);
  const send = async (chosen: File[]) => {
    for (const file of chosen) {
      setProgress(0);
      setCurrent(file.name);
      try {
        await upload.mutateAsync(file);
      } catch {
        break; // its message is shown below
      } finally {
        setCurrent(null);
      }
    }
    if (input.current) input.current.value = "";
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsOver(false);
    if (!upload.isPending) void send([...event.dataTransfer.files]);
  };
  return (
    <Box sx={{ display: "grid", gap: 1.25 }}>
      <SentFiles files={files} />
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
        sx={{
          display: "flex",
          flexDirection: { xs: "column", sm: "row" },
          alignItems: { xs: "stretch", sm: "center" },
          gap: 1.5,
          p: { xs: 0, sm: 2.5 },
          borderRadius: 2,
          borderWidth: { xs: 0, sm: 2 },
          borderStyle: "dashed",
          borderColor: isOver ? "primary.main" : "divider",
          bgcolor: isOver ? "action.hover" : undefined,
        }}
      >
        <Button
          variant={files.length ? "outlined" : "contained"}
          component="label"
          size="large"
          disabled={upload.isPending}
          sx={{ flexShrink: 0 }}
        >
          {files.length ? "Add Another File" : "Choose File"}
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label={label}
            onChange={(event) => void send([...(event.target.files ?? [])])}
          />
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ display: { xs: "none", sm: "block" } }}>
          or drag and drop it here. PDF or a photo of the document.
        </Typography>
      </Box>
      {current ? (
        <Typography variant="body2" role="status" color="text.secondary">
          Uploading {current}... {Math.round(progress * 100)}%
        </Typography>
      ) : null}
      {upload.isError ? (
        <Alert severity="error">The file could not be uploaded: {errorMessage(upload.error)}</Alert>
      ) : null}
    </Box>
  );
}
