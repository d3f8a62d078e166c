import { Link as RouterLink, useLocation } from "react-router";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { lighten, useTheme } from "@mui/material/styles";
import { visuallyHidden } from "@mui/utils";
import { BOND_SORT_FIELDS, type BondSortField } from "../../../../shared/domain/bonds.ts";
import type { BondListItem, BondListQuery } from "../../../../shared/schemas/bonds.ts";
import { RecordCard, RecordCards, type RecordField } from "../../../components/record-cards.tsx";
import { fromList } from "../../../lib/back-link.ts";
import { formatAmount, formatDayOrDash } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { BondStatusChip } from "../../bond-ledger/index.ts";
import { URGENCY_LABELS, urgencyRowsSx } from "../../permits/index.ts";
import { nextBondSort } from "./bond-list-params.ts";

export interface BondsViewProps {
  items: BondListItem[];
  query: BondListQuery;
  showCompany: boolean;
  /** Collateral is staff-only: the column shows when the API sends it. */
  showCollateral: boolean;
  onSort: (sort: BondSortField | undefined, dir: BondListQuery["dir"]) => void;
}

const SORT_LABELS: Record<BondSortField, string> = {
  permit_number: "Permit #",
  permit_name: "Bond name",
  bond_number: "Bond #",
  surety: "Surety",
  client: "Client",
  project: "Project",
  agency: "Obligee",
  guarantee_type: "Type",
  status: "Status",
  bond_amount: "Original amount",
  current_amount: "Current amount",
  issue_date: "Issued",
  expiration_date: "Expires",
};

interface Column {
  label: string;
  sort?: BondSortField;
  align?: "right";
  staffOnly?: boolean;
}

const COLUMNS: Column[] = [
  { label: "Bond", sort: "permit_name" },
  { label: "Surety", sort: "surety" },
  { label: "Client / Project", sort: "client" },
  { label: "Obligee", sort: "agency" },
  { label: "Type", sort: "guarantee_type" },
  { label: "Status", sort: "status" },
  { label: "Original", sort: "bond_amount", align: "right" },
  { label: "Current", sort: "current_amount", align: "right" },
  { label: "Expires", sort: "expiration_date" },
  { label: "Collateral", align: "right", staffOnly: true },
];

/** "P-1042 · Bond 88-1234": the permit number and the surety's bond number. */
const numbers = (b: BondListItem) =>
  [b.permit_number, b.bond_number ? `Bond ${b.bond_number}` : null].filter(Boolean).join(" · ");

function BondName({ bond }: { bond: BondListItem }) {
  const theme = useTheme();
  // The bond's page returns here, filters and all ("Back to Bonds").
  const location = useLocation();
  return (
    <Link
      component={RouterLink}
      to={paths.permit(bond.id)}
      state={fromList(location)}
      sx={{
        fontWeight: 600,
        overflowWrap: "anywhere",
        // On the dark theme's red "expired" rows the brand green needs its lighter shade (4.5:1).
        ...(theme.palette.mode === "dark" ? { color: "primary.light" } : {}),
      }}
    >
      {bond.permit_name}
    </Link>
  );
}

function Expiry({ bond }: { bond: BondListItem }) {
  return (
    <>
      {formatDayOrDash(bond.expiration_date)}
      {/* Expired shows in the status ("Active · past expiry"), not a second time here. */}
      {bond.urgency === "expiring" ? (
        <Typography
          component="span"
          variant="caption"
          // The darker shades: 4.5:1 on the rows' pink (light theme), the lighter ones on the dark theme.
          sx={(t) => ({
            display: "block",
            fontWeight: 600,
            color:
              t.palette.mode === "dark" ? lighten(t.palette.warning.light, 0.35) : t.palette.warning.dark,
          })}
        >
          Expiring soon
        </Typography>
      ) : null}
    </>
  );
}

/** The row's one status: "Active · past expiry" once an open bond's date has passed (issue 25). */
const Status = ({ bond }: { bond: BondListItem }) =>
  bond.status ? <BondStatusChip status={bond.status} pastExpiry={bond.urgency === "expired"} /> : <>—</>;

const linkedNote = (b: BondListItem) =>
  b.maintenance_of_id
    ? "Follows a performance bond"
    : b.maintenance_bond_id
      ? "Has a maintenance bond"
      : null;

