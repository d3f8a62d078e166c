import type { ListCategory } from "../../../shared/domain/permit-rules.ts";

/** The project dashboard's categories: the list's (issue 25), with their colours and meaning. */
export const CATEGORY_INFO: Record<ListCategory, { color: string; explanation: string }> = {
  "In Progress": { color: "#1976d2", explanation: "Started, not yet applied for." },
  "In Review": {
    color: "#f5a300",
    explanation: "Applied for, waiting on the agency: not issued, no expiration date yet.",
  },
  Active: { color: "#00A884", explanation: "Issued: it has an expiration date." },
};
