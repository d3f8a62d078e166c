// The api-keys feature's public face (issue 30): its screen is reached through the route table only.
export { apiKeysQueryKey } from "./api/list-api-keys.ts";
