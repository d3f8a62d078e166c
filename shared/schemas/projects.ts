import { z } from "zod";
import { REQUEST_STATES } from "../domain/document-requests.ts";
import { PROJECT_STATUSES, DEFAULT_PROJECT_STATUS } from "../domain/statuses.ts";
import { IdSchema, IsoDateSchema, OptionalDateSchema } from "./common.ts";
import { CLIENT_NAME_MAX } from "./clients.ts";
import { optionalText, requiredText, text } from "./fields.ts";

export const PROJECT_NAME_MAX = 200;
export const PROJECT_NUMBER_MAX = 100;

export const ProjectStatusSchema = z.enum(PROJECT_STATUSES, { message: "Choose a valid project status" });

const ProjectNameSchema = requiredText("Project Name", PROJECT_NAME_MAX, { typeMessage: false });

/**
 * POST /api/projects (the 'Create New Project' dialog and the project form). `client_name` is
 * free text: it matches one of the company's clients case-insensitively, or creates it.
 * `company_id` is read for a super-admin only.
 */
export const ProjectCreateSchema = z.object({
  company_id: IdSchema.nullish(),
  name: ProjectNameSchema,
  project_number: optionalText("Project Number", PROJECT_NUMBER_MAX),
  client_name: optionalText("Client", CLIENT_NAME_MAX),
  status: ProjectStatusSchema.default(DEFAULT_PROJECT_STATUS),
  start_date: OptionalDateSchema,
});
export type ProjectCreate = z.input<typeof ProjectCreateSchema>;

/** PUT /api/projects/:id. A project stays in its company; status and start date are unchanged when absent. */
export const ProjectUpdateSchema = z.object({
  name: ProjectNameSchema,
  project_number: optionalText("Project Number", PROJECT_NUMBER_MAX),
  client_name: optionalText("Client", CLIENT_NAME_MAX),
  status: ProjectStatusSchema.optional(),
  start_date: z.union([IsoDateSchema, z.literal(""), z.null()]).optional(),
});
export type ProjectUpdate = z.input<typeof ProjectUpdateSchema>;

export const ProjectStatusUpdateSchema = z.object({ status: ProjectStatusSchema });

/** The project form page (spec section 5: Project Number, Project Name and Client required). */
export const ProjectFormSchema = z.object({
  company_id: z.string(),
  project_number: requiredText("Project Number", PROJECT_NUMBER_MAX, { typeMessage: false }),
  name: ProjectNameSchema,
  client_name: requiredText("Client", CLIENT_NAME_MAX, { typeMessage: false }),
});
export type ProjectForm = z.input<typeof ProjectFormSchema>;

/** The 'Create New Project' dialog: only the name is required. */
export const ProjectQuickFormSchema = z.object({
  company_id: z.string(),
  name: ProjectNameSchema,
  project_number: text(PROJECT_NUMBER_MAX),
  client_name: text(CLIENT_NAME_MAX),
  status: ProjectStatusSchema,
});
export type ProjectQuickForm = z.input<typeof ProjectQuickFormSchema>;

export const PROJECT_SORTS = ["name", "project_number", "status"] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
export const ProjectListQuerySchema = z.object({
  company_id: IdSchema.optional(),
  sort: z.enum(PROJECT_SORTS).default("name"),
  dir: z.enum(["asc", "desc"]).default("asc"),
});

export const ProjectSchema = z.object({
  id: IdSchema,
  name: z.string(),
  project_number: z.string().nullable(),
  /** The stored value shown through displayProjectStatus (unknown values read as In Progress). */
  status: ProjectStatusSchema,
  client_id: IdSchema.nullable(),
  client_name: z.string().nullable(),
  company_id: IdSchema,
  company_name: z.string(),
  start_date: z.string().nullable(),
  permit_count: z.number().int(),
  can: z.object({
    /** Edit the project and change its status. */
    edit: z.boolean(),
    delete: z.boolean(),
    /** Add a permit to the project (the dashboard's '+ Create New Permit'). */
    createPermit: z.boolean(),
  }),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });
