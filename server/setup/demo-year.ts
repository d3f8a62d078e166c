import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import { addDays } from "../../shared/domain/dates.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { queryRows, type Db } from "../db/client.ts";

/**
 * A believable year on top of the demo permits (issue 25, item 8): what a permit team does in a
 * year, done through the app's own routes as the company admin, so each step is validated, audited
 * and shaped exactly as a user's would be. Renewals and extensions (terms), inspections under a
 * 'days after last passed inspection' rule, acknowledged terms, bond riders and reductions,
 * collateral, and a released performance bond with its maintenance bond. Responsible persons and
 * renewal lead times are plain settings, set before the steps (no history to tell).
 *
 * Picks are by permit number (the seed's numbering), not by chance, so the demo is the same on
 * every machine. Escalations come from the server's first reminder sweep: terms inside the
 * company's Escalation Days that nobody acknowledged.
 */
export async function seedDemoYear(
  app: FastifyInstance,
  db: Db,
  users: { role: string; email: string; password: string }[],
  today: string,
): Promise<DemoYearReport> {
  const admins = users.filter((u) => u.role === "company-admin");
  const staff = await queryRows<{ email: string; id: string; companyId: string; role: string }>(
    db,
    sql`select lower(email) as email, id, company_id as "companyId", role from users
         where company_id is not null and role in ('company-admin', 'company-user') order by email`,
  );
  return playDemoYear(
    app,
    db,
    today,
    admins.map((admin) => {
      const companyId = staff.find((s) => s.email === admin.email.toLowerCase())!.companyId;
      return { companyId, admin, userIds: staff.filter((s) => s.companyId === companyId).map((s) => s.id) };
    }),
  );
}

async function playDemoYear(
  app: FastifyInstance,
  db: Db,
  today: string,
  companies: { companyId: string; admin: { email: string; password: string }; userIds: string[] }[],
): Promise<DemoYearReport> {
  const report: DemoYearReport = {
    renewals: 0,
    extensions: 0,
    inspections: 0,
    acknowledged: 0,
    riders: 0,
    reductions: 0,
    releases: 0,
    maintenanceBonds: 0,
    collateral: 0,
  };
  for (const company of companies) {
    await setPeople(db, company.companyId, company.userIds);
    const call = await signedInCaller(app, company.admin);
    const pick = (rows: Candidate[], n: number) => rows.splice(0, n);
    /** `daysAgo` days before today, but after the bond's original amount (a ledger never goes back before it). */
    const since = (b: Candidate, daysAgo: number) => {
      const day = addDays(today, -daysAgo);
      return day > b.since ? day : addDays(b.since, 1);
    };
    const permitsSoon = await candidates(db, company.companyId, "permit", today, 0, 30);
    const permitsLate = await candidates(db, company.companyId, "permit", today, -60, -1);
    const permitsLater = await candidates(db, company.companyId, "permit", today, 31, 400);
    const bonds = await candidates(db, company.companyId, "bond", today, 1, 900);

    // Renewals: recently expired permits, renewed for a year; and a few due soon, renewed early.
    for (const [i, p] of [...pick(permitsLate, 3), ...pick(permitsSoon, 2)].entries()) {
      const issued = addDays(p.expiration, -7) < today ? addDays(p.expiration, -7) : today;
      await call("POST", `/api/permits/${p.id}/renewals`, {
        new_expiration_date: addDays(p.expiration, 365),
        new_issue_date: issued,
        renewal_fee: ["350.00", "1250.00", "480.00", "95.00", "2200.00"][i],
        note: [
          "Renewal approved at the counter; new placard posted on site.",
          "Agency asked for the updated traffic control plan before renewing.",
          "Renewed online; receipt filed with the project documents.",
          "Renewed with the same conditions of approval.",
          "Renewal fee paid by check 4411.",
        ][i],
      });
      report.renewals++;
    }
    // Extensions: due soon, the agency grants more time on the same term.
    for (const [i, p] of pick(permitsSoon, 2).entries()) {
      await call("POST", `/api/permits/${p.id}/extensions`, {
        new_expiration_date: addDays(p.expiration, 60),
        reason: ["Weather delays on the grading work.", "Utility relocation pushed the schedule."][i],
      });
      report.extensions++;
    }
    // Acknowledged: someone took the current term in hand; its reminders and escalation stop.
    for (const p of pick(permitsSoon, 3)) {
      await call("POST", `/api/permits/${p.id}/acknowledgement`, {});
      report.acknowledged++;
    }
    // Inspections under an inspection rule: the permit runs 180 days after its last passed one.
    for (const [i, p] of pick(permitsLater, 3).entries()) {
      await db.execute(sql`
        update permits set expiry_rule = 'after_inspection', expiry_days = 180 where id = ${p.id}`);
      await call("POST", `/api/permits/${p.id}/inspections`, {
        inspection_type: "Footing",
        date: addDays(today, -120 + i * 10),
        result: "Failed",
        inspector: "R. Alvarez",
        notes: "Rebar spacing off at grid C; re-inspection requested.",
      });
      await call("POST", `/api/permits/${p.id}/inspections`, {
        inspection_type: "Footing",
        date: addDays(today, -100 + i * 10),
        result: "Passed",
        inspector: "R. Alvarez",
      });
      report.inspections += 2;
    }
    // Bonds: riders and reductions, collateral, and one performance bond released at completion
    // with its maintenance bond started.
    const at = bonds.findIndex((b) => b.guaranteeType === "Performance");
    const performance = at >= 0 ? bonds.splice(at, 1)[0] : undefined;
    if (performance) {
      await call("POST", `/api/bonds/${performance.id}/ledger`, {
        kind: "release",
        effective_date: addDays(today, -20),
        reason: "Project accepted; release letter received from the obligee.",
      });
      report.releases++;
      await call("POST", `/api/bonds/${performance.id}/maintenance-bond`, {
        amount: String(Math.round(Number(performance.amount) * 0.1)),
        term_months: 24,
        start_date: addDays(today, -20),
      });
      report.maintenanceBonds++;
    }
    for (const b of pick(bonds, 2)) {
      await call("POST", `/api/bonds/${b.id}/ledger`, {
        kind: "rider",
        change: "25000.00",
        effective_date: since(b, 90),
        reason: "Change order 7 added scope to the contract.",
      });
      report.riders++;
    }
    for (const b of pick(bonds, 2)) {
      await call("POST", `/api/bonds/${b.id}/ledger`, {
        kind: "reduction",
        percent: "50",
        effective_date: since(b, 45),
        obligee_acceptance_date: since(b, 45),
        reason: "Substantial completion accepted by the obligee.",
      });
      report.reductions++;
    }
    for (const [i, b] of pick(bonds, 2).entries()) {
      await call("POST", `/api/bonds/${b.id}/collateral`, {
        form: i === 0 ? "letter_of_credit" : "cash",
        amount: i === 0 ? "100000.00" : "15000.00",
        held_since: since(b, 200),
        note: i === 0 ? "Irrevocable LOC, First National Bank." : "Held in escrow.",
      });
      report.collateral++;
    }
  }
  return report;
}

