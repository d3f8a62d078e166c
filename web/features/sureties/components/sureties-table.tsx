import { useState } from "react";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { percentOfLimit, SURETY_WARNING_PERCENT } from "../../../../shared/domain/bonds.ts";
import type { Surety } from "../../../../shared/schemas/bonds.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatAmount, formatCount, formatPercent, plural } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { useDeleteSurety } from "../api/delete-surety.ts";

const dash = (v: string | null | undefined) => v || "—";

/** A surety bonds name cannot be deleted: Delete says so up front (issue 25), from the row's count. */
const inUse = (s: Surety) => (s.bond_count ? `In use by ${plural(s.bond_count, "bond")}` : null);

/** Open exposure, and the share of the aggregate limit it uses (warning colour over 80 %). */
function Exposure({ surety, currency }: { surety: Surety; currency: string }) {
  if (surety.open_exposure === null) return <>—</>;
  const percent = percentOfLimit(surety.open_exposure, surety.aggregate_limit);
  const isHigh = percent !== null && percent > SURETY_WARNING_PERCENT;
  return (
    <>
      {formatAmount(surety.open_exposure, currency)}
      {percent !== null ? (
        <Typography
          component="span"
          variant="caption"
          sx={{
            display: "block",
            color: isHigh ? "warning.main" : "text.secondary",
            fontWeight: isHigh ? 600 : 400,
          }}
        >
          {formatPercent(percent / 100)} of aggregate
          {isHigh ? ` (over ${formatPercent(SURETY_WARNING_PERCENT / 100)})` : ""}
        </Typography>
      ) : null}
    </>
  );
}

/**
 * The Surety Admin list: Name, Contact, Phone, E-mail, Single Limit, Aggregate Limit, with the
 * open exposure against the aggregate limit and the bonds naming each; Edit and Delete from the
 * row's `can`; a surety bonds name shows Delete disabled with why ("In use by 2 bonds"). A delete
 * the server still refuses (a bond added meanwhile: 409) shows its message in the dialog.
 */
export function SuretiesTable({
  sureties,
  showCompany,
  companyName,
  currencyOf,
}: {
  sureties: Surety[];
  showCompany: boolean;
  companyName: (companyId: string) => string;
  currencyOf: (companyId: string) => string;
}) {
  const [toDelete, setToDelete] = useState<Surety | null>(null);
  const remove = useDeleteSurety();
  const isPhone = useIsPhone();
  const close = () => {
    setToDelete(null);
    remove.reset();
  };
  const money = (s: Surety, amount: string | null) => formatAmount(amount, currencyOf(s.company_id)) ?? "—";
  const actions = (s: Surety, isInline: boolean) => (
    <RowActions
      name={s.name}
      can={s.can}
      editTo={paths.editSurety(s.id)}
      onDelete={() => setToDelete(s)}
      deleteBlockedBy={inUse(s)}
      size={isInline ? undefined : "small"}
      isInline={isInline}
    />
  );
  return (
    <>
      {isPhone ? (
        <RecordCards label="Sureties">
          {sureties.map((s) => {
            const fields: RecordField[] = [
              ...(showCompany ? [{ label: "Company", value: companyName(s.company_id) }] : []),
              { label: "Contact", value: dash(s.contact_name) },
              { label: "Phone", value: dash(s.phone) },
              { label: "E-mail", value: dash(s.email) },
              { label: "Single Limit", value: money(s, s.single_limit) },
              { label: "Aggregate Limit", value: money(s, s.aggregate_limit) },
              { label: "Open Exposure", value: <Exposure surety={s} currency={currencyOf(s.company_id)} /> },
              { label: "Bonds", value: s.bond_count === null ? "—" : formatCount(s.bond_count) },
            ];
            return <RecordCard key={s.id} title={s.name} fields={fields} actions={actions(s, true)} />;
          })}
        </RecordCards>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Sureties" sx={{ "& th": { whiteSpace: "nowrap" } }}>
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                {showCompany ? <TableCell>Company</TableCell> : null}
                <TableCell>Contact</TableCell>
                <TableCell>Phone</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell align="right">Single Limit</TableCell>
                <TableCell align="right">Aggregate Limit</TableCell>
                <TableCell align="right">Open Exposure</TableCell>
                <TableCell align="right">Bonds</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sureties.map((s) => (
                <TableRow key={s.id} hover>
                  <TableCell sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{s.name}</TableCell>
                  {showCompany ? <TableCell>{companyName(s.company_id)}</TableCell> : null}
                  <TableCell sx={{ minWidth: 110 }}>{dash(s.contact_name)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{dash(s.phone)}</TableCell>
                  <TableCell sx={{ overflowWrap: "anywhere" }}>{dash(s.email)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {money(s, s.single_limit)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {money(s, s.aggregate_limit)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    <Exposure surety={s} currency={currencyOf(s.company_id)} />
                  </TableCell>
                  <TableCell align="right">
                    {s.bond_count === null ? "—" : formatCount(s.bond_count)}
                  </TableCell>
                  {actions(s, false)}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={!!toDelete}
        title="Delete surety"
        message={`Delete the surety "${toDelete?.name ?? ""}"?`}
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={close}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: close })}
      />
    </>
  );
}
