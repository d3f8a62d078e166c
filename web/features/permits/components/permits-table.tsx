import { Fragment } from "react";
import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Typography from "@mui/material/Typography";
import type { SxProps, Theme } from "@mui/material/styles";
import { visuallyHidden } from "@mui/utils";
import type { PermitGrouping } from "../../../../shared/domain/permit-list.ts";
import type {
  PermitGroup,
  PermitListItem,
  PermitListQuery,
  PermitSortField,
} from "../../../../shared/schemas/permits.ts";
import { formatDay } from "../../../lib/format.ts";
import { nextSort } from "./list-params.ts";
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
import { lifecyclePartsSx, RenewByText, ResponsibleText } from "../../lifecycle/index.ts";
import { ClientPacketLink } from "../../packets/index.ts";

interface Column {
  label: string;
  sort?: PermitSortField;
  companyOnly?: boolean;
  /** Shown to screen readers only (icon columns). */
  hiddenLabel?: boolean;
  /** Narrower gutters (6 px), so the lifecycle columns keep the table within 1280 px (issue 11). */
  isTight?: boolean;
}

/** The columns of spec section 2, in order; Company only for a super-admin. */
const COLUMNS: Column[] = [
  { label: "Permit #", sort: "permit_number" },
  { label: "Permit Name", sort: "permit_name" },
  { label: "Agency", sort: "agency" },
  // Dates and icons take 6 px gutters: with Company, Renew By and Responsible a super-admin's
  // thirteen columns fit 1280 px (issue 14).
  { label: "Start Date", isTight: true },
  { label: "App Date", sort: "permit_application_date", isTight: true },
  { label: "Expires", sort: "expiration_date", isTight: true },
  // Issue 11: the renewal deadline and who answers for the permit (with the acknowledgement marker).
  { label: "Renew By", sort: "renew_by_date", isTight: true },
  { label: "Responsible", isTight: true },
  { label: "Company", companyOnly: true },
  { label: "Type", hiddenLabel: true, isTight: true },
  { label: "Comments", hiddenLabel: true, isTight: true },
  { label: "Actions" },
];

export interface PermitsViewProps {
  /** The page grouped by client and project (Group by: Client and project)... */
  groups: PermitGroup[];
  /** ...or as one flat list (Group by: None). */
  items: PermitListItem[];
  groupBy: PermitGrouping;
  query: PermitListQuery;
  showCompany: boolean;
  /** No field: back to creation order. */
  onSort: (field: PermitSortField | undefined, dir: PermitListQuery["dir"]) => void;
  onDelete: (permit: PermitListItem) => void;
}

