import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import Check from "@mui/icons-material/Check";
import Close from "@mui/icons-material/Close";
import InsertDriveFileOutlined from "@mui/icons-material/InsertDriveFileOutlined";
import {
  DATE_REQUEST_FIELDS,
  REQUEST_FIELD_LABELS,
  REQUEST_FIELDS,
  type RequestField,
  type RequestState,
} from "../../../../shared/domain/document-requests.ts";
import { formatAmountChange, formatBytes, formatDay, formatDayOf } from "../../../lib/format.ts";
import { RequestSuggestions } from "../../document-suggestions/index.ts";
import { requestFileUrl } from "../api/request-writes.ts";
import type { RequestSubmission, RequestView } from "../api/types.ts";

type Tone = "default" | "info" | "warning" | "success" | "error";
/** Submitted waits on the reader (warning); Rejected waits on the party. */
const STATE_TONES: Record<RequestState, Tone> = {
  sent: "default",
  viewed: "info",
  submitted: "warning",
  approved: "success",
  rejected: "error",
  revoked: "default",
  expired: "default",
};

export function RequestStateChip({ request }: { request: Pick<RequestView, "state" | "stateLabel"> }) {
  const tone = STATE_TONES[request.state];
  return (
    <Chip
      label={request.stateLabel}
      size="small"
      color={tone}
      variant={tone === "default" || tone === "error" ? "outlined" : "filled"}
      aria-label={`Request: ${request.stateLabel}`}
      sx={{ fontWeight: 600 }}
    />
  );
}

/** What happened and when, oldest first: "Sent Nov 3 by Dana Whitfield · Viewed Nov 4 · ...". */
export function requestDates(r: RequestView): string {
  const steps: (string | null)[] = [
    `Sent ${formatDayOf(r.createdAt)}${r.createdByName ? ` by ${r.createdByName}` : ""}`,
    r.firstViewedAt ? `Viewed ${formatDayOf(r.firstViewedAt)}` : null,
    r.submittedAt ? `Submitted ${formatDayOf(r.submittedAt)}` : null,
    r.reviewedAt
      ? `${r.state === "revoked" ? "Revoked" : r.state === "rejected" ? "Rejected" : "Reviewed"} ${formatDayOf(r.reviewedAt)}${
          r.reviewedByName ? ` by ${r.reviewedByName}` : ""
        }`
      : null,
    r.state === "expired" && r.expiresAt ? `Link expired ${formatDayOf(r.expiresAt)}` : null,
  ];
  return steps.filter(Boolean).join(" · ");
}

const fieldOrder = (field: string) => (REQUEST_FIELDS as readonly string[]).indexOf(field);

/**
 * A value the party typed, as the screens show it: a date in words; an amount in the currency,
 * signed (a rider's Amount is the change it makes to the bond, as the ledger shows it).
 */
function shownValue(field: string, value: string, currency: string): string {
  if ((DATE_REQUEST_FIELDS as readonly string[]).includes(field)) return formatDay(value) ?? value;
  if (field === "amount") return Number.isFinite(Number(value)) ? formatAmountChange(value, currency) : value;
  return value;
}

