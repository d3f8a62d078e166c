import type { ProjectCategory } from "../../../shared/domain/permit-rules.ts";

/** The project dashboard's categories (spec section 4), with their colours and meaning. */
export const CATEGORY_INFO: Record<ProjectCategory, { color: string; explanation: string }> = {
  "In Progress": { color: "#1976d2", explanation: "Started, not yet applied for." },
  "In Waiting": {
    color: "#f5a300",
    explanation: "Applied for, waiting on the agency: no expiration date yet.",
  },
  Active: { color: "#00A884", explanation: "Issued: it has an expiration date." },
};
