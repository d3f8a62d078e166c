import { useRef, useState, type ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import { full } from "./step-dialog.tsx";

/**
 * Sends one file and answers what it became (the permit's attachment), reporting the upload's
 * progress from 0 to 1. The attachments feature makes it; the kit only calls it.
 */
export type UploadFile = (file: File, onProgress: (fraction: number) => void) => Promise<{ id: string }>;

/**
 * The file chosen in a form and its upload. `upload()` sends it once and answers its id (null
 * without a file): a retry after a refused save sends the same upload again rather than the file a
 * second time.
 */
export function useDocument(upload: UploadFile) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [isUploading, setIsUploading] = useState(false);
  const uploaded = useRef<{ file: File; id: string } | null>(null);
  return {
    file,
    setFile,
    progress,
    isUploading,
    upload: async (): Promise<string | null> => {
      if (!file) return null;
      if (uploaded.current?.file === file) return uploaded.current.id;
      setProgress(0);
      setIsUploading(true);
      try {
        const { id } = await upload(file, setProgress);
        uploaded.current = { file, id };
        return id;
      } finally {
        setIsUploading(false);
      }
    },
    reset: () => {
      setFile(null);
      uploaded.current = null;
    },
  };
}

export type DocumentState = ReturnType<typeof useDocument>;

/**
 * A file input as a button ('Attach File', 'Choose File'), the chosen file's name with a button
 * that removes it, or what the file is for.
 */
export function FileChooser({
  file,
  onChange,
  label,
  buttonLabel = "Attach File",
  hint,
  disabled = false,
  showSize = false,
  nameWidth = 260,
  accept,
  capture,
  icon = <AttachFile />,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  /** The input's accessible name: "Rider document", "Permit file". */
  label: string;
  buttonLabel?: string;
  hint: string;
  disabled?: boolean;
  /** The chosen file's size after its name, "(12 KB)". */
  showSize?: boolean;
  nameWidth?: number;
  /** The types the picker offers ("image/*" for a photo). */
  accept?: string;
  /** A phone opens its camera ("environment": the back one) rather than its files. */
  capture?: "environment" | "user";
  icon?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant="outlined" component="label" startIcon={icon} disabled={disabled}>
        {buttonLabel}
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          capture={capture}
          aria-label={label}
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        />
      </Button>
      {file ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
          <Typography variant="body2" noWrap sx={{ maxWidth: nameWidth }}>
            {file.name}
          </Typography>
          {showSize ? (
            <Typography variant="body2" color="text.secondary">
              ({Math.max(1, Math.round(file.size / 1024))} KB)
            </Typography>
          ) : null}
          <IconButton
            size="small"
            aria-label="Remove the chosen file"
            disabled={disabled}
            onClick={() => {
              onChange(null);
              if (input.current) input.current.value = "";
            }}
          >
            <Close fontSize="small" />
          </IconButton>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
    </>
  );
}

/** A step dialog's document ('Attach File'), across both columns, with the upload's progress. */
export function DocumentPicker({
  document,
  label,
  hint,
  disabled,
}: {
  document: DocumentState;
  /** The input's accessible name: "Rider document", "Release letter". */
  label: string;
  hint: string;
  disabled: boolean;
}) {
  return (
    <Box sx={{ ...full, display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
      <FileChooser
        file={document.file}
        onChange={document.setFile}
        label={label}
        hint={hint}
        disabled={disabled}
      />
      {document.isUploading ? (
        <Typography variant="body2" color="text.secondary" role="status" sx={full}>
          Uploading the file... {Math.round(document.progress * 100)}%
        </Typography>
      ) : null}
    </Box>
  );
}
