import { eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canWriteLedger } from "../../access/policies/bond.ts";
import { lifecycleRefusal } from "../../access/policies/lifecycle.ts";
import type { Db } from "../../db/client.ts";
import { requestFiles } from "../../db/schema.ts";
import { allow } from "../../errors.ts";
import { companyToday } from "../../time/company-today.ts";
import { DOCUMENT_KIND_LABELS, type DocumentKind } from "../../../shared/domain/document-requests.ts";
import { ReleaseInputSchema, RiderInputSchema } from "../../../shared/schemas/bond-ledger.ts";
import { RenewalInputSchema } from "../../../shared/schemas/lifecycle.ts";
import { attachStoredFile } from "../attachments/index.ts";
import { addLedgerEntry, lockBondWithLedger } from "../bonds/index.ts";
import { renewPermit } from "../lifecycle/index.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { partyLabel } from "./create-request.ts";
import type { RequestRow } from "./request-view.ts";

type FileRow = typeof requestFiles.$inferSelect;

/**
 * Puts the party's files on the permit as attachments (a permit's files, or a bond's ledger
 * documents) and marks each request file with its attachment; returns the attachments' ids in order.
 */
async function attachAll(
  tx: Db,
  actor: Actor,
  permit: { id: string; companyId: string },
  files: readonly FileRow[],
  kind: "file" | "ledger_document",
): Promise<string[]> {
  const ids: string[] = [];
  for (const f of files) {
    const attachment = await attachStoredFile(
      tx,
      actor,
      permit,
      { key: f.storageKey, size: f.size, sha256: f.sha256, filename: f.filename, contentType: f.contentType },
      kind,
    );
    await tx.update(requestFiles).set({ attachmentId: attachment.id }).where(eq(requestFiles.id, f.id));
    ids.push(attachment.id);
  }
  return ids;
}

/**
 * An approved submission applied through the paths staff use by hand, in the review's transaction
 * (the request already locked and checked): a renewed permit with its new expiration date becomes
 * a new term (the lifecycle's renew, same rules: a closed permit refuses); a rider with its amount
 * and effective date, or a release letter, becomes a bond ledger entry (the bonds' ledger writer,
 * same rules) with the first file as its document; anything else, and every file, an attachment.
 */
export async function applyApproval(
  tx: Db,
  actor: Actor,
  r: RequestRow,
  values: Record<string, string>,
  files: readonly FileRow[],
): Promise<void> {
  const kind = r.documentKind as DocumentKind;
  const reason = `${DOCUMENT_KIND_LABELS[kind]} from ${partyLabel(r)} (document request)`;

  if (kind === "renewed_permit" && values.new_expiration_date) {
    const permit = await findVisiblePermit(tx, actor, r.permitId, { forUpdate: true });
    allow(lifecycleRefusal("renew", actor, permit));
    const renewed = await renewPermit(
      tx,
      actor,
      permit,
      RenewalInputSchema.parse({
        new_expiration_date: values.new_expiration_date,
        new_permit_number: values.new_permit_number ?? null,
      }),
    );
    await attachAll(tx, actor, renewed, files, "file");
    return;
  }

  const ledgerStep =
    kind === "bond_rider" && values.amount && values.effective_date
      ? "rider"
      : kind === "release_letter"
        ? "release"
        : null;
  if (ledgerStep) {
    const locked = await lockBondWithLedger(tx, actor, r.permitId);
    allow(canWriteLedger(actor, locked.bond));
    const [documentId] = await attachAll(tx, actor, locked.bond, files, "ledger_document");
    const input =
      ledgerStep === "rider"
        ? RiderInputSchema.parse({
            kind: "rider",
            change: values.amount,
            effective_date: values.effective_date,
            reason,
            document_id: documentId,
          })
        : ReleaseInputSchema.parse({
            kind: "release",
            effective_date: await companyToday(tx, r.companyId),
            reason,
            document_id: documentId,
          });
    await addLedgerEntry(tx, actor, locked, input);
    return;
  }

  const permit = await findVisiblePermit(tx, actor, r.permitId, { forUpdate: true });
  await attachAll(tx, actor, permit, files, "file");
}
