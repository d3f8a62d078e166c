/**
 * Large data set for the permits benchmark (issue 3, "Performance"): 50 companies and 100,000
 * permits, one of which ("Bench Target") holds 10,000 permits across 200 projects and 40 clients.
 * Everything is written with set-based INSERT ... SELECT generate_series, so it takes seconds on
 * PostgreSQL; the mix of statuses, dates, bonds and comments follows the demo seed, and every permit
 * has its audit trail (created, and a fifth of them changed one to four times).
 *
 * Used by `npm run bench` (scripts/bench/run.ts, which passes QUICK_SCALE for --quick) and
 * scripts/bench/permits-bench.ts; it can also fill any migrated database by itself:
 *   DATABASE_URL=postgres://... npx tsx scripts/bench/permits-data.ts
 */
import { eq, sql } from "drizzle-orm";
import { createAccount } from "../../server/auth/accounts.ts";
import { queryRows, type Database } from "../../server/db/client.ts";
import { companies, userClients } from "../../server/db/schema.ts";
import { PERMIT_KINDS } from "../../server/setup/seed-demo.ts";

export const BENCH = {
  companies: 50,
  permits: 100_000,
  target: { slug: "bench-target", permits: 10_000, projects: 200, clients: 40 },
  /** Per other company. */
  others: { projects: 40, clients: 10 },
  password: "bench-password-1",
  users: {
    admin: "bench.admin@bench.example",
    clientUser: "bench.client@bench.example",
    superAdmin: "bench.super@bench.example",
  },
} as const;

/** How much to generate: BENCH's sizes, or QUICK_SCALE's for a smoke run. */
export interface DataScale {
  companies: number;
  permits: number;
  target: { permits: number; projects: number; clients: number };
  /** Per other company. */
  others: { projects: number; clients: number };
}

/** A tenth of the data, for `npm run bench -- --quick`. */
export const QUICK_SCALE: DataScale = {
  companies: 10,
  permits: 10_000,
  target: { permits: 2_000, projects: 40, clients: 8 },
  others: { projects: 10, clients: 4 },
};

