import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { DEFAULT_CURRENCY } from "../../../shared/domain/bonds.ts";
import { IdSchema } from "../../../shared/schemas/common.ts";
import type { PermitDetail } from "../../../shared/schemas/permits.ts";
import { errorMessage } from "../../lib/api.ts";
import { useCan, useCompanyToday } from "../../lib/session.tsx";
import { usePageTitle } from "../../lib/page-title.ts";
import { AttachmentsCard } from "../../features/attachments/index.ts";
import { AuditTrailCard } from "../../features/audit/index.ts";
import {
  BondDetailsCard,
  BondLedgerCard,
  BondLedgerPending,
  CollateralCard,
  useBondLedger,
} from "../../features/bond-ledger/index.ts";
import { CommentsCard } from "../../features/comments/index.ts";
import { ConditionsCard } from "../../features/conditions/index.ts";
import { PermitContactsCard } from "../../features/contacts/index.ts";
import { RequestDocumentButton, RequestsCard } from "../../features/document-requests/index.ts";
import { PermitDocumentSuggestions } from "../../features/document-suggestions/index.ts";
import {
  InspectionsCard,
  LifecyclePending,
  RenewalCard,
  TermsCard,
  usePermitLifecycle,
} from "../../features/lifecycle/index.ts";
import { usePermit } from "../../features/permits/index.ts";
import { RemindersCard } from "../../features/reminders/index.ts";
import { DetailLayout } from "./detail-layout.tsx";
import { AgencyInfoCard, BackToList, PermitHeader, ProjectInfoCard } from "./permit-overview.tsx";
import { PermitTimeline } from "./permit-timeline.tsx";

const NOT_FOUND = "Permit not found.";

function PermitError({ message }: { message: string }) {
  usePageTitle("Permit Details");
  return (
    <>
      <BackToList gap={2} />
      <Alert severity="error">{message}</Alert>
    </>
  );
}

function PermitDetailView({ permit }: { permit: PermitDetail }) {
  const canSeeReminders = useCan("reminders.view");
  const lifecycle = usePermitLifecycle(permit.id);
  const today = useCompanyToday();
  const life = lifecycle.data;
  // Issue 12: a bond's ledger, collateral and maintenance-bond link.
  const isBond = permit.record_type === "bond";
  const bond = useBondLedger(permit.id, isBond);
  const ledger = bond.data;
  // Amounts in the company's currency: the ledger names it (a bond's); the API says it nowhere else.
  const currency = ledger?.currency ?? DEFAULT_CURRENCY;
  return (
    <>
      <PermitHeader
        permit={permit}
        // Issue 27: ask an outside party for a document (the roles that may edit the permit).
        actions={permit.can.edit ? <RequestDocumentButton permitId={permit.id} isBond={isBond} /> : null}
      />
      <DetailLayout
        main={[
          {
            key: "facts",
            order: 1,
            node: (
              <Box
                sx={{
                  display: "grid",
                  gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" },
                  gap: { xs: 2, sm: 3 },
                }}
              >
                <ProjectInfoCard permit={permit} />
                <AgencyInfoCard permit={permit} />
              </Box>
            ),
          },
          { key: "timeline", order: 2, node: <PermitTimeline permit={permit} /> },
          // Issue 29: the conditions of approval and their tasks (read-only for a client-user).
          {
            key: "conditions",
            order: 2,
            node: (
              <ConditionsCard
                permitId={permit.id}
                responsibleName={permit.responsible?.name ?? null}
                today={today}
              />
            ),
          },
          // Issue 28: what the reader found in the current files, accepted by a person (staff only).
          {
            key: "document-suggestions",
            order: 3,
            node: <PermitDocumentSuggestions permit={permit} currency={currency} />,
          },
          ...(isBond
            ? [
                {
                  key: "bond-details",
                  order: 4,
                  node: <BondDetailsCard permit={permit} ledger={ledger} today={today} currency={currency} />,
                },
                {
                  key: "bond-ledger",
                  order: 4,
                  node: ledger ? (
                    <BondLedgerCard permitId={permit.id} ledger={ledger} today={today} />
                  ) : (
                    <BondLedgerPending error={bond.error} />
                  ),
                },
              ]
            : []),
          // Issue 27: the documents asked of outside parties, reviewed here.
          {
            key: "requests",
            order: 3,
            node: (
              <RequestsCard
                permitId={permit.id}
                canReview={permit.can.edit}
                currency={currency}
                bondAmount={isBond ? (permit.current_amount ?? permit.bond_amount) : null}
              />
            ),
          },
          ...(life
            ? [
                {
                  key: "terms",
                  order: 6,
                  node: <TermsCard lifecycle={life} currency={currency} isBond={isBond} />,
                },
                // Inspections are a permit's: a bond is not inspected (issue 25).
                ...(isBond
                  ? []
                  : [
                      {
                        key: "inspections",
                        order: 7,
                        node: <InspectionsCard permitId={permit.id} lifecycle={life} today={today} />,
                      },
                    ]),
              ]
            : []),
          { key: "comments", order: 8, node: <CommentsCard permit={permit} /> },
        ]}
        // The actions card first: the keyboard and a phone reach Renew before the facts (issue 25).
        actions={{
          key: "renewal",
          order: 0,
          node: life ? (
            <RenewalCard permit={permit} lifecycle={life} today={today} currency={currency} />
          ) : (
            <LifecyclePending error={lifecycle.error} />
          ),
        }}
        side={[
          // Issue 27: who the permit involves (e-mails and phones for staff only).
          {
            key: "contacts",
            order: 3,
            node: <PermitContactsCard contacts={permit.contacts} canEdit={permit.can.edit} />,
          },
          // Collateral: staff only (a client-user's ledger has none).
          ...(ledger?.collateral
            ? [
                {
                  key: "collateral",
                  order: 5,
                  node: <CollateralCard permitId={permit.id} ledger={ledger} today={today} />,
                },
              ]
            : []),
          { key: "attachments", order: 5, node: <AttachmentsCard permit={permit} /> },
          ...(canSeeReminders
            ? [{ key: "reminders", order: 9, node: <RemindersCard permitId={permit.id} /> }]
            : []),
        ]}
        bottom={{ key: "audit", order: 10, node: <AuditTrailCard permitId={permit.id} /> }}
      />
    </>
  );
}

/**
 * Permit detail (/permits/{id}): the permit (the permits feature), its renewal, terms and
 * inspections (lifecycle, issue 11), a bond's details, ledger and collateral (bond-ledger, issue
 * 12), its contacts (issue 27), files (attachments), comments, reminders and audit trail, each from
 * its feature's face.
 */
export default function PermitDetailPage() {
  const { id = "" } = useParams();
  const isValidId = IdSchema.safeParse(id).success;
  const permit = usePermit(id, isValidId);
  if (!isValidId) return <PermitError message={NOT_FOUND} />;
  if (permit.isPending) {
    return (
      <Box
        role="status"
        sx={{ display: "flex", alignItems: "center", gap: 1.5, py: 6, justifyContent: "center" }}
      >
        <CircularProgress size={22} aria-hidden />
        <Typography>Loading...</Typography>
      </Box>
    );
  }
  if (permit.isError) return <PermitError message={errorMessage(permit.error)} />;
  return <PermitDetailView permit={permit.data} />;
}
