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
import type {
  PermitGroup,
  PermitListItem,
  PermitListQuery,
  PermitSortField,
} from "../../../../shared/schemas/permits.ts";
import { formatDay } from "./format.ts";
import { nextSort } from "./list-params.ts";
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

interface Column {
  label: string;
  sort?: PermitSortField;
  companyOnly?: boolean;
  /** Shown to screen readers only (icon columns). */
  hiddenLabel?: boolean;
}

/** The columns of spec section 2, in order; Company only for a super-admin. */
const COLUMNS: Column[] = [
  { label: "Permit #", sort: "permit_number" },
  { label: "Permit Name", sort: "permit_name" },
  { label: "Agency", sort: "agency" },
  { label: "Start Date" },
  { label: "App Date", sort: "permit_application_date" },
  { label: "Expires", sort: "expiration_date" },
  { label: "Company", companyOnly: true },
  { label: "Type", hiddenLabel: true },
  { label: "Comments", hiddenLabel: true },
  { label: "Actions" },
];

export interface PermitsViewProps {
  groups: PermitGroup[];
  query: PermitListQuery;
  showCompany: boolean;
  /** No field: back to creation order. */
  onSort: (field: PermitSortField | undefined, dir: PermitListQuery["dir"]) => void;
  onDelete: (permit: PermitListItem) => void;
}

/** The All Permits table (laptop and wider), grouped by client then project. */
export function PermitsTable({ groups, query, showCompany, onSort, onDelete }: PermitsViewProps) {
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
                sx={{ fontWeight: 600, whiteSpace: "nowrap" }}
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
          {groups.map((group) => (
            <Fragment key={group.client?.id ?? "no-client"}>
              <TableRow>
                <TableCell
                  colSpan={columns.length}
                  component="th"
                  scope="colgroup"
                  sx={{ bgcolor: "action.selected", py: 1 }}
                >
                  <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
                    {group.client?.name ?? "No client"}
                  </Typography>
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
  onDelete,
}: {
  permit: PermitListItem;
  showCompany: boolean;
  onDelete: (p: PermitListItem) => void;
}) {
  return (
    <tr className="permit-row" data-urgency={permit.urgency ?? undefined}>
      <td className="nowrap indent">{permit.permit_number}</td>
      <td className="wide">
        {permit.permit_name}
        {permit.archived ? <span className="muted"> (archived)</span> : null}
      </td>
      <td className="agency">{permit.agency ?? "—"}</td>
      <td className="nowrap">{formatDay(permit.start_date)}</td>
      <td className="nowrap">{formatDay(permit.permit_application_date)}</td>
      <td className={permit.urgency ? "nowrap strong" : "nowrap"}>
        {formatDay(permit.expiration_date)}
        {permit.urgency ? <span className="sr-only">{` (${URGENCY_LABELS[permit.urgency]})`}</span> : null}
      </td>
      {showCompany ? <td>{permit.company.name}</td> : null}
      <td>
        <TypeIcon type={permit.record_type} />
      </td>
      <td>
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
    "& tr.permit-row > td": {
      ...theme.typography.body2,
      padding: "6px 16px",
      borderBottom: `1px solid ${theme.palette.divider}`,
      verticalAlign: "middle",
      "&.nowrap": { whiteSpace: "nowrap" },
      "&.indent": { paddingLeft: "24px" },
      "&.wide": { minWidth: 180 },
      "&.agency": { minWidth: 140 },
      "&.strong": { fontWeight: 600 },
      "&.actions": { paddingTop: "2px", paddingBottom: "2px" },
    },
    "& tr.permit-row:hover": { backgroundColor: theme.palette.action.hover },
    "& .muted": { ...theme.typography.caption, color: theme.palette.text.secondary },
    "& .sr-only": visuallyHidden,
  }),
  urgencyRowsSx("tr.permit-row"),
  rowPartsSx,
];
