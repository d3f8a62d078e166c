import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { visuallyHidden } from "@mui/utils";
import { PERMIT_SORT_FIELDS, type PermitSortField } from "../../../../shared/domain/permit-list.ts";
import type { PermitListItem } from "../../../../shared/schemas/permits.ts";
import { formatDay } from "./format.ts";
import {
  CommentsLink,
  PermitActions,
  ProjectDots,
  ProjectTitle,
  TypeIcon,
  rowPartsSx,
  URGENCY_LABELS,
  urgencyRowsSx,
} from "./permit-row-parts.tsx";
import type { PermitsViewProps } from "./permits-table.tsx";

const SORT_LABELS: Record<PermitSortField, string> = {
  permit_number: "Permit #",
  permit_name: "Permit Name",
  agency: "Agency",
  permit_application_date: "App Date",
  expiration_date: "Expires",
};

/** The All Permits list on a phone: the same groups and fields, as stacked cards. */
export function PermitCards({ groups, query, showCompany, onSort, onDelete }: PermitsViewProps) {
  const sortValue = query.sort ? `${query.sort}:${query.dir}` : "";
  return (
    <Box sx={[rowPartsSx, urgencyRowsSx("article")]}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={sortValue}
        onChange={(e) => {
          const [field, dir] = e.target.value.split(":") as [
            PermitSortField | "",
            "asc" | "desc" | undefined,
          ];
          onSort(field || undefined, dir ?? "asc");
        }}
        sx={{ m: 1.5, minWidth: 200 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">Creation order</MenuItem>
        {PERMIT_SORT_FIELDS.flatMap((f) =>
          (["asc", "desc"] as const).map((dir) => (
            <MenuItem key={`${f}:${dir}`} value={`${f}:${dir}`}>
              {SORT_LABELS[f]} {dir === "asc" ? "(ascending)" : "(descending)"}
            </MenuItem>
          )),
        )}
      </TextField>
      {groups.map((group) => (
        <Box
          key={group.client?.id ?? "no-client"}
          component="section"
          aria-label={group.client?.name ?? "No client"}
        >
          <Typography
            variant="subtitle1"
            component="h2"
            sx={{ fontWeight: 700, px: 1.5, py: 1, bgcolor: "action.selected" }}
          >
            {group.client?.name ?? "No client"}
          </Typography>
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
                  <PermitCard permit={permit} showCompany={showCompany} onDelete={onDelete} />
                </Box>
              ))}
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}

function PermitCard({
  permit,
  showCompany,
  onDelete,
}: {
  permit: PermitListItem;
  showCompany: boolean;
  onDelete: (p: PermitListItem) => void;
}) {
  const line = (label: string, value: string) => (
    <Box sx={{ display: "flex", gap: 1, fontSize: "0.8125rem" }}>
      <Box component="span" sx={{ color: "text.secondary", minWidth: 72 }}>
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
      {line("Start Date", formatDay(permit.start_date))}
      {line("App Date", formatDay(permit.permit_application_date))}
      <Box
        sx={{ display: "flex", gap: 1, fontSize: "0.8125rem", fontWeight: permit.urgency ? 600 : undefined }}
      >
        <Box component="span" sx={{ color: "text.secondary", minWidth: 72, fontWeight: 400 }}>
          Expires
        </Box>
        <span>
          {formatDay(permit.expiration_date)}
          {permit.urgency ? (
            <Box component="span" sx={visuallyHidden}>
              {` (${URGENCY_LABELS[permit.urgency]})`}
            </Box>
          ) : null}
        </span>
      </Box>
      {showCompany ? line("Company", permit.company.name) : null}
      <Box sx={{ mt: 0.5, ml: -1 }}>
        <PermitActions permit={permit} onDelete={onDelete} />
      </Box>
    </Box>
  );
}
