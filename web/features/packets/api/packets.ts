import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import type { StatusLink } from "../../../../shared/schemas/compliance.ts";

// The compliance packet, status links and the monthly packet's recipients (issue 30), staff side.

export type PacketOwner = { kind: "projects" | "clients"; id: string; name: string };

export const packetUrl = (owner: PacketOwner) => `/api/${owner.kind}/${owner.id}/compliance-packet.pdf`;
const linksKey = (owner: PacketOwner) => ["status-links", owner.kind, owner.id] as const;
const recipientsKey = (projectId: string) => ["packet-recipients", projectId] as const;

export function useStatusLinks(owner: PacketOwner, enabled: boolean) {
  return useQuery({
    queryKey: linksKey(owner),
    queryFn: () => api.get<{ links: StatusLink[] }>(`/api/${owner.kind}/${owner.id}/status-links`),
    enabled,
    // Views counted since the dialog was last open show when it opens again.
    refetchOnMount: "always",
  });
}

export function useCreateStatusLink(owner: PacketOwner) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (days: number) =>
      api.post<{ link: StatusLink; url: string }>(`/api/${owner.kind}/${owner.id}/status-links`, {
        expires_in_days: days,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: linksKey(owner) }),
  });
}

export function useRevokeStatusLink(owner: PacketOwner) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) =>
      api.post<{ link: StatusLink }>(`/api/${owner.kind}/${owner.id}/status-links/${linkId}/revoke`),
    onSuccess: () => client.invalidateQueries({ queryKey: linksKey(owner) }),
  });
}

export function usePacketRecipients(projectId: string) {
  return useQuery({
    queryKey: recipientsKey(projectId),
    queryFn: () =>
      api.get<{ emails: string[]; can: { download: boolean; share: boolean; recipients: boolean } }>(
        `/api/projects/${projectId}/packet-recipients`,
      ),
  });
}

export function useSavePacketRecipients(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (emails: string[]) =>
      api.put<{ emails: string[] }>(`/api/projects/${projectId}/packet-recipients`, { emails }),
    onSuccess: () => client.invalidateQueries({ queryKey: recipientsKey(projectId) }),
  });
}
