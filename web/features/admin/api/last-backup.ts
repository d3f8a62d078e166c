import { useQuery } from "@tanstack/react-query";
import type { BackupStatus } from "../../../../shared/schemas/backups.ts";
import { api } from "../../../lib/api.ts";

export const lastBackupQueryKey = ["admin", "backups", "last"] as const;

/** GET /api/admin/backups/last: the last backup's time, size and result (super-admin only, issue 26). */
export function useLastBackup({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: lastBackupQueryKey,
    queryFn: ({ signal }) => api.get<BackupStatus>("/api/admin/backups/last", { signal }),
    enabled,
  });
}
