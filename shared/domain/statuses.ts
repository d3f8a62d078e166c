/** Permit status values (spec section 4). */
export const PERMIT_STATUSES = ["Required", "In Waiting", "Pending", "Expired", "N/A"] as const;
export type PermitStatus = (typeof PERMIT_STATUSES)[number];

/** Record types: one set for the list filter, the form and the import (DESIGN.md 6.5). */
export const RECORD_TYPES = ["permit", "bond"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const RECORD_TYPE_LABELS: Record<RecordType, string> = { permit: "Permit", bond: "Bond / Guarantee" };

export const GUARANTEE_TYPES = ["Performance", "Maintenance"] as const;
export type GuaranteeType = (typeof GUARANTEE_TYPES)[number];

/** One set of project statuses everywhere (DESIGN.md 6.8). */
export const PROJECT_STATUSES = [
  "Not Started",
  "In Progress",
  "Waiting on Permit",
  "Under Construction",
  "On Hold",
  "Completed",
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const DEFAULT_PROJECT_STATUS: ProjectStatus = "Not Started";

/** Unknown or legacy values display as In Progress; "Complete" was the spec's other spelling. */
export function displayProjectStatus(value: string | null | undefined): ProjectStatus {
  if (value === "Complete") return "Completed";
  return (PROJECT_STATUSES as readonly string[]).includes(value ?? "")
    ? (value as ProjectStatus)
    : "In Progress";
}

export const TEMPLATE_STATUSES = ["Required", "N/A"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
