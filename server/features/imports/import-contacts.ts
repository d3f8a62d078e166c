import type { Db } from "../../db/client.ts";
import type { ImportResult } from "../../../shared/schemas/imports.ts";
import { contactsByEmail, linkPermitContacts } from "../contacts/index.ts";
import type { ImportRow } from "./rows.ts";

/**
 * The 'contacts' column (issue 27): each e-mail must be a contact of the company (one read per 500
 * e-mails for the whole file). A row naming any other is rejected, naming the e-mail, as a row
 * whose responsible_email is nobody's: an e-mail alone makes no contact (no name, no kind), so the
 * import never adds one, unlike projects, clients and sureties, which a name makes whole.
 */
export async function matchContacts<R extends ImportRow>(
  db: Db,
  companyId: string,
  valid: R[],
  rejected: ImportResult["rejected"],
): Promise<{ valid: (R & { contactIds: string[] })[]; rejected: ImportResult["rejected"] }> {
  const found = await contactsByEmail(
    db,
    companyId,
    valid.flatMap((r) => r.contactEmails),
  );
  const kept: (R & { contactIds: string[] })[] = [];
  const refused = [...rejected];
  for (const row of valid) {
    const unknown = row.contactEmails.filter((e) => !found.has(e));
    if (unknown.length) {
      const list = unknown.map((e) => `'${e}'`).join(", ");
      refused.push({
        row: row.row,
        reason: `Row ${row.row}: contacts ${list} ${unknown.length === 1 ? "is not a contact" : "are not contacts"} of this company (add ${unknown.length === 1 ? "it" : "them"} on the Contacts page first)`,
      });
      continue;
    }
    kept.push({ ...row, contactIds: row.contactEmails.map((e) => found.get(e)!) });
  }
  refused.sort((a, b) => a.row - b.row);
  return { valid: kept, rejected: refused };
}

/** The imported permits' contacts, lined up with the inserted permits (one insert for the file). */
export async function linkImportedContacts(
  tx: Db,
  companyId: string,
  rows: { row: { contactIds: string[] } }[],
  created: { id: string }[],
) {
  const links = rows.flatMap(({ row }, i) =>
    row.contactIds.map((contactId) => ({ permitId: created[i]!.id, contactId })),
  );
  if (links.length) await linkPermitContacts(tx, companyId, links);
}
