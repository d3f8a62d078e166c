/**
 * The query keys more than one feature reads or invalidates. Everything about permits hangs under
 * ["permits"], so a create, update or delete refreshes the list, the dashboards and the detail page
 * at once; the permit's own cards (lifecycle, bond ledger, comments, attachments, reminders, audit
 * trail: each its own feature) hang under ["permits", "detail", id], so a change made elsewhere
 * refreshes the whole page. The permits feature adds its list's keys under the same prefix
 * (web/features/permits/api/keys.ts).
 */
export const permitKeys = {
  all: ["permits"] as const,
  detail: (id: string) => ["permits", "detail", id] as const,
  lifecycle: (id: string) => ["permits", "detail", id, "lifecycle"] as const,
  bondLedger: (id: string) => ["permits", "detail", id, "bond-ledger"] as const,
  comments: (id: string) => ["permits", "detail", id, "comments"] as const,
  attachments: (id: string) => ["permits", "detail", id, "attachments"] as const,
  reminders: (id: string) => ["permits", "detail", id, "reminders"] as const,
  audit: (id: string) => ["permits", "detail", id, "audit"] as const,
};

/** Every query about projects (the lists, a project's dashboard) starts with this key. */
export const projectsQueryKey = ["projects"] as const;

/**
 * The company-wide Requests page and the nav's count of requests awaiting review (issue 27): a
 * request asked, approved, rejected or revoked on a permit's page makes them stale.
 */
export const requestQueueKey = ["request-queue"] as const;

/** Every query about sureties starts with this key, so one invalidation refreshes them all. */
export const suretiesQueryKey = ["sureties"] as const;

/** The lists that show a permit: All Permits and its tiles, the Bonds page, project dashboards. */
const permitListKeys = [
  [...permitKeys.all, "list"],
  [...permitKeys.all, "summary"],
  [...permitKeys.all, "bonds"],
  projectsQueryKey,
] as const;

/**
 * What a write on one of a permit's cards makes stale beyond that card, whose new state the write
 * answers (the card's query takes it with setQueryData): the lists and the permit's audit trail;
 * never the detail or the other cards.
 */
export const afterCardWrite = (permitId: string) => [...permitListKeys, permitKeys.audit(permitId)] as const;

/**
 * What a permit change makes stale elsewhere: project dashboards and admin counts show permits too,
 * and a bond saved with a new surety name adds that surety (issue 12). The Bonds page's queries hang
 * under "permits" (a bond is a permit row).
 */
export const afterPermitChange = [permitKeys.all, projectsQueryKey, suretiesQueryKey] as const;

/**
 * What says what exists within the user's scope (issue 25: the getting-started steps, "nothing
 * yet"): the permit summaries and the Bonds page. A company or client added or removed changes it.
 */
export const scopeContentsKeys = [
  [...permitKeys.all, "summary"],
  [...permitKeys.all, "bonds"],
] as const;