/** The Bonds table (laptop and wider): sortable columns, one row per bond, highlighted like the permits list. */
export function BondsTable({ items, query, showCompany, showCollateral, onSort }: BondsViewProps) {
  const columns = COLUMNS.filter((c) => showCollateral || !c.staffOnly);
  return (
    <TableContainer>
      <Table
        size="small"
        aria-label="Bonds"
        sx={[
          {
            "& td, & th": { px: 1.25 },
            "& td": { fontSize: "0.8125rem", verticalAlign: "top" },
            "& .muted": { display: "block", color: "text.secondary", fontSize: "0.75rem" },
          },
          urgencyRowsSx("tr.bond-row"),
        ]}
      >
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell
                key={c.label}
                align={c.align}
                sortDirection={c.sort && query.sort === c.sort ? query.dir : false}
                sx={{ fontWeight: 600, whiteSpace: "nowrap" }}
              >
                {c.sort ? (
                  <TableSortLabel
                    active={query.sort === c.sort}
                    direction={query.sort === c.sort ? query.dir : "asc"}
                    onClick={() => {
                      const next = nextBondSort(query, c.sort!);
                      onSort(next.sort, next.dir);
                    }}
                  >
                    {c.label}
                  </TableSortLabel>
                ) : (
                  c.label
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((b) => (
            <TableRow key={b.id} hover className="bond-row" data-urgency={b.urgency ?? undefined}>
              <TableCell sx={{ minWidth: 200 }}>
                <BondName bond={b} />
                <span className="muted">{numbers(b)}</span>
                {linkedNote(b) ? <span className="muted">{linkedNote(b)}</span> : null}
              </TableCell>
              <TableCell sx={{ minWidth: 110 }}>{b.surety?.name ?? "—"}</TableCell>
              <TableCell sx={{ minWidth: 150 }}>
                {b.client?.name ?? "No client"}
                <span className="muted">{b.project?.name ?? "No project"}</span>
                {showCompany ? <span className="muted">{b.company.name}</span> : null}
              </TableCell>
              <TableCell sx={{ minWidth: 110 }}>{b.agency ?? "—"}</TableCell>
              <TableCell>{b.guarantee_type ?? "—"}</TableCell>
              <TableCell>
                <Status bond={b} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {formatAmount(b.original_amount, b.currency) ?? "—"}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap", fontWeight: 600 }}>
                {formatAmount(b.current_amount, b.currency) ?? "—"}
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <Expiry bond={b} />
                {b.urgency === "expiring" ? (
                  <Box component="span" sx={visuallyHidden}>{` (${URGENCY_LABELS.expiring})`}</Box>
                ) : null}
              </TableCell>
              {showCollateral ? (
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {b.collateral_held && Number(b.collateral_held) > 0
                    ? formatAmount(b.collateral_held, b.currency)
                    : "—"}
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The Bonds list on a phone: a Sort by choice and one card per bond, every field labelled. */
export function BondCards({ items, query, showCompany, showCollateral, onSort }: BondsViewProps) {
  const sortValue = query.sort ? `${query.sort}:${query.dir}` : "";
  return (
    <Box sx={{ p: 1.5 }}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={sortValue}
        onChange={(e) => {
          const [field, dir] = e.target.value.split(":") as [BondSortField | "", "asc" | "desc" | undefined];
          onSort(field || undefined, dir ?? "asc");
        }}
        sx={{ mb: 1.5, minWidth: 220, maxWidth: "100%" }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">Expiration date (soonest first)</MenuItem>
        {BOND_SORT_FIELDS.flatMap((f) =>
          (["asc", "desc"] as const).map((dir) => (
            <MenuItem key={`${f}:${dir}`} value={`${f}:${dir}`}>
              {SORT_LABELS[f]} {dir === "asc" ? "(ascending)" : "(descending)"}
            </MenuItem>
          )),
        )}
      </TextField>
      <RecordCards label="Bonds">
        {items.map((b) => {
          const fields: RecordField[] = [
            { label: "Status", value: <Status bond={b} /> },
            { label: "Current", value: formatAmount(b.current_amount, b.currency) ?? "—" },
            { label: "Original", value: formatAmount(b.original_amount, b.currency) ?? "—" },
            { label: "Surety", value: b.surety?.name ?? "—" },
            { label: "Client", value: b.client?.name ?? "No client" },
            { label: "Project", value: b.project?.name ?? "No project" },
            { label: "Obligee", value: b.agency ?? "—" },
            { label: "Type", value: b.guarantee_type ?? "—" },
            { label: "Expires", value: <Expiry bond={b} /> },
            ...(showCollateral
              ? [
                  {
                    label: "Collateral",
                    value:
                      b.collateral_held && Number(b.collateral_held) > 0
                        ? formatAmount(b.collateral_held, b.currency)
                        : "—",
                  },
                ]
              : []),
            ...(showCompany ? [{ label: "Company", value: b.company.name }] : []),
          ];
          return (
            <RecordCard key={b.id} title={<BondName bond={b} />} subtitle={numbers(b)} fields={fields} />
          );
        })}
      </RecordCards>
    </Box>
  );
}
