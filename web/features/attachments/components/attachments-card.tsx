import { useRef, useState, type ChangeEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Switch from "@mui/material/Switch";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import AttachFile from "@mui/icons-material/AttachFile";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import type { Attachment } from "../../../../shared/schemas/attachments.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useAttachments } from "../api/get-attachments.ts";
import { useUploadAttachment } from "../api/upload-attachment.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { formatBytes, formatMoment } from "../../../lib/format.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

function AttachmentRow({ attachment }: { attachment: Attachment }) {
  const meta = [formatBytes(attachment.size), attachment.uploadedByName, formatMoment(attachment.createdAt)]
    .filter(Boolean)
    .join(" · ");
  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1.5,
        p: 1.25,
        borderRadius: 2,
        border: 1,
        borderColor: "divider",
        bgcolor: attachment.archived ? "action.hover" : "background.paper",
      }}
    >
      <DescriptionOutlined
        sx={{ color: attachment.archived ? "text.secondary" : "primary.main" }}
        aria-hidden
      />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
          {/* Served with Content-Disposition: attachment, so the link downloads and never navigates. */}
          <Link
            href={attachment.downloadUrl}
            download
            sx={{
              fontWeight: 600,
              overflow: "hidden",
              textOverflow: "ellipsis",
              whiteSpace: "nowrap",
              minWidth: 0,
            }}
            title={attachment.filename}
          >
            {attachment.filename}
          </Link>
          {attachment.archived ? (
            <Chip label="Archived" size="small" variant="outlined" sx={{ flexShrink: 0 }} />
          ) : null}
        </Box>
        <Typography variant="caption" sx={{ color: "text.secondary", display: "block" }}>
          {meta}
        </Typography>
      </Box>
      <Tooltip title="Download">
        <IconButton
          href={attachment.downloadUrl}
          download
          aria-label={`Download ${attachment.filename}`}
          size="small"
        >
          <FileDownloadOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** Files of the permit: uploading one archives the current ones (spec section 4). */
export function AttachmentsCard({ permit }: { permit: PermitDetail }) {
  const [showArchived, setShowArchived] = useState(false);
  const [progress, setProgress] = useState(0);
  const [uploading, setUploading] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const attachments = useAttachments(permit.id, showArchived);
  const upload = useUploadAttachment(permit.id, setProgress);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ""; // choosing the same file again must fire again
    if (!file) return;
    setProgress(0);
    setUploading(file.name);
    upload.mutate(file, { onSettled: () => setUploading(null) });
  };

  const list = attachments.data ?? [];
  const hasCurrent = list.some((a) => !a.archived);
  return (
    <DetailCard
      title="Attachments"
      icon={<AttachFile />}
      action={
        permit.can.upload ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<UploadFileOutlined />}
            onClick={() => input.current?.click()}
            disabled={!!uploading}
          >
            Upload File
          </Button>
        ) : null
      }
    >
      {permit.can.upload ? (
        <input
          ref={input}
          type="file"
          hidden
          onChange={onFile}
          aria-label="File to upload"
          data-testid="attachment-input"
        />
      ) : null}

      {uploading ? (
        <Box sx={{ mb: 2 }} role="status" aria-live="polite">
          <Typography variant="body2" sx={{ mb: 0.5, overflowWrap: "anywhere" }}>
            Uploading {uploading}… {Math.round(progress * 100)}%
          </Typography>
          <LinearProgress variant="determinate" value={progress * 100} aria-label="Upload progress" />
        </Box>
      ) : null}
      {upload.isError && !uploading ? (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => upload.reset()}>
          {errorMessage(upload.error)}
        </Alert>
      ) : null}

      {attachments.isPending ? (
        <Skeleton variant="rounded" height={56} role="progressbar" aria-label="Loading attachments" />
      ) : attachments.isError ? (
        <Alert severity="error">{errorMessage(attachments.error)}</Alert>
      ) : list.length === 0 ? (
        // With archived files hidden, "no current attachments" (issue 25: not "none at all").
        <EmptyState>
          {showArchived ? EMPTY_STATES.attachments.none : EMPTY_STATES.attachments.filtered}
        </EmptyState>
      ) : (
        <Box
          component="ul"
          aria-label="Attachments"
          sx={{
            listStyle: "none",
            m: 0,
            p: 0,
            display: "grid",
            gridTemplateColumns: "minmax(0, 1fr)",
            gap: 1,
          }}
        >
          {list.map((a) => (
            <AttachmentRow key={a.id} attachment={a} />
          ))}
        </Box>
      )}

      <Box
        sx={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          justifyContent: "space-between",
          gap: 1,
          mt: 1.5,
        }}
      >
        <FormControlLabel
          control={<Switch checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />}
          label={<Typography variant="body2">Show archived</Typography>}
        />
        {permit.can.upload && hasCurrent ? (
          <Typography variant="caption" sx={{ color: "text.secondary" }}>
            A new upload archives the current file.
          </Typography>
        ) : null}
      </Box>
    </DetailCard>
  );
}
