import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Typography from "@mui/material/Typography";
import { visuallyHidden } from "@mui/utils";
import { PERMIT_SORT_FIELDS, type PermitSortField } from "../../../../shared/domain/permit-list.ts";
import type { PermitListItem } from "../../../../shared/schemas/permits.ts";
import { SelectField } from "../../../components/select-field.tsx";
import { formatDay } from "../../../lib/format.ts";
import {
  CommentsLink,
  PermitActions,
  ProjectCellLink,
  ProjectDots,
  ProjectTitle,
  TypeIcon,
  rowPartsSx,
  tasksDueText,
  URGENCY_LABELS,
  urgencyRowsSx,
} from "./permit-row-parts.tsx";
import type { PermitsViewProps } from "./permits-table.tsx";
import { AcknowledgedLine, lifecyclePartsSx, RenewByText, ResponsibleText } from "../../lifecycle/index.ts";
import { ClientPacketLink } from "../../packets/index.ts";

const SORT_LABELS: Record<PermitSortField, string> = {
  permit_number: "Permit #",
  permit_name: "Permit Name",
  agency: "Agency",
  permit_application_date: "App Date",
  expiration_date: "Expires",
  renew_by_date: "Renew By",
};

const SORT_OPTIONS = [
  { value: "", label: "Creation order" },
  ...PERMIT_SORT_FIELDS.flatMap((f) =>
    (["asc", "desc"] as const).map((dir) => ({
      value: `${f}:${dir}`,
      label: `${SORT_LABELS[f]} ${dir === "asc" ? "(ascending)" : "(descending)"}`,
    })),
  ),
];

/** The cards' label column: as wide as the longest label, 'Responsible' (issue 11). */
const LABEL_WIDTH = 84;

