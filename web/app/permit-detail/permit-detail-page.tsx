import type { ReactNode } from "react";
import { Link as RouterLink, useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import ArrowBack from "@mui/icons-material/ArrowBack";
import { todayIn } from "../../../../shared/domain/dates.ts";
import { IdSchema } from "../../../../shared/schemas/common.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { usePageTitle } from "../../../lib/page-title.ts";
import { useBondLedger } from "../api/bond-ledger.ts";
import { usePermitLifecycle } from "../api/get-lifecycle.ts";
import { usePermit } from "../api/get-permit.ts";
import { AttachmentsCard } from "../components/detail/attachments-card.tsx";
import { AuditTrailCard } from "../components/detail/audit-trail-card.tsx";
import {
  BondDetailsCard,
  BondLedgerCard,
  BondLedgerPending,
  CollateralCard,
} from "../components/detail/bond-cards.tsx";
import { CommentsCard } from "../components/detail/comments-card.tsx";
import {
  InspectionsCard,
  LifecyclePending,
  RenewalCard,
  TermsCard,
} from "../components/detail/lifecycle-cards.tsx";
import { AgencyInfoCard, PermitHeader, ProjectInfoCard } from "../components/detail/permit-overview.tsx";
import { PermitTimeline } from "../components/detail/permit-timeline.tsx";
import { RemindersCard } from "../components/detail/reminders-card.tsx";

const NOT_FOUND = "Permit not found.";

function PermitError({ message }: { message: string }) {
  usePageTitle("Permit Details");
  return (
    <>
      <Button
        component={RouterLink}
        to={paths.permits}
        startIcon={<ArrowBack />}
        size="small"
        sx={{ mb: 2, ml: -1 }}
      >
        Back to Permits
      </Button>
      <Alert severity="error">{message}</Alert>
    </>
  );
}

type Placed = { node: ReactNode; order: number };

/**
 * Two columns from md up (details left, files and reminders right) and the audit trail across
 * both. Below md the column wrappers dissolve (display: contents) and `order` puts attachments
 * right after the facts, so a phone user does not scroll past every comment to reach the files.
 */
function Layout({ main, side, bottom }: { main: Placed[]; side: Placed[]; bottom: Placed }) {
  const placed = (item: Placed, i: number) => (
    <Box key={i} sx={{ order: { xs: item.order, md: 0 }, minWidth: 0 }}>
      {item.node}
    </Box>
  );
  const column = { display: { xs: "contents", md: "grid" }, gap: 3, minWidth: 0 } as const;
  return (
    <Box
      sx={{
        display: { xs: "flex", md: "grid" },
        flexDirection: "column",
        gridTemplateColumns: { md: "minmax(0, 2fr) minmax(300px, 1fr)" },
        gap: { xs: 2, sm: 3 },
        alignItems: { md: "start" },
      }}
    >
      <Box sx={column}>{main.map(placed)}</Box>
      <Box sx={column}>{side.map(placed)}</Box>
      <Box sx={{ gridColumn: { md: "1 / -1" }, order: { xs: bottom.order, md: 0 }, minWidth: 0 }}>
        {bottom.node}
      </Box>
    </Box>
  );
}

function PermitDetailView({ permit }: { permit: PermitDetail }) {
  const canSeeReminders = useCan("reminders.view");
  const lifecycle = usePermitLifecycle(permit.id);
  const me = useCurrentUser();
  const today = todayIn(me.company?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const life = lifecycle.data;
  // Issue 12: a bond's ledger, collateral and maintenance-bond link.
  const isBond = permit.record_type === "bond";
  const bond = useBondLedger(permit.id, isBond);
  const ledger = bond.data;
  return (
    <>
      <PermitHeader permit={permit} />
      <Layout
        main={[
          {
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
          { order: 2, node: <PermitTimeline permit={permit} /> },
          ...(isBond
            ? [
                { order: 4, node: <BondDetailsCard permit={permit} ledger={ledger} today={today} /> },
                {
                  order: 4,
                  node: ledger ? (
                    <BondLedgerCard permitId={permit.id} ledger={ledger} today={today} />
                  ) : (
                    <BondLedgerPending error={bond.error} />
                  ),
                },
              ]
            : []),
          ...(life
            ? [
                { order: 6, node: <TermsCard lifecycle={life} /> },
                { order: 7, node: <InspectionsCard permitId={permit.id} lifecycle={life} today={today} /> },
              ]
            : []),
          { order: 8, node: <CommentsCard permit={permit} /> },
        ]}
        side={[
          {
            order: 3,
            node: life ? (
              <RenewalCard permit={permit} lifecycle={life} today={today} />
            ) : (
              <LifecyclePending error={lifecycle.error} />
            ),
          },
          // Collateral: staff only (a client-user's ledger has none).
          ...(ledger?.collateral
            ? [{ order: 5, node: <CollateralCard permitId={permit.id} ledger={ledger} today={today} /> }]
            : []),
          { order: 5, node: <AttachmentsCard permit={permit} /> },
          ...(canSeeReminders ? [{ order: 9, node: <RemindersCard permitId={permit.id} /> }] : []),
        ]}
        bottom={{ order: 10, node: <AuditTrailCard permitId={permit.id} /> }}
      />
    </>
  );
}

/**
 * Permit detail (/permits/{id}): the permit, its renewal, terms and inspections (issue 11), a bond's
 * details, ledger and collateral (issue 12), files, comments, reminders and audit trail.
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
