import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import {
  CONTACT_KIND_LABELS,
  CONTACT_KINDS,
  CONTACT_LIMITS,
  type ContactKind,
} from "../../../../shared/domain/contacts.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";
import type { Contact } from "../../../../shared/schemas/contacts.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { ListPagination } from "../../../components/list-pagination.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { plural } from "../../../lib/format.ts";
import { useCan } from "../../../lib/session.tsx";
import { useUrlListState } from "../../../lib/url-list-state.ts";
import { CompanySelect } from "../../companies/index.ts";
import { useDeleteContact } from "../api/delete-contact.ts";
import { useContacts } from "../api/list-contacts.ts";
import { ContactDialog } from "./contact-dialog.tsx";
import { ContactsTable } from "./contacts-table.tsx";

const isKind = (v: string | null): v is ContactKind =>
  !!v && (CONTACT_KINDS as readonly string[]).includes(v);

/**
 * Contacts (/admin/contacts, issue 27): the company's outside people for company-admins and
 * super-admins (every company's, or the one chosen). Search, Kind and the page live in the URL;
 * 'Add Contact' and 'Edit' open the contact dialog; Delete asks first and says which permits lose
 * the contact.
 */
export function ContactsScreen() {
  const canManage = useCan("contacts.manage");
  const isSuperAdmin = useCan("allCompanies");
  const { params, page, pageSize, search, setSearch, setParam, clear } = useUrlListState("q");
  const kindParam = params.get("kind");
  const kind = isKind(kindParam) ? kindParam : "";
  const companyId = isSuperAdmin ? (params.get("company") ?? "") : "";
  const [editing, setEditing] = useState<Contact | "new" | null>(null);
  const [toDelete, setToDelete] = useState<Contact | null>(null);
  const remove = useDeleteContact();

  const contacts = useContacts(
    { companyId: companyId || null, q: params.get("q") ?? "", kind, page, pageSize },
    { enabled: canManage },
  );
  if (!canManage) return <AccessDenied />;

  const data = contacts.data;
  const isFiltered = !!(params.get("q") || kind || companyId);
  const closeDelete = () => {
    setToDelete(null);
    remove.reset();
  };
  return (
    <>
      <PageHeader
        title="Contacts"
        actions={
          data?.can.create !== false ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
              Add Contact
            </Button>
          ) : null
        }
      />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        The people outside your company that permits and bonds name: agency desks, surety agents,
        subcontractors and owners. Pick them on a permit's form; their e-mails go with the permit export.
      </Typography>
      <Box
        role="search"
        sx={{
          display: "grid",
          gridTemplateColumns: { xs: "1fr", sm: isSuperAdmin ? "2fr 1fr 1fr" : "2fr 1fr" },
          gap: 1.5,
          mb: 2,
          maxWidth: 900,
        }}
      >
        <TextField
          label="Search contacts"
          placeholder="Name, e-mail, organization or phone"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          size="small"
          slotProps={{
            htmlInput: { maxLength: CONTACT_LIMITS.search },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          select
          label="Kind"
          value={kind}
          onChange={(e) => setParam({ kind: e.target.value })}
          size="small"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">All kinds</MenuItem>
          {CONTACT_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {CONTACT_KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        {isSuperAdmin ? (
          <CompanySelect
            value={companyId}
            onChange={(id) => setParam({ company: id })}
            allLabel="All companies"
            placeholder="All companies"
            size="small"
          />
        ) : null}
      </Box>
      {contacts.isPending ? (
        <PageSpinner label="Loading contacts..." />
      ) : contacts.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(contacts.error)}
        </Typography>
      ) : !data || data.contacts.length === 0 ? (
        <Paper variant="outlined">
          <ListEmptyState
            text={isFiltered ? EMPTY_STATES.contacts.filtered : EMPTY_STATES.contacts.none}
            onClear={isFiltered ? clear : undefined}
          />
        </Paper>
      ) : (
        <>
          <ContactsTable
            contacts={data.contacts}
            showCompany={isSuperAdmin && !companyId}
            onEdit={(c) => setEditing(c)}
            onDelete={(c) => setToDelete(c)}
          />
          <ListPagination total={data.total} page={page} pageSize={pageSize} setParam={setParam} />
        </>
      )}
      <ContactDialog
        open={editing !== null}
        contact={editing === "new" ? null : editing}
        companyId={companyId}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={!!toDelete}
        title="Delete contact"
        message={`Delete the contact "${toDelete?.name ?? ""}"?`}
        details={
          toDelete?.permit_count
            ? `It is listed on ${plural(toDelete.permit_count, "permit")}; it will be taken off ${toDelete.permit_count === 1 ? "it" : "them"}.`
            : undefined
        }
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={closeDelete}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: closeDelete })}
      />
    </>
  );
}
