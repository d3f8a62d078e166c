/**
 * What a screen says when it has nothing to show (issue 25), in one place, so the screens and the
 * e2e specs say the same words. Every list tells "nothing yet" (no records at all within what the
 * user may see) from "nothing matches" (records exist; the filters leave none), which offers
 * CLEAR_FILTERS. The spec's own empty states (section 8) are kept as they are.
 */

/** The button of a "nothing matches" state (and of the permit list's filters). */
export const CLEAR_FILTERS = "Clear Filters";

export interface EmptyTexts {
  /** No records at all within the user's scope. */
  none: string;
  /** Records exist, the filters leave none (lists that have filters). */
  filtered?: string;
}

export const EMPTY_STATES = {
  permits: { none: "No permits yet.", filtered: "No permits match these filters." },
  bonds: { none: "No bonds yet.", filtered: "No bonds match these filters." },
  /** Spec section 8 ('No clients found'); the Clients screen has no filter. */
  clients: { none: "No clients found" },
  projects: { none: "No projects yet.", filtered: "No projects match these filters." },
  companies: { none: "No companies yet." },
  users: { none: "No users yet.", filtered: "No users match these filters." },
  sureties: { none: "No sureties yet." },
  /** Issue 27: the company's outside contacts (Contacts page). */
  contacts: {
    none: "No contacts yet: add the agency desks, surety agents and others your permits name.",
    filtered: "No contacts match these filters.",
  },
  /** Issue 27: the company-wide Requests page. */
  requests: {
    none: "No documents requested yet: ask for one with 'Request Document' on a permit's or bond's page.",
    filtered: "No requests match these filters.",
  },
  templates: { none: "No templates yet: add the permits your projects usually need." },
  /** A project dashboard's permits. */
  projectPermits: { none: "No permits in this project yet." },
  /** Reminder deliveries (Notification Settings). */
  deliveries: { none: "No reminder e-mails have been sent yet." },
  /** Spec section 8 ('No attachments.'); with archived files hidden, the current ones only. */
  attachments: { none: "No attachments.", filtered: "No current attachments." },
  /** Spec section 8. */
  comments: { none: "No comments yet." },
  /** The user's own saved views (the built-in ones are always there). */
  savedViews: { none: "No saved views yet." },
} as const satisfies Record<string, EmptyTexts>;

/**
 * The getting-started steps an empty platform (super-admin) or an empty company (its staff) sees
 * on the permit list, the Bonds page and the Admin Dashboard, each ticked when done.
 */
export const GETTING_STARTED = {
  title: "Getting started",
  /** Above the steps: an empty platform (no company yet) or an empty company. */
  introPlatform: "Nothing here yet. Set Permitrack up in three steps:",
  introCompany: "Your company has no permits yet. Three steps get it going:",
  steps: {
    company: { number: 1, text: "Create a company" },
    clientAndProject: { number: 2, text: "Add a client and a project" },
    permits: { number: 3, text: "Add permits or import a CSV" },
  },
  /** Step 2 for staff who cannot add projects (company-users). */
  askAdmin: "A company admin adds these.",
  /** Said (to assistive technology) after a step that is done. */
  done: "done",
  /** '+ New Permit' before any company exists (super-admin). */
  noCompany: "Create a company first: every permit belongs to one.",
} as const;

/** "1 Create a company": a step as it reads on screen. */
export const stepLabel = (step: { number: number; text: string }) => `${step.number} ${step.text}`;
