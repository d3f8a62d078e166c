import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { companies } from "../db/schema.ts";
import { todayIn } from "../../shared/domain/dates.ts";

/**
 * "Today" in a company's time zone, the day every date rule of the server counts from (a default
 * start date, a maintenance bond's start, a ledger entry of an import, urgency and the tiles).
 *
 * In JavaScript: companyToday() reads the company's zone; with the zone at hand (a row that joined
 * its company), todayIn(zone) from shared/domain/dates.ts is the same computation. In SQL, where
 * the date must be the database's (a tile's window, a list's urgency): companyTodaySql() and
 * zoneTodaySql().
 */

/** Today ("YYYY-MM-DD") in the company's time zone; UTC for a company that is not there. */
export async function companyToday(db: Db, companyId: string): Promise<string> {
  const [company] = await db
    .select({ zone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return todayIn(company?.zone ?? "UTC");
}

/**
 * Today in the time zone of the company `companyId` names, as a SQL date: a value (a parameter)
 * gives an uncorrelated subquery, run once per statement, so an index on a date column still serves
 * a range against it; a column of the outer query (raw SQL, qualified) looks it up per row.
 */
export const companyTodaySql = (companyId: string | SQLWrapper): SQL =>
  sql`((now() at time zone (select c.time_zone from companies c where c.id = ${companyId}))::date)`;

/** Today in the time zone a joined companies row's column (or any SQL) holds, as a SQL date. */
export const zoneTodaySql = (zone: SQLWrapper): SQL => sql`((now() at time zone ${zone})::date)`;
