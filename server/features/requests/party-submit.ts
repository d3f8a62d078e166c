import { and, eq, isNull } from "drizzle-orm";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { documentRequests, requestFiles, requestSubmissions } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import {
  REQUEST_FIELD_LABELS,
  documentLabel,
  type DocumentKind,
  type RequestField,
} from "../../../shared/domain/document-requests.ts";
import { requestValueError, type SubmitInput } from "../../../shared/schemas/document-requests.ts";
import { rawAmount } from "../../../shared/schemas/fields.ts";
import { LinkGone } from "./link-gone.ts";
import { emitRequestEvent } from "./request-events.ts";
import {
  assertAcceptsFiles,
  AWAITING_REVIEW,
  goneState,
  partyActor,
  permitOfLink,
  type LinkContext,
} from "./public-link.ts";

/** Fields a party may leave empty (the permit number may stay what it was). */
const OPTIONAL_FIELDS: readonly RequestField[] = ["new_permit_number"];
export const FILE_NEEDED = "Add at least one file before you submit.";

/**
 * The values as the request allows them: only its fields (any other key is refused, never
 * ignored), each checked by its kind; dates and amounts normalised.
 */
export function checkValues(
  asked: readonly RequestField[],
  values: Record<string, string>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const out: Record<string, string> = {};
  for (const key of Object.keys(values)) {
    if (!asked.includes(key as RequestField)) errors[key] = "This request does not ask for this field";
  }
  for (const field of asked) {
    const value = values[field]?.trim() ?? "";
    if (!value && OPTIONAL_FIELDS.includes(field)) continue;
    const error = requestValueError(field, value);
    if (error) errors[field] = error;
    else out[field] = field === "amount" ? rawAmount(value) : value;
  }
  if (Object.keys(errors).length) throw validation(errors);
  return out;
}

/**
 * 'Submit': the party's values and the files it added since the last review become one submission
 * awaiting review, with the request locked; the unique pending index lets one of two parallel
 * submits through.
 */
export async function submitAnswer(db: Db, link: LinkContext, input: SubmitInput): Promise<void> {
  await db.transaction(async (tx) => {
    const [r] = await tx
      .select()
      .from(documentRequests)
      .where(eq(documentRequests.id, link.request.id))
      .for("update");
    if (!r) throw notFound("Request");
    const gone = goneState(r);
    if (gone) throw new LinkGone(gone, link.company.name);
    assertAcceptsFiles(r);
    if (r.status === "submitted") throw conflict(AWAITING_REVIEW);
    const values = checkValues(r.fields as RequestField[], input.values);
    const loose = await tx
      .select({ id: requestFiles.id })
      .from(requestFiles)
      .where(and(eq(requestFiles.requestId, r.id), isNull(requestFiles.submissionId)));
    if (!loose.length) throw validation({ file: FILE_NEEDED }, FILE_NEEDED);
    let submissionId: string;
    try {
      const [s] = await tx
        .insert(requestSubmissions)
        .values({ companyId: r.companyId, requestId: r.id, values })
        .returning({ id: requestSubmissions.id });
      submissionId = s!.id;
    } catch (err) {
      if (uniqueViolation(err)) throw conflict(AWAITING_REVIEW);
      throw err;
    }
    await tx
      .update(requestFiles)
      .set({ submissionId })
      .where(and(eq(requestFiles.requestId, r.id), isNull(requestFiles.submissionId)));
    const [submitted] = await tx
      .update(documentRequests)
      .set({ status: "submitted", submittedAt: new Date(), updatedAt: new Date() })
      .where(eq(documentRequests.id, r.id))
      .returning();
    const typed = Object.entries(values)
      .map(([k, v]) => `${REQUEST_FIELD_LABELS[k as RequestField]}: ${v}`)
      .join("; ");
    await recordPermitAudit(tx, partyActor(r), permitOfLink(link), [
      {
        action: "request_submitted",
        field: "document_request",
        newValue: documentLabel(r.documentKind as DocumentKind, r.title),
      },
      // What the party typed is for staff; a client-user's trail leaves it out.
      ...(typed
        ? [{ action: "request_submitted", field: "request_values", newValue: typed, internal: true }]
        : []),
    ]);
    await emitRequestEvent(tx, link.company.id, "request.submitted", submitted!);
  });
}
