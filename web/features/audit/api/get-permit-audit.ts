import { useQuery } from "@tanstack/react-query";
import { auditText, type AuditText } from "../../../../shared/domain/audit-text.ts";
import type { AuditEntry, AuditList } from "../../../../shared/schemas/audit.ts";
import { api } from "../../../lib/api.ts";
import { BROWSER_LOCALE } from "../../../lib/format.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** An entry with its words: labels, names, dates and amounts as the screens show them (issue 25). */
export interface AuditRow extends AuditEntry {
  text: AuditText;
}

/**
 * GET /api/permits/:id/audit (newest first), for the Audit Trail card and the form's list: each
 * entry in words (shared/domain/audit-text.ts), its amounts in the permit's company's currency.
 */
export function usePermitAudit(id: string) {
  return useQuery({
    queryKey: permitKeys.audit(id),
    queryFn: ({ signal }) => api.get<AuditList>(`/api/permits/${id}/audit`, { signal }),
    select: inWords,
  });
}

/** Module-level, so the query runs it once per answer rather than once per render. */
const inWords = (data: AuditList): AuditRow[] =>
  data.entries.map((e) => ({
    ...e,
    text: auditText(e, { currency: data.currency, locale: BROWSER_LOCALE }),
  }));
