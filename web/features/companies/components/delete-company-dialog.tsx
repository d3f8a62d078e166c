import type { Company, CompanyCounts } from "../../../../shared/schemas/companies.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { pluralLocale } from "../../../lib/format.ts";
import { useCompany } from "../api/get-company.ts";
import { useDeleteCompany } from "../api/delete-company.ts";

/** "3 users, 4 clients and 170 permits", leaving out what there is none of. */
export function describeCounts(counts: CompanyCounts): string | null {
  const parts = [
    counts.users && pluralLocale(counts.users, "user"),
    counts.clients && pluralLocale(counts.clients, "client"),
    counts.projects && pluralLocale(counts.projects, "project"),
    counts.permits && pluralLocale(counts.permits, "permit"),
  ].filter((p): p is string => !!p);
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * 'Really delete this company?' (spec section 8). When the company still has data, the dialog
 * says what goes with it, counted afresh when it opens; the server removes it all in one transaction.
 */
export function DeleteCompanyDialog({ company, onClose }: { company: Company | null; onClose: () => void }) {
  const remove = useDeleteCompany();
  // Not once the delete has started: a refresh of the removed company could only fail.
  const fresh = useCompany(remove.isIdle || remove.isError ? company?.id : undefined, { fresh: true });
  const counts = fresh.data?.counts ?? company?.counts;
  const removed = counts ? describeCounts(counts) : null;
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!company}
      title={company ? `Delete ${company.name}` : "Delete company"}
      message="Really delete this company?"
      details={
        removed
          ? `This permanently removes ${removed} of ${company?.name}, with their attachments, comments and settings. Its users are signed out.`
          : "It has no users, clients, projects or permits."
      }
      confirmLabel="Delete Company"
      isBusy={remove.isPending}
      error={remove.isError ? errorMessage(remove.error) : undefined}
      onClose={close}
      onConfirm={() => company && remove.mutate(company.id, { onSuccess: close })}
    />
  );
}