export type ProjectList = z.infer<typeof ProjectListSchema>;
export const ProjectResponseSchema = z.object({ project: ProjectSchema });

/** The list's categories (issue 25: the project dashboard uses the list's words and rules). */
export const PROJECT_CATEGORIES = ["In Progress", "In Review", "Active"] as const;

export const DashboardPermitSchema = z.object({
  id: IdSchema,
  permit_number: z.string(),
  permit_name: z.string(),
  agency: z.string().nullable(),
  status: z.string(),
  /** Expired once the expiration date has passed, whatever is stored (DESIGN.md 6.10). */
  display_status: z.string(),
  start_date: z.string().nullable(),
  permit_application_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  category: z.enum(PROJECT_CATEGORIES).nullable(),
  urgency: z.enum(["expired", "expiring"]).nullable(),
});
export type DashboardPermit = z.infer<typeof DashboardPermitSchema>;

/** Issue 29: one open task on the project dashboard. */
export const DashboardTaskSchema = z.object({
  id: z.uuid(),
  condition_id: z.uuid(),
  permit_id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  title: z.string(),
  /** The instant it becomes overdue (ISO); its company-local date; whether it is due at a time (events). */
  due_at: z.string(),
  due_on: z.string(),
  timed: z.boolean(),
  overdue: z.boolean(),
  owner_name: z.string().nullable(),
});
export type DashboardTask = z.infer<typeof DashboardTaskSchema>;
export const DashboardTasksSchema = z.object({
  open: z.number().int(),
  overdue: z.number().int(),
  due: z.number().int(),
  items: z.array(DashboardTaskSchema),
});
/** Most open tasks the project dashboard lists (the counts count them all). */
export const DASHBOARD_TASKS_MAX = 50;

/** GET /api/projects/:id/dashboard: the project, its non-archived permits and their counts. */
export const ProjectDashboardSchema = z.object({
  project: ProjectSchema,
  /** The project's start date, else the earliest permit creation date (company-local), else null. */
  start_date: z.string().nullable(),
  /** Today in the company's time zone: the day the urgency and expiring counts were computed for. */
  today: z.string(),
  categories: z.array(z.object({ category: z.enum(PROJECT_CATEGORIES), count: z.number().int() })),
  summary: z.object({
    total: z.number().int(),
    /** N/A permits: listed (greyed, last) but counted in no category and no expiry figure. */
    not_applicable: z.number().int(),
    /** Permits without a start date: in no category (spec section 4). */
    uncategorized: z.number().int(),
    expired: z.number().int(),
    expiring_soon: z.number().int(),
    next_expiration: z.string().nullable(),
    archived: z.number().int(),
  }),
  /** N/A permits last; the rest in creation order (then by permit number). */
  permits: z.array(DashboardPermitSchema),
  /**
   * Issue 27: the open document requests of the project's permits and bonds (link working, or
   * awaiting review), awaiting review first, then by due date; at most OPEN_REQUESTS_MAX. The
   * party's name is for staff: a client-user gets null.
   */
  open_requests: z.array(
    z.object({
      id: z.uuid(),
      permit_id: z.uuid(),
      item_name: z.string(),
      item_kind: z.enum(["permit", "bond"]),
      document_label: z.string(),
      party_name: z.string().nullable(),
      state: z.enum(REQUEST_STATES),
      state_label: z.string(),
      due_date: z.string().nullable(),
      overdue: z.boolean(),
    }),
  ),
  /**
   * Issue 29: the open condition tasks of the project's permits the actor sees (not archived):
   * how many are open, overdue, due within TASKS_DUE_DAYS days (overdue included), and the open
   * ones by due (at most DASHBOARD_TASKS_MAX). A client-user gets the same (no notes are in it).
   */
  tasks: DashboardTasksSchema,
});
export type ProjectDashboard = z.infer<typeof ProjectDashboardSchema>;
export type DashboardRequest = ProjectDashboard["open_requests"][number];
/** Most open requests the project dashboard lists. */
export const OPEN_REQUESTS_MAX = 20;