const AGENCIES = [
  "City of Denver Building Dept.",
  "Denver Public Works",
  "Colorado DOT",
  "Jefferson County Planning",
  "Urban Drainage District",
  "Xcel Energy",
  "State Water Board",
  "Fire Marshal",
  "Arapahoe County",
  "Adams County Planning",
  "Boulder County Land Use",
  "City of Aurora Permits",
  "Regional Transit District",
  "Army Corps of Engineers",
  "EPA Region 8",
  "Colorado Parks & Wildlife",
  "Douglas County Engineering",
  "City of Lakewood",
  "Tri-County Health",
  "Denver Water",
];
const KINDS = PERMIT_KINDS;
const sqlArray = (xs: readonly string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(",")}]`;

/** Fills a migrated, empty database; returns the target company's id. */
export async function generatePermitsData(
  database: Database,
  log: (line: string) => void = () => {},
  scale: DataScale = BENCH,
): Promise<string> {
  const t0 = performance.now();
  const { others } = scale;
  const target = { ...scale.target, slug: BENCH.target.slug };
  const otherCount = scale.companies - 1;
  const perOther = Math.floor((scale.permits - target.permits) / otherCount);
  const extra = scale.permits - target.permits - perOther * otherCount; // the first `extra` others get one more

  // One transaction: the helper table lives until its commit, and a failure leaves nothing half-filled.
  await database.exec(`
    begin;
    select setseed(0.42);

    insert into companies (name, slug, time_zone)
    select case when g = 0 then 'Bench Target Construction' else 'Bench Company ' || g end,
           case when g = 0 then '${target.slug}' else 'bench-' || g end,
           (array['America/Denver','America/Los_Angeles','America/New_York','Europe/London','UTC'])[1 + g % 5]
    from generate_series(0, ${otherCount}) g;

    create temporary table bench_companies on commit drop as
    select id, slug = '${target.slug}' as is_target,
           row_number() over (order by slug = '${target.slug}' desc, slug) - 1 as n
    from companies where slug like 'bench-%';

    insert into clients (company_id, name)
    select c.id, 'Client ' || lpad(g::text, 2, '0') || ' of ' || c.n
    from bench_companies c
    cross join lateral generate_series(1, case when c.is_target then ${target.clients} else ${others.clients} end) g;

    with cl as (
      select id, company_id, row_number() over (partition by company_id order by name) - 1 as n,
             count(*) over (partition by company_id) as total
      from clients
    )
    insert into projects (company_id, client_id, name, project_number, status, start_date)
    select c.id, cl.id, 'Project ' || g || ' ' || (array['Civic Center','Clinic','Parking','Warehouse','Roadway','Campus'])[1 + g % 6],
           'PRJ-' || c.n || '-' || lpad(g::text, 3, '0'),
           (array['Not Started','In Progress','Waiting on Permit','Under Construction','On Hold','Completed'])[1 + g % 6],
           current_date - (30 + g % 400)
    from bench_companies c
    cross join lateral generate_series(1, case when c.is_target then ${target.projects} else ${others.projects} end) g
    join cl on cl.company_id = c.id and cl.n = g % cl.total;

    with pr as (
      select id, company_id, client_id, row_number() over (partition by company_id order by project_number) - 1 as n,
             count(*) over (partition by company_id) as total
      from projects
    ),
    raw as (
      select c.id as company_id, g, random() as r_type, random() as r_bucket, random() as r_exp, random() as r_start,
             random() as r_app, random() as r_status, random() as r_arch, random() as r_close, random() as r_pick,
             random() as r_agency
      from bench_companies c
      cross join lateral generate_series(1, case when c.is_target then ${target.permits}
                                                 when c.n <= ${extra} then ${perOther + 1} else ${perOther} end) g
    ),
    shaped as (
      select raw.*, r_type < 0.15 as is_bond,
             current_date - (10 + floor(r_start * 300))::int as start_date,
             case when r_bucket < 0.15 then current_date - (1 + floor(r_exp * 120))::int
                  when r_bucket < 0.30 then current_date + floor(r_exp * 30)::int
                  when r_bucket < 0.75 then current_date + (31 + floor(r_exp * 500))::int end as expiration_date
      from raw
    )
    insert into permits (company_id, project_id, client_id, permit_number, permit_name, agency, status, archived,
                         record_type, start_date, permit_application_date, issue_date, expiration_date, close_date,
                         bond_amount, surety_company, bond_number, guarantee_type, created_at)
    select s.company_id, pr.id, pr.client_id,
           case when s.is_bond then 'BND-' else 'PRM-' end || lpad(s.g::text, 6, '0'),
           case when s.is_bond then (array['Performance Bond','Maintenance Bond'])[1 + (s.g % 2)]
                else (${sqlArray(KINDS)})[1 + floor(s.r_pick * ${KINDS.length})::int] end,
           (${sqlArray(AGENCIES)})[1 + floor(s.r_agency * ${AGENCIES.length})::int],
           case when s.r_status < 0.85 then 'Required'
                else (array['In Waiting','Pending','N/A'])[1 + (s.g % 3)] end,
           s.r_arch < 0.05,
           case when s.is_bond then 'bond' else 'permit' end,
           s.start_date,
           case when s.r_app < 0.8 then s.start_date + (s.g % 20) end,
           case when s.expiration_date is not null and s.r_app < 0.8 then s.start_date + 10 + (s.g % 30) end,
           s.expiration_date,
           case when s.expiration_date is not null and s.r_close < 0.05 then s.expiration_date - 5 end,
           case when s.is_bond then (25000 + floor(s.r_pick * 975000))::numeric end,
           case when s.is_bond then 'Liberty Mutual Surety' end,
           case when s.is_bond then 'SB-' || (100000 + s.g) end,
           case when s.is_bond then (array['Performance','Maintenance'])[1 + (s.g % 2)] end,
           now() - make_interval(mins => ${scale.permits} - s.g)
    from shaped s
    join pr on pr.company_id = s.company_id and pr.n = s.g % pr.total;

    insert into comments (permit_id, company_id, user_name, text, is_internal)
    select p.id, p.company_id, 'Bench User', 'Inspector scheduled for next Tuesday.', g % 3 = 0
    from permits p cross join lateral generate_series(1, 1 + (abs(hashtext(p.id::text)) % 3)) g
    where abs(hashtext(p.id::text)) % 10 = 0;

    -- The audit trail: every permit created, a fifth of them (those with comments among them) changed.
    insert into permit_audit (company_id, permit_id, user_name, action, new_value, timestamp)
    select company_id, id, 'Bench User', 'create', permit_number, created_at from permits;
    insert into permit_audit (company_id, permit_id, user_name, action, field, old_value, new_value, timestamp)
    select p.company_id, p.id, 'Bench User', 'update', 'Status', 'Pending', p.status,
           p.created_at + make_interval(days => g)
    from permits p cross join lateral generate_series(1, 1 + (abs(hashtext(p.id::text)) % 4)) g
    where abs(hashtext(p.id::text)) % 5 = 0;
    commit;
  `);

  const [row] = await database.db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.slug, target.slug));
  const targetId = row!.id;
  await database.db.transaction(async (tx) => {
    await createAccount(tx, {
      email: BENCH.users.admin,
      password: BENCH.password,
      role: "company-admin",
      companyId: targetId,
      firstName: "Bench",
      lastName: "Admin",
    });
    const client = await createAccount(tx, {
      email: BENCH.users.clientUser,
      password: BENCH.password,
      role: "client-user",
      companyId: targetId,
      firstName: "Bench",
      lastName: "Client",
    });
    const visible = await queryRows<{ id: string }>(
      tx,
      // Five of the target's 40 clients: a client-user sees about an eighth of the company.
      sql`select id from clients where company_id = ${targetId} order by name limit 5`,
    );
    await tx
      .insert(userClients)
      .values(visible.map((c) => ({ userId: client.id, clientId: c.id, companyId: targetId })));
    await createAccount(tx, {
      email: BENCH.users.superAdmin,
      password: BENCH.password,
      role: "super-admin",
      companyId: null,
      firstName: "Bench",
      lastName: "Super",
    });
  });
  // What autovacuum does soon after a bulk load on a live database: statistics, and the visibility
  // map that lets a count read its index alone (without it, every count visits the table).
  await database.exec("vacuum analyze");

  const [counts] = await queryRows<{ companies: number; permits: number; target: number; comments: number }>(
    database.db,
    sql`select (select count(*)::int from companies) as companies,
      (select count(*)::int from permits) as permits,
      (select count(*)::int from permits where company_id = ${targetId}) as target,
      (select count(*)::int from comments) as comments`,
  );
  log(
    `  data: ${counts!.companies} companies, ${counts!.permits} permits (${counts!.target} in the target company), ` +
      `${counts!.comments} comments, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return targetId;
}

