// The clients feature's public face: what other features may use.
export { clientsQueryKey, useClients } from "./api/list-clients.ts";
