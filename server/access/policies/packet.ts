import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

// The compliance packet, the status links and the monthly packet e-mail (issue 30).

/** What these rules need of a project or a client: its company and client. */
export interface PacketTarget {
  companyId: string;
  clientId: string | null;
}

/**
 * The packet is what the dashboard shows, as a PDF: whoever reads the project (or the client's
 * permits: a client-user its own clients) may download it.
 */
export const canDownloadPacket = (actor: Actor, target: PacketTarget) =>
  actorCan(actor, "permits.view") && withinScope(actor, target);

/** Sharing a status link with outsiders is the company's staff's decision (never a client-user's). */
export const canShareStatus = (actor: Actor, target: PacketTarget) =>
  actorCan(actor, "permits.edit") && withinScope(actor, target);

/** Who gets the monthly packet: those who manage projects. */
export const canManagePacketRecipients = (actor: Actor, target: PacketTarget) =>
  actorCan(actor, "projects.manage") && withinScope(actor, target);

/** The `can` flags the dashboard's buttons show from. */
export const packetCan = (actor: Actor, target: PacketTarget) => ({
  download: canDownloadPacket(actor, target),
  share: canShareStatus(actor, target),
  recipients: canManagePacketRecipients(actor, target),
});
