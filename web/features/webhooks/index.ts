// The webhooks feature's public face (issue 30, items 3 and 4): its screens are reached through the route table only.
export { webhooksQueryKey } from "./api/list-webhooks.ts";
