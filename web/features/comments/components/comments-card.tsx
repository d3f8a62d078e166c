import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import Skeleton from "@mui/material/Skeleton";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import ChatBubbleOutlineOutlined from "@mui/icons-material/ChatBubbleOutlineOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { COMMENT_MAX_LENGTH, type Comment } from "../../../../shared/schemas/comments.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useAddComment } from "../api/add-comment.ts";
import { useComments } from "../api/get-comments.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { formatMoment, initials } from "../../../lib/format.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

function CommentItem({ comment }: { comment: Comment }) {
  return (
    <Box component="li" sx={{ display: "flex", gap: 1.5 }}>
      <Avatar
        sx={{
          width: 34,
          height: 34,
          fontSize: 14,
          bgcolor: comment.isInternal ? "warning.main" : "secondary.main",
        }}
      >
        {initials(comment.userName)}
      </Avatar>
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          p: 1.5,
          borderRadius: 2,
          bgcolor: comment.isInternal ? "rgba(237,108,2,0.08)" : "action.hover",
          border: 1,
          borderColor: comment.isInternal ? "rgba(237,108,2,0.35)" : "transparent",
        }}
      >
        <Box
          sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", columnGap: 1, rowGap: 0.5, mb: 0.5 }}
        >
          <Typography variant="body2" sx={{ fontWeight: 650 }}>
            {comment.userName}
          </Typography>
          <Typography variant="caption" sx={{ color: "text.secondary" }}>
            {formatMoment(comment.createdAt)}
          </Typography>
          {comment.isInternal ? (
            <Chip
              icon={<LockOutlined />}
              label="Internal"
              size="small"
              color="warning"
              variant="outlined"
              sx={{ height: 22, ml: "auto" }}
            />
          ) : null}
        </Box>
        <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          {comment.text}
        </Typography>
      </Box>
    </Box>
  );
}

function AddCommentForm({ permit }: { permit: PermitDetail }) {
  const [text, setText] = useState("");
  const [isInternal, setIsInternal] = useState(false);
  const add = useAddComment(permit.id);
  const trimmed = text.trim();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed || add.isPending) return; // an empty comment is ignored (spec section 5)
    add.mutate(
      { text: trimmed, isInternal: permit.can.viewInternalComments && isInternal },
      {
        onSuccess: () => {
          setText("");
          setIsInternal(false);
        },
      },
    );
  };

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ mt: 2.5 }}>
      <TextField
        label="Add a comment"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit();
        }}
        multiline
        minRows={2}
        maxRows={8}
        fullWidth
        slotProps={{ htmlInput: { maxLength: COMMENT_MAX_LENGTH } }}
        helperText={
          permit.can.viewInternalComments
            ? "Internal comments are visible to your team only, never to the client."
            : "Your comment is visible to the project team."
        }
      />
      {add.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(add.error)}
        </Alert>
      ) : null}
      <Box
        sx={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          justifyContent: "flex-end",
          gap: 1,
          mt: 1,
        }}
      >
        {permit.can.viewInternalComments ? (
          <FormControlLabel
            control={<Checkbox checked={isInternal} onChange={(e) => setIsInternal(e.target.checked)} />}
            label="Internal"
            sx={{ mr: "auto" }}
          />
        ) : null}
        <Button type="submit" variant="contained" disabled={!trimmed || add.isPending}>
          {add.isPending ? "Adding..." : "Add Comment"}
        </Button>
      </Box>
    </Box>
  );
}

/** Comments and notes, oldest first; internal ones are marked (and never reach a client-user). */
export function CommentsCard({ permit }: { permit: PermitDetail }) {
  const comments = useComments(permit.id);
  const list = comments.data ?? [];
  return (
    <DetailCard
      title="Comments & Notes"
      icon={<ChatBubbleOutlineOutlined />}
      action={
        list.length ? <Chip label={list.length} size="small" aria-label={`${list.length} comments`} /> : null
      }
    >
      {comments.isPending ? (
        <Skeleton variant="rounded" height={64} aria-label="Loading comments" />
      ) : comments.isError ? (
        <Alert severity="error">{errorMessage(comments.error)}</Alert>
      ) : list.length === 0 ? (
        <EmptyState>{EMPTY_STATES.comments.none}</EmptyState>
      ) : (
        <Box
          component="ol"
          aria-label="Comments"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 2 }}
        >
          {list.map((c) => (
            <CommentItem key={c.id} comment={c} />
          ))}
        </Box>
      )}
      {permit.can.comment ? <AddCommentForm permit={permit} /> : null}
    </DetailCard>
  );
}
