/** The compliance packet and status links (issue 30): the buttons other screens show. */
export { ClientPacketActions, ClientPacketLink, ProjectPacketActions } from "./components/packet-actions.tsx";
