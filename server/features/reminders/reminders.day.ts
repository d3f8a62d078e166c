import { sql, type SQL } from "drizzle-orm";
import { DEFAULT_ESCALATION_DAYS } from "../../../shared/domain/lifecycle.ts";
import { overdueDigestOn, thresholdSwitch } from "./reminders.eligibility.ts";

/** The sweep's day: its options and each company's "today" (reminders.sweep.ts, reminders.party-sweep.ts). */

export interface SweepOptions {
  /** The clock; tests pass a fixed instant. */
  now: Date;
  /** Run as of this day in every company instead of each company's own today. */
  asOf?: string;
  /**
   * A company's reminder day starts at this local hour: before it, "today" is still yesterday,
   * so each company gets its reminders at REMINDER_HOUR in its own zone however often we sweep.
   */
  reminderHour: number;
}

/** "Today" in each company's zone, its zone, the company's switches (the sweep's `co`). */
export function companiesCte(opts: SweepOptions): SQL {
  const today = opts.asOf
    ? sql`${opts.asOf}::date`
    : sql`((${opts.now.toISOString()}::timestamptz at time zone c.time_zone) - make_interval(hours => ${opts.reminderHour}))::date`;
  return sql`co as (
      select c.id as company_id, ${today} as today, c.time_zone,
             ${thresholdSwitch(30)} as e30, ${thresholdSwitch(7)} as e7, ${thresholdSwitch(1)} as e1,
             coalesce(cp.escalation_days, ${DEFAULT_ESCALATION_DAYS}) as escalation_days,
             ${overdueDigestOn()} as overdue_digest
      from companies c
      left join company_preferences cp on cp.company_id = c.id
    )`;
}