/** The party's values (with their labels) and files (download links) of one submission. */
export function SubmissionContent({
  requestId,
  submission,
  currency,
}: {
  requestId: string;
  submission: RequestSubmission;
  currency: string;
}) {
  // In the order the request asks for them (New Expiration Date before New Permit Number).
  const values = Object.entries(submission.values)
    .filter((entry): entry is [string, string] => !!entry[1])
    .sort(([a], [b]) => fieldOrder(a) - fieldOrder(b));
  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      {values.length ? (
        <Box
          component="dl"
          sx={{
            m: 0,
            display: "grid",
            gridTemplateColumns: "repeat(auto-fill, minmax(160px, 1fr))",
            gap: 1.5,
          }}
        >
          {values.map(([field, value]) => (
            <Box key={field}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {REQUEST_FIELD_LABELS[field as RequestField] ?? field}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
                {shownValue(field, value, currency)}
              </Typography>
            </Box>
          ))}
        </Box>
      ) : null}
      <Box
        component="ul"
        aria-label="Submitted files"
        sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 0.5 }}
      >
        {submission.files.map((file) => (
          <Box
            component="li"
            key={file.id}
            sx={{ display: "flex", alignItems: "center", gap: 0.75, minWidth: 0 }}
          >
            <InsertDriveFileOutlined sx={{ fontSize: 18, color: "text.secondary" }} aria-hidden />
            <Link
              href={requestFileUrl(requestId, file.id)}
              download={file.filename}
              sx={{ overflowWrap: "anywhere", minWidth: 0 }}
            >
              {file.filename}
            </Link>
            <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
              {formatBytes(file.size)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function Panel({
  tone,
  children,
}: {
  tone: "warning" | "error" | "success" | "neutral";
  children: ReactNode;
}) {
  return (
    <Box
      sx={{
        p: 1.5,
        borderRadius: 2,
        border: 1,
        borderColor: tone === "neutral" ? "divider" : `${tone}.main`,
        bgcolor: tone === "warning" ? "action.hover" : undefined,
        display: "grid",
        gap: 1,
      }}
    >
      {children}
    </Box>
  );
}

/** The party, as staff see it: name, organization, e-mail. */
function Party({ r }: { r: RequestView }) {
  return (
    <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
      <Box component="span" sx={{ fontWeight: 600 }}>
        {r.partyName}
      </Box>
      {r.partyOrganization ? `, ${r.partyOrganization}` : ""}
      {r.partyEmail ? (
        <>
          {" · "}
          <Link href={`mailto:${r.partyEmail}`} underline="always">
            {r.partyEmail}
          </Link>
        </>
      ) : null}
    </Typography>
  );
}

/**
 * One request on the Requests card. Staff see the party, the due date (overdue in red), the message,
 * what was sent with Approve and Reject while it awaits review, the earlier rejections with their
 * reasons, and Revoke while the link is open. A client-user's item carries the document, state and
 * dates only, and shows nothing more.
 */
export function RequestItem({
  r,
  currency,
  bondAmount = null,
  canReview,
  onApprove,
  onReject,
  onRevoke,
  isBusy,
}: {
  r: RequestView;
  currency: string;
  bondAmount?: string | null;
  canReview: boolean;
  onApprove: (submission: RequestSubmission) => void;
  onReject: (submission: RequestSubmission) => void;
  onRevoke: () => void;
  isBusy: boolean;
}) {
  const what = r.title || r.documentLabel;
  const submissions = r.submissions ?? [];
  const pending = submissions.find((s) => s.status === "pending");
  const approved = submissions.find((s) => s.status === "approved");
  const rejected = submissions.filter((s) => s.status === "rejected");
  const canRevoke = canReview && r.status === "open" && r.state !== "expired";
  // A request done with (approved, revoked, expired) keeps its outcome; its due date, message and
  // refused submissions are history nobody acts on.
  const isClosed = r.status === "approved" || r.status === "revoked" || r.state === "expired";
  return (
    <Box
      component="li"
      aria-label={`${what} request`}
      sx={{
        display: "grid",
        gap: 1,
        py: 2,
        "&:first-of-type": { pt: 0 },
        "& + &": { borderTop: 1, borderColor: "divider" },
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 1 }}>
        <Typography sx={{ fontWeight: 650, flex: "1 1 auto", overflowWrap: "anywhere" }}>{what}</Typography>
        <RequestStateChip request={r} />
      </Box>
      {r.partyName ? <Party r={r} /> : null}
      <Typography variant="caption" color="text.secondary">
        {r.createdByName !== undefined ? requestDates(r) : clientDates(r)}
      </Typography>
      {r.dueDate && !isClosed ? (
        <Typography variant="body2" sx={r.overdue ? { color: "error.main", fontWeight: 650 } : undefined}>
          Due {formatDay(r.dueDate)}
          {r.overdue ? " · Overdue" : ""}
        </Typography>
      ) : null}
      {r.message && !isClosed ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ whiteSpace: "pre-line", overflowWrap: "anywhere", fontStyle: "italic" }}
        >
          “{r.message}”
        </Typography>
      ) : null}
      {pending ? (
        <Panel tone="warning">
          <Typography variant="body2" sx={{ fontWeight: 650 }}>
            Sent {formatDayOf(pending.submittedAt)}, awaiting your review
          </Typography>
          <SubmissionContent requestId={r.id} submission={pending} currency={currency} />
          {/* Issue 28: what the files say, beside what the party typed (staff only). */}
          {canReview ? (
            <RequestSuggestions
              requestId={r.id}
              typed={pending.values}
              currency={currency}
              bondAmount={bondAmount}
            />
          ) : null}
          {canReview ? (
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button
                variant="contained"
                color="success"
                startIcon={<Check />}
                disabled={isBusy}
                onClick={() => onApprove(pending)}
              >
                Approve
              </Button>
              <Button
                variant="outlined"
                color="error"
                startIcon={<Close />}
                disabled={isBusy}
                onClick={() => onReject(pending)}
              >
                Reject
              </Button>
            </Box>
          ) : null}
        </Panel>
      ) : null}
      {approved ? (
        <Panel tone="success">
          <Typography variant="body2" sx={{ fontWeight: 650 }}>
            Approved{approved.reviewedAt ? ` ${formatDayOf(approved.reviewedAt)}` : ""}
            {r.reviewedByName ? ` by ${r.reviewedByName}` : ""}
          </Typography>
          <SubmissionContent requestId={r.id} submission={approved} currency={currency} />
        </Panel>
      ) : null}
      {isClosed
        ? null
        : rejected.map((s) => (
            <Panel key={s.id} tone="neutral">
              <Typography variant="body2">
                <Box component="span" sx={{ fontWeight: 650 }}>
                  Rejected{s.reviewedAt ? ` ${formatDayOf(s.reviewedAt)}` : ""}:
                </Box>{" "}
                {s.reason}
              </Typography>
              <SubmissionContent requestId={r.id} submission={s} currency={currency} />
            </Panel>
          ))}
      {r.state === "rejected" && r.partyName ? (
        <Typography variant="body2" color="text.secondary">
          Waiting for {r.partyName} to send it again.
        </Typography>
      ) : null}
      {canRevoke ? (
        <Box>
          <Button size="small" color="inherit" disabled={isBusy} onClick={onRevoke}>
            Revoke
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}

/** A client-user's dates: when it was asked, sent and reviewed. */
function clientDates(r: RequestView): string {
  return [
    `Requested ${formatDayOf(r.createdAt)}`,
    r.submittedAt ? `Submitted ${formatDayOf(r.submittedAt)}` : null,
    r.reviewedAt ? `Reviewed ${formatDayOf(r.reviewedAt)}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}