/** The All Permits list on a phone: the same groups and fields, as stacked cards. */
export function PermitCards({
  groups,
  items,
  groupBy,
  query,
  showCompany,
  onSort,
  onDelete,
}: PermitsViewProps) {
  const sortValue = query.sort ? `${query.sort}:${query.dir}` : "";
  return (
    <Box sx={[rowPartsSx, urgencyRowsSx("article"), lifecyclePartsSx]}>
      <SelectField
        size="small"
        label="Sort by"
        value={sortValue}
        options={SORT_OPTIONS}
        displayEmpty
        onChange={(value) => {
          const [field, dir] = value.split(":") as [PermitSortField | "", "asc" | "desc" | undefined];
          onSort(field || undefined, dir ?? "asc");
        }}
        sx={{ m: 1.5, minWidth: 200 }}
      />
      {groupBy === "none"
        ? items.map((permit, i) => (
            <Box key={permit.id}>
              {i ? <Divider /> : null}
              <PermitCard permit={permit} showCompany={showCompany} showProject onDelete={onDelete} />
            </Box>
          ))
        : null}
      {groups.map((group) => (
        <Box
          key={group.client?.id ?? "no-client"}
          component="section"
          aria-label={group.client?.name ?? "No client"}
        >
          <Box
            sx={{
              display: "flex",
              alignItems: "center",
              justifyContent: "space-between",
              gap: 1,
              flexWrap: "wrap",
              px: 1.5,
              py: 1,
              bgcolor: "action.selected",
            }}
          >
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
              {group.client?.name ?? "No client"}
            </Typography>
            {group.client ? <ClientPacketLink clientId={group.client.id} name={group.client.name} /> : null}
          </Box>
          {group.projects.map((p) => (
            <Box key={p.project?.id ?? "no-project"}>
              <Box
                sx={{
                  px: 1.5,
                  py: 1,
                  bgcolor: "action.hover",
                  display: "flex",
                  flexDirection: "column",
                  gap: 0.5,
                }}
              >
                <ProjectTitle project={p.project} />
                <ProjectDots permits={p.permits} />
              </Box>
              {p.permits.map((permit, i) => (
                <Box key={permit.id}>
                  {i ? <Divider /> : null}
                  <PermitCard
                    permit={permit}
                    showCompany={showCompany}
                    showProject={false}
                    onDelete={onDelete}
                  />
                </Box>
              ))}
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}

/** A labelled line of a card, like the others, with an element as its value (issue 11). */
function lifecycleLine(label: string, value: ReactNode) {
  return (
    <Box sx={{ display: "flex", gap: 1, fontSize: "0.8125rem" }}>
      <Box component="span" sx={{ color: "text.secondary", minWidth: LABEL_WIDTH }}>
        {label}
      </Box>
      <span>{value}</span>
    </Box>
  );
}

function PermitCard({
  permit,
  showCompany,
  showProject,
  onDelete,
}: {
  permit: PermitListItem;
  showCompany: boolean;
  /** The flat list has no group headers: the card names its project and client. */
  showProject: boolean;
  onDelete: (p: PermitListItem) => void;
}) {
  const line = (label: string, value: string) => (
    <Box sx={{ display: "flex", gap: 1, fontSize: "0.8125rem" }}>
      <Box component="span" sx={{ color: "text.secondary", minWidth: LABEL_WIDTH }}>
        {label}
      </Box>
      <span>{value}</span>
    </Box>
  );
  return (
    <Box
      component="article"
      aria-label={`${permit.permit_number} ${permit.permit_name}`}
      data-urgency={permit.urgency ?? undefined}
      sx={{ px: 1.5, py: 1.25 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <TypeIcon type={permit.record_type} />
        <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap>
          {permit.permit_name}
        </Typography>
        <CommentsLink permit={permit} />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        {permit.permit_number} · {permit.agency ?? "—"}
        {permit.archived ? " · archived" : ""}
      </Typography>
      {/* Issue 28: found by what one of its files says. */}
      {permit.matched_document ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5, overflowWrap: "anywhere" }}>
          Found in {permit.matched_document}
        </Typography>
      ) : null}
      {tasksDueText(permit.tasks) ? (
        <Typography
          variant="body2"
          sx={{ mb: 0.5, color: permit.tasks.overdue ? "error.main" : "text.secondary", fontWeight: 600 }}
        >
          {tasksDueText(permit.tasks)}
        </Typography>
      ) : null}
      {showProject ? (
        <Box sx={{ display: "flex", gap: 1, fontSize: "0.8125rem" }}>
          <Box component="span" sx={{ color: "text.secondary", minWidth: LABEL_WIDTH }}>
            Project
          </Box>
          <span>
            <ProjectCellLink project={permit.project} />
            {permit.client ? ` · ${permit.client.name}` : ""}
          </span>
        </Box>
      ) : null}
      {line("Start Date", formatDay(permit.start_date) ?? "—")}
      {line("App Date", formatDay(permit.permit_application_date) ?? "—")}
      <Box
        sx={{ display: "flex", gap: 1, fontSize: "0.8125rem", fontWeight: permit.urgency ? 600 : undefined }}
      >
        <Box component="span" sx={{ color: "text.secondary", minWidth: LABEL_WIDTH, fontWeight: 400 }}>
          Expires
        </Box>
        <span>
          {formatDay(permit.expiration_date) ?? "—"}
          {permit.urgency ? (
            <Box component="span" sx={visuallyHidden}>
              {` (${URGENCY_LABELS[permit.urgency]})`}
            </Box>
          ) : null}
        </span>
      </Box>
      {permit.renew_by_date ? lifecycleLine("Renew By", <RenewByText permit={permit} />) : null}
      {permit.responsible
        ? lifecycleLine("Responsible", <ResponsibleText permit={permit} withMarker={false} />)
        : null}
      {permit.acknowledged ? <AcknowledgedLine acknowledged={permit.acknowledged} /> : null}
      {showCompany ? line("Company", permit.company.name) : null}
      <Box sx={{ mt: 0.5, ml: -1 }}>
        <PermitActions permit={permit} onDelete={onDelete} />
      </Box>
    </Box>
  );
}