/** The All Permits table (laptop and wider), grouped by client then project, or flat. */
export function PermitsTable({
  groups,
  items,
  groupBy,
  query,
  showCompany,
  onSort,
  onDelete,
}: PermitsViewProps) {
  const isFlat = groupBy === "none";
  const columns = COLUMNS.filter((c) => showCompany || !c.companyOnly);
  return (
    <TableContainer>
      <Table size="small" aria-label="Permits" sx={tableSx}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell
                key={c.label}
                sortDirection={c.sort && query.sort === c.sort ? query.dir : false}
                className={c.isTight ? "tight" : undefined}
                // A two-word heading may take two lines ("Renew / By"): the dates under it are narrower.
                sx={{ fontWeight: 600, lineHeight: 1.3 }}
              >
                {c.sort ? (
                  <TableSortLabel
                    active={query.sort === c.sort}
                    direction={query.sort === c.sort ? query.dir : "asc"}
                    onClick={() => {
                      const next = nextSort(query, c.sort!);
                      onSort(next.sort, next.dir);
                    }}
                  >
                    {c.label}
                  </TableSortLabel>
                ) : c.hiddenLabel ? (
                  <Box component="span" sx={visuallyHidden}>
                    {c.label}
                  </Box>
                ) : (
                  c.label
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {isFlat
            ? items.map((permit) => (
                <PermitRow
                  key={permit.id}
                  permit={permit}
                  showCompany={showCompany}
                  showProject
                  onDelete={onDelete}
                />
              ))
            : null}
          {groups.map((group) => (
            <Fragment key={group.client?.id ?? "no-client"}>
              <TableRow>
                <TableCell
                  colSpan={columns.length}
                  component="th"
                  scope="colgroup"
                  sx={{ bgcolor: "action.selected", py: 1 }}
                >
                  <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
                    <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
                      {group.client?.name ?? "No client"}
                    </Typography>
                    {group.client ? (
                      <ClientPacketLink clientId={group.client.id} name={group.client.name} />
                    ) : null}
                  </Box>
                </TableCell>
              </TableRow>
              {group.projects.map((p) => (
                <Fragment key={p.project?.id ?? "no-project"}>
                  <TableRow>
                    <TableCell
                      colSpan={columns.length}
                      component="th"
                      scope="colgroup"
                      sx={{ bgcolor: "action.hover", py: 0.75, pl: 3 }}
                    >
                      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
                        <ProjectTitle project={p.project} />
                        <ProjectDots permits={p.permits} />
                      </Box>
                    </TableCell>
                  </TableRow>
                  {p.permits.map((permit) => (
                    <PermitRow
                      key={permit.id}
                      permit={permit}
                      showCompany={showCompany}
                      showProject={false}
                      onDelete={onDelete}
                    />
                  ))}
                </Fragment>
              ))}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** A permit row of plain cells (styled by the table's sx): a page renders 50 of them. */
function PermitRow({
  permit,
  showCompany,
  showProject,
  onDelete,
}: {
  permit: PermitListItem;
  showCompany: boolean;
  showProject: boolean;
  onDelete: (p: PermitListItem) => void;
}) {
  return (
    <tr className="permit-row" data-urgency={permit.urgency ?? undefined}>
      <td className={showProject ? "nowrap" : "nowrap indent"}>{permit.permit_number}</td>
      <td className="wide">
        {permit.permit_name}
        {permit.archived ? <span className="muted"> (archived)</span> : null}
        {/* Issue 28: found by what one of its files says. */}
        {permit.matched_document ? (
          <span className="muted block">Found in {permit.matched_document}</span>
        ) : null}
        {tasksDueText(permit.tasks) ? (
          <span className={permit.tasks.overdue ? "muted block tasks-overdue" : "muted block"}>
            {tasksDueText(permit.tasks)}
          </span>
        ) : null}
        {showProject ? (
          // The flat list has no group headers: the project and client go under the name.
          <span className="muted block">
            <ProjectCellLink project={permit.project} />
            {permit.client ? ` · ${permit.client.name}` : null}
          </span>
        ) : null}
      </td>
      <td className="agency">{permit.agency ?? "—"}</td>
      <td className="nowrap tight">{formatDay(permit.start_date) ?? "—"}</td>
      <td className="nowrap tight">{formatDay(permit.permit_application_date) ?? "—"}</td>
      <td className={permit.urgency ? "nowrap tight strong" : "nowrap tight"}>
        {formatDay(permit.expiration_date) ?? "—"}
        {permit.urgency ? <span className="sr-only">{` (${URGENCY_LABELS[permit.urgency]})`}</span> : null}
      </td>
      <td className="nowrap tight">
        <RenewByText permit={permit} />
      </td>
      <td className="tight">
        <ResponsibleText permit={permit} />
      </td>
      {showCompany ? <td>{permit.company.name}</td> : null}
      <td className="tight">
        <TypeIcon type={permit.record_type} />
      </td>
      <td className="tight">
        <CommentsLink permit={permit} />
      </td>
      <td className="actions">
        <PermitActions permit={permit} onDelete={onDelete} />
      </td>
    </tr>
  );
}

/** Styles of the plain permit rows, matching MUI's small table cells. */
const tableSx: SxProps<Theme> = [
  (theme) => ({
    minWidth: 960,
    // Narrower gutters than MUI's 16 px: a super-admin's ten columns fit at 1280 px (issue 14).
    "& thead th": { paddingLeft: "10px", paddingRight: "10px" },
    "& thead th.tight": { paddingLeft: "6px", paddingRight: "6px" },
    "& tr.permit-row > td": {
      ...theme.typography.body2,
      // 13 px, as dense tables go: a super-admin's thirteen columns fit 1280 px (issue 14).
      fontSize: "0.8125rem",
      padding: "6px 10px",
      borderBottom: `1px solid ${theme.palette.divider}`,
      verticalAlign: "middle",
      "&.nowrap": { whiteSpace: "nowrap" },
      "&.indent": { paddingLeft: "14px" },
      // 150, not 180: with Renew By and Responsible (issue 11) a company's table still fits 1280 px.
      "&.wide": { minWidth: 150 },
      "&.tight": { paddingLeft: "6px", paddingRight: "6px" },
      "&.agency": { minWidth: 120 },
      "&.strong": { fontWeight: 600 },
      "&.actions": { paddingTop: "2px", paddingBottom: "2px" },
    },
    "& tr.permit-row:hover": { backgroundColor: theme.palette.action.hover },
    "& .muted": { ...theme.typography.caption, color: theme.palette.text.secondary },
    "& .block": { display: "block" },
    // Issue 29: a permit with an overdue condition task says so in red under its name.
    "& .tasks-overdue": { color: theme.palette.error.main, fontWeight: 600 },
    "& .sr-only": visuallyHidden,
  }),
  urgencyRowsSx("tr.permit-row"),
  rowPartsSx,
  lifecyclePartsSx,
];
