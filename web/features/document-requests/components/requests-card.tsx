import { Suspense, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import ForwardToInboxOutlined from "@mui/icons-material/ForwardToInboxOutlined";
import MarkEmailReadOutlined from "@mui/icons-material/MarkEmailReadOutlined";
import { DetailCard, EmptyState, PendingCard } from "../../../components/detail-card.tsx";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";
import { usePermitRequests } from "../api/permit-requests.ts";
import { useApproveRequest } from "../api/request-writes.ts";
import type { RequestView } from "../api/types.ts";
import { RequestItem } from "./request-item.tsx";
import { RejectDialog, RevokeDialog } from "./review-dialogs.tsx";

/**
 * Requests: the documents asked of outside parties about this permit or bond (issue 27), newest
 * first, each with its state and what was sent; staff review a submission here (Approve, Reject)
 * and may revoke an open link. A client-user reads the document, state and dates only.
 */
export function RequestsCard({
  permitId,
  canReview,
  currency,
  bondAmount = null,
}: {
  permitId: string;
  /** A bond's amount now (its ledger's current amount): a rider's typed change is checked against the document with it. */
  bondAmount?: string | null;
  /** From the permit's can.edit: the roles that may ask for and review documents. */
  canReview: boolean;
  currency: string;
}) {
  const requests = usePermitRequests(permitId);
  const approve = useApproveRequest(permitId);
  const [rejecting, setRejecting] = useState<{ request: RequestView; submissionId: string } | null>(null);
  const [revoking, setRevoking] = useState<RequestView | null>(null);
  if (!requests.data)
    return <PendingCard title="Requests" icon={<MarkEmailReadOutlined />} error={requests.error} />;
  const items = requests.data;
  const toReview = canReview ? items.filter((r) => r.state === "submitted").length : 0;
  return (
    <DetailCard
      title="Requests"
      icon={<MarkEmailReadOutlined />}
      action={toReview ? <Chip size="small" color="warning" label={`${toReview} to review`} /> : null}
    >
      {items.length ? (
        <Box component="ul" aria-label="Document requests" sx={{ listStyle: "none", m: 0, p: 0 }}>
          {items.map((r) => (
            <RequestItem
              key={r.id}
              r={r}
              currency={currency}
              bondAmount={bondAmount}
              canReview={canReview}
              isBusy={approve.isPending}
              onApprove={(s) => approve.mutate({ id: r.id, submissionId: s.id })}
              onReject={(s) => setRejecting({ request: r, submissionId: s.id })}
              onRevoke={() => setRevoking(r)}
            />
          ))}
        </Box>
      ) : (
        <EmptyState>
          {canReview
            ? "No documents requested yet. Use Request Document to ask an agency or surety for one by e-mail."
            : "No documents requested yet."}
        </EmptyState>
      )}
      {canReview ? (
        <>
          <RejectDialog permitId={permitId} target={rejecting} onClose={() => setRejecting(null)} />
          <RevokeDialog permitId={permitId} target={revoking} onClose={() => setRevoking(null)} />
        </>
      ) : null}
    </DetailCard>
  );
}

/** The dialog's code (MUI's Autocomplete among it) comes on the pointer's approach to its button. */
const { Component: LazyRequestDialog, preload: preloadDialog } = lazyWithPreload(() =>
  import("./request-dialog.tsx").then((m) => ({ default: m.RequestDocumentDialog })),
);

/** 'Request Document' in the page's header, with its dialog (roles that may edit the permit). */
export function RequestDocumentButton({ permitId, isBond }: { permitId: string; isBond: boolean }) {
  const [open, setOpen] = useState(false);
  const hasOpened = useHasOpened(open);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ForwardToInboxOutlined />}
        onPointerEnter={preloadDialog}
        onFocus={preloadDialog}
        onTouchStart={preloadDialog}
        onClick={() => setOpen(true)}
        sx={{ flexShrink: 0 }}
      >
        Request Document
      </Button>
      {hasOpened ? (
        <Suspense fallback={null}>
          <LazyRequestDialog permitId={permitId} isBond={isBond} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