export interface DemoYearReport {
  renewals: number;
  extensions: number;
  inspections: number;
  acknowledged: number;
  riders: number;
  reductions: number;
  releases: number;
  maintenanceBonds: number;
  collateral: number;
}

interface Candidate {
  id: string;
  /** The bond's original amount's date (its issue date, else its start). */
  since: string;
  expiration: string;
  guaranteeType: string | null;
  amount: string | null;
}

/** Open, unarchived records of a kind whose expiration lies `from` to `to` days from today, by number. */
async function candidates(
  db: Db,
  companyId: string,
  kind: "permit" | "bond",
  today: string,
  from: number,
  to: number,
) {
  return queryRows<Candidate>(
    db,
    sql`select id, coalesce(issue_date, start_date)::text as since, expiration_date::text as expiration, guarantee_type as "guaranteeType",
               current_amount::text as amount
          from permits
         where company_id = ${companyId} and record_type = ${kind} and not archived
           and close_date is null and (status = 'Required' or record_type = 'bond')
           and expiration_date between ${addDays(today, from)} and ${addDays(today, to)}
           and coalesce(issue_date, start_date) < ${addDays(today, -60)}
         order by permit_number`,
  );
}

/**
 * Who is responsible (two of every three permits, the company's staff by turns) and how long a
 * renewal takes at the agency (30, 45 or 60 days, on one dated permit in four), by the permits'
 * numbers, so the demo is the same on every machine. Plain settings: no history to tell.
 */
async function setPeople(db: Db, companyId: string, userIds: string[]) {
  const staff = sql`array[${sql.join(
    userIds.map((u) => sql`${u}::uuid`),
    sql`, `,
  )}]`;
  await db.execute(sql`
    with numbered as (
      select id, row_number() over (order by permit_number)::int as n from permits where company_id = ${companyId})
    update permits p
       set responsible_user_id = case when numbered.n % 3 = 0 then null
                                      else (${staff})[1 + numbered.n % ${userIds.length}] end,
           renewal_lead_days = case when p.expiration_date is not null and p.record_type = 'permit'
                                         and numbered.n % 4 = 1
                                    then (array[30, 45, 60])[1 + numbered.n % 3] end
      from numbered where numbered.id = p.id`);
}

/** A caller of the app's routes with the admin's session, as the web app calls them. */
async function signedInCaller(app: FastifyInstance, user: { email: string; password: string }) {
  const signIn = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in",
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
    payload: { email: user.email, password: user.password },
  });
  if (signIn.statusCode !== 200) throw new Error(`demo sign-in failed for ${user.email}: ${signIn.body}`);
  const cookie = ([] as string[])
    .concat(signIn.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  return async (method: "POST" | "PATCH", url: string, payload: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, cookie },
      payload: payload as Record<string, unknown>,
    });
    if (res.statusCode >= 300)
      throw new Error(`demo step ${method} ${url} failed: ${res.statusCode} ${res.body}`);
    return res.json() as unknown;
  };
}
