import { eq } from "drizzle-orm";
import type { PgSelectBase, SelectedFields } from "drizzle-orm/pg-core";
import { scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, permits, projects } from "../../db/schema.ts";

/** Which tables of the view may come back as all-null: the optional project and client. */
type ViewNullability = {
  permits: "not-null";
  companies: "not-null";
  projects: "nullable";
  clients: "nullable";
};

/** The view's query before the caller's conditions: drizzle's own type for these four joins. */
export type PermitViewSelect<T extends SelectedFields> = Omit<
  PgSelectBase<"permits", T, "partial", ViewNullability>,
  never
>;

function joinView(db: Db, fields: SelectedFields) {
  return db
    .select(fields)
    .from(permits)
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .leftJoin(projects, eq(projects.id, permits.projectId))
    .leftJoin(clients, eq(clients.id, permits.clientId));
}
// Keeps PermitViewSelect honest: it must stay the type drizzle infers for joinView().
const typeCheck: (q: ReturnType<typeof joinView>) => PermitViewSelect<SelectedFields> = (q) => q;
void typeCheck;

/**
 * The one permit view: a permit with its company (inner: every permit has one), project and client
 * (left: both optional), selecting `fields` from any of the four. The list, the export, the calendar
 * feed and the reminder digest all start here and add their own conditions, order and extra joins;
 * every join is by primary key, so the planner reads the same indexes whoever adds what.
 */
export function selectPermitView<T extends SelectedFields>(db: Db, fields: T): PermitViewSelect<T> {
  // drizzle cannot chain joins on a generic selection, so the joins are typed once, concretely, above.
  return joinView(db, fields) as unknown as PermitViewSelect<T>;
}

/** The permits an actor may see (company, and a client-user's clients): the view's scope condition. */
export const permitScope = (actor: Actor) =>
  scopeConditions(scopeOf(actor), { companyId: permits.companyId, clientId: permits.clientId });