/** Records of the target company the API benchmarks ask for: a permit with comments and changes, a project. */
export async function benchTargets(database: Database) {
  const [row] = await queryRows<{
    company_id: string;
    permit_id: string;
    project_id: string;
    permits: number;
  }>(
    database.db,
    sql`select c.id as company_id,
          (select p.id from permits p
           where p.company_id = c.id and p.record_type = 'permit' and not p.archived and p.status = 'Required'
             and abs(hashtext(p.id::text)) % 10 = 0
           order by p.permit_number limit 1) as permit_id,
          (select p.project_id from permits p where p.company_id = c.id
           group by p.project_id order by count(*) desc, p.project_id limit 1) as project_id,
          (select count(*)::int from permits p where p.company_id = c.id) as permits
        from companies c where c.slug = ${BENCH.target.slug}`,
  );
  if (!row?.permit_id || !row.project_id)
    throw new Error("the bench data has no target company: generate it first");
  return {
    companyId: row.company_id,
    permitId: row.permit_id,
    projectId: row.project_id,
    permits: row.permits,
  };
}

// Run by itself: fill the database of DATABASE_URL (or ./data's PGlite) after migrating it.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { openDatabase } = await import("../../server/db/client.ts");
  const { migrateDatabase } = await import("../../server/db/migrate.ts");
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.DATA_DIR ?? "./data",
  });
  try {
    await migrateDatabase(database);
    await generatePermitsData(database, console.log);
  } finally {
    await database.close();
  }
}
