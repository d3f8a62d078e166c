import type { ReactNode } from "react";
import { Link as RouterLink, useLocation } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import AccountBalanceOutlined from "@mui/icons-material/AccountBalanceOutlined";
import ArrowBack from "@mui/icons-material/ArrowBack";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import FolderOutlined from "@mui/icons-material/FolderOutlined";
import OpenInNew from "@mui/icons-material/OpenInNew";
import { recordStatus } from "../../../shared/domain/record-status.ts";
import { displayProjectStatus, RECORD_TYPE_LABELS } from "../../../shared/domain/statuses.ts";
import type { PermitDetail } from "../../../shared/schemas/permits.ts";
import { backLink } from "../../lib/back-link.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { paths } from "../../lib/paths.ts";
import { useCan, useCompanyToday } from "../../lib/session.tsx";
import { DetailCard, FieldGrid } from "../../components/detail-card.tsx";
import { PageHeading } from "../../components/page-header.tsx";
import { StatusChip } from "../../components/status-chip.tsx";
import { acknowledgedLabel } from "../../features/lifecycle/index.ts";

/**
 * The page's way back, above the permit or its error: to the list the user came from with its
 * filters ("Back to Bonds" to /bonds?surety_id=...), else to the record type's list.
 */
export function BackToList({ gap, isBond = false }: { gap: number; isBond?: boolean }) {
  const back = backLink(useLocation().state, isBond);
  return (
    <Button
      component={RouterLink}
      to={back.to}
      startIcon={<ArrowBack />}
      size="small"
      sx={{ mb: gap, ml: -1 }}
    >
      {back.label}
    </Button>
  );
}

/**
 * The way back, then the record's name, number and its one status (issue 25: "Active · past
 * expiry", "Released", "Closed · Finaled"...), with Edit Permit or Edit Bond when allowed.
 */
export function PermitHeader({ permit, actions }: { permit: PermitDetail; actions?: ReactNode }) {
  usePageTitle(permit.permit_name);
  const isBond = permit.record_type === "bond";
  // From the detail's own fields, so a ledger entry or a lifecycle step copied onto it shows at once.
  const status = recordStatus(permit, useCompanyToday());
  return (
    <Box component="header" sx={{ mb: 3 }}>
      <BackToList gap={1.5} isBond={isBond} />
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "flex-start", gap: 2 }}>
        <Box sx={{ flex: "1 1 320px", minWidth: 0 }}>
          <Typography variant="overline" sx={{ color: "text.secondary", letterSpacing: 1, lineHeight: 1.5 }}>
            {RECORD_TYPE_LABELS[permit.record_type]} · {permit.permit_number}
          </Typography>
          <PageHeading sx={{ fontSize: { xs: "1.6rem", sm: "2rem" }, overflowWrap: "anywhere" }}>
            {permit.permit_name}
          </PageHeading>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 1.25 }}>
            <StatusChip status={status} />
            {permit.archived ? <Chip label="Archived" size="small" variant="outlined" /> : null}
            {permit.acknowledged ? (
              <Chip
                icon={<CheckCircleOutline />}
                label={acknowledgedLabel(permit.acknowledged)}
                size="small"
                color="success"
                variant="outlined"
              />
            ) : null}
          </Box>
        </Box>
        {permit.can.edit || actions ? (
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, flexShrink: 0 }}>
            {actions}
            {permit.can.edit ? (
              <Button
                component={RouterLink}
                to={paths.editPermit(permit.id)}
                variant="contained"
                startIcon={<EditOutlined />}
                sx={{ flexShrink: 0 }}
              >
                {isBond ? "Edit Bond" : "Edit Permit"}
              </Button>
            ) : null}
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}

export function ProjectInfoCard({ permit }: { permit: PermitDetail }) {
  const showCompany = useCan("allCompanies");
  const project = permit.project;
  return (
    <DetailCard title="Project Info" icon={<FolderOutlined />}>
      <FieldGrid
        items={[
          {
            label: "Project",
            value: project ? (
              <Link component={RouterLink} to={paths.projectDashboard(project.id)}>
                {project.name}
              </Link>
            ) : null,
            wide: true,
          },
          { label: "Project Number", value: project?.project_number },
          { label: "Project Status", value: project ? displayProjectStatus(project.status) : null },
          { label: "Client", value: permit.client?.name },
          { label: "Phase", value: permit.phase },
          ...(permit.aka ? [{ label: "AKA", value: permit.aka }] : []),
          ...(showCompany ? [{ label: "Company", value: permit.company.name }] : []),
        ]}
      />
    </DetailCard>
  );
}

/** The grantor link as the host name, opened in a new tab without giving it this window. */
function GrantorLink({ href }: { href: string }) {
  let label = href;
  try {
    label = new URL(href).host;
  } catch {
    /* shown as stored */
  }
  return (
    <Link
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Grantor link: ${label} (opens in a new tab)`}
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}
    >
      {label}
      <OpenInNew sx={{ fontSize: 16 }} aria-hidden />
    </Link>
  );
}

export function AgencyInfoCard({ permit }: { permit: PermitDetail }) {
  return (
    <DetailCard title="Agency Info" icon={<AccountBalanceOutlined />}>
      <FieldGrid
        items={[
          { label: "Agency", value: permit.agency, wide: true },
          { label: "Permit Number", value: permit.permit_number },
          { label: "Record Type", value: RECORD_TYPE_LABELS[permit.record_type] },
          {
            label: "Grantor Link",
            value: permit.grantor_link ? <GrantorLink href={permit.grantor_link} /> : null,
            wide: true,
          },
        ]}
      />
    </DetailCard>
  );
}
