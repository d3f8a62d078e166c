import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { CONTACT_KIND_LABELS } from "../../../../shared/domain/contacts.ts";
import type { Contact } from "../../../../shared/schemas/contacts.ts";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { plural } from "../../../lib/format.ts";

const dash = (v: string | null | undefined) => v || "—";

const mail = (email: string | null) =>
  email ? (
    <Link href={`mailto:${email}`} underline="hover">
      {email}
    </Link>
  ) : (
    "—"
  );

/**
 * The Contacts list (issue 27): Name, Organization, Kind, E-mail, Phone (and the Company for a
 * super-admin), with how many permits list each; Edit and Delete from the row's `can`. Cards on a
 * phone.
 */
export function ContactsTable({
  contacts,
  showCompany,
  onEdit,
  onDelete,
}: {
  contacts: Contact[];
  showCompany: boolean;
  onEdit: (c: Contact) => void;
  onDelete: (c: Contact) => void;
}) {
  const isPhone = useIsPhone();
  const actions = (c: Contact, isInline: boolean) => (
    <RowActions
      name={c.name}
      can={c.can}
      onEdit={() => onEdit(c)}
      onDelete={() => onDelete(c)}
      size={isInline ? undefined : "small"}
      isInline={isInline}
    />
  );
  const listedOn = (c: Contact) =>
    c.permit_count ? (
      <Typography component="span" variant="caption" sx={{ display: "block", color: "text.secondary" }}>
        On {plural(c.permit_count, "permit")}
      </Typography>
    ) : null;
  if (isPhone) {
    return (
      <RecordCards label="Contacts">
        {contacts.map((c) => {
          const fields: RecordField[] = [
            ...(showCompany ? [{ label: "Company", value: c.company_name }] : []),
            { label: "Organization", value: dash(c.organization) },
            { label: "Kind", value: CONTACT_KIND_LABELS[c.kind] },
            { label: "E-mail", value: mail(c.email) },
            { label: "Phone", value: dash(c.phone) },
          ];
          return (
            <RecordCard
              key={c.id}
              title={c.name}
              subtitle={listedOn(c)}
              fields={fields}
              actions={actions(c, true)}
            />
          );
        })}
      </RecordCards>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Contacts" sx={{ "& th": { whiteSpace: "nowrap" } }}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            {showCompany ? <TableCell>Company</TableCell> : null}
            <TableCell>Organization</TableCell>
            <TableCell>Kind</TableCell>
            <TableCell>E-mail</TableCell>
            <TableCell>Phone</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.map((c) => (
            <TableRow key={c.id} hover>
              <TableCell sx={{ fontWeight: 500, overflowWrap: "anywhere", minWidth: 140 }}>
                {c.name}
                {listedOn(c)}
              </TableCell>
              {showCompany ? <TableCell>{c.company_name}</TableCell> : null}
              <TableCell sx={{ overflowWrap: "anywhere" }}>{dash(c.organization)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{CONTACT_KIND_LABELS[c.kind]}</TableCell>
              <TableCell sx={{ overflowWrap: "anywhere" }}>{mail(c.email)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{dash(c.phone)}</TableCell>
              {actions(c, false)}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
