/**
 * The compliance packet and status links (issue 30): their routes, and the monthly packet e-mail
 * the scheduler runs.
 */
export { packetsRoutes } from "./packets.routes.ts";
export { statusLinksRoutes } from "./status-links.routes.ts";
export { runMonthlyPackets, type PacketSendReport } from "./packet-deliveries.ts";
