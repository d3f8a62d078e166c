import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { conditionTasks, permitConditions } from "../db/schema.ts";

// Issue 29 (queue's tests): a 'Once' condition with one task, written straight to the tables so the
// list, the dashboard, the close and the export can be tested apart from the conditions feature.

export interface TestTaskOptions {
  companyId: string;
  permitId: string;
  /** The task's company-local due date; its due_at is the end of that day in `timeZone`. */
  dueOn: string;
  timeZone: string;
  title?: string;
  status?: "open" | "done" | "not_applicable";
  ownerUserId?: string | null;
}

export async function addTestTask(db: Db, o: TestTaskOptions) {
  const [condition] = await db
    .insert(permitConditions)
    .values({
      companyId: o.companyId,
      permitId: o.permitId,
      title: o.title ?? "Keep the permit card posted",
      schedule: "once",
      dueDate: o.dueOn,
      ownerUserId: o.ownerUserId ?? null,
    })
    .returning();
  const status = o.status ?? "open";
  const [task] = await db
    .insert(conditionTasks)
    .values({
      companyId: o.companyId,
      permitId: o.permitId,
      conditionId: condition!.id,
      occurrence: 0,
      dueOn: o.dueOn,
      dueAt: sql`((${o.dueOn}::date + 1)::timestamp at time zone ${o.timeZone})`,
      status,
      completedAt: status === "open" ? null : new Date(),
    })
    .returning();
  return { condition: condition!, task: task! };
}
