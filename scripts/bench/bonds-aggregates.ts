/**
 * Bonds page benchmark (issue 12, "Performance"): the Bonds page's aggregates on a company with
 * 10,000 bonds answer in under 50 ms median on PostgreSQL.
 *
 * The database: the permits benchmark's 100,000 permits in 50 companies (scripts/bench/permits-data.ts;
 * their bonds brought to the ledger as migration 0010 does), plus "Bond Target Contractors" with
 * 10,000 bonds under 8 sureties, 40 clients and 200 projects, in every status, each with its ledger
 * (original amount, and the reduction, release, cancellation or claim its status needs) and
 * collateral on a fifth of them. Everything set-based, in seconds.
 *
 * Measured through the real app (app.inject, no network), signed in as the company's admin (and its
 * client-user for information): GET /api/bonds, which answers the page of 50 bonds and the tiles,
 * exposure by surety, by client and by project over the whole filtered set. Prints min, median,
 * p95 and max per figure.
 *
 * Run (PostgreSQL gets a database of its own, created and dropped here):
 *   npx tsx scripts/bench/bonds-aggregates.ts
 * Options: --db=pg | --db=pglite | --db=both (default pg), --requests=N (default 200), --json,
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres). `npm run bench` adds
 * the bonds to its own permits data set (addBondsData) and reports these figures as information.
 */
import { eq, sql } from "drizzle-orm";
import { createAccount } from "../../server/auth/accounts.ts";
import { queryRows, type Database } from "../../server/db/client.ts";
import { companies, userClients } from "../../server/db/schema.ts";
import { signIn, startApp, timeInjected } from "./bench-app.ts";
import { createBenchDatabase } from "./bench-database.ts";
import {
  arg,
  dbKinds,
  dbLabel,
  figure,
  hasFlag,
  isMain,
  loadAverage,
  printFigures,
  stats,
  type DbKind,
  type Figure,
  type Stats,
} from "./lib.ts";
import { generatePermitsData } from "./permits-data.ts";

const WARMUP = 20;
const BUDGET_MS = 50;

export const BONDS_BENCH = {
  slug: "bond-target",
  bonds: 10_000,
  permits: 2_000,
  sureties: 8,
  clients: 40,
  projects: 200,
  password: "bench-password-1",
  users: { admin: "bonds.admin@bench.example", clientUser: "bonds.client@bench.example" },
} as const;

/** The permits benchmark's bonds, brought to the ledger the way migration 0010 brings existing bonds. */
const LEDGER_THE_OTHERS = `
  insert into sureties (company_id, name)
  select distinct company_id, btrim(surety_company) from permits
  where record_type = 'bond' and btrim(coalesce(surety_company, '')) <> ''
  on conflict do nothing;
  update permits p set surety_id = s.id from sureties s
  where p.record_type = 'bond' and s.company_id = p.company_id and lower(s.name) = lower(btrim(p.surety_company));
  update permits set bond_status = 'active', current_amount = bond_amount where record_type = 'bond';
  insert into bond_ledger_entries (company_id, permit_id, kind, change, amount_after, effective_date, created_by_name)
  select company_id, id, 'original', bond_amount, bond_amount, coalesce(issue_date, start_date, current_date), 'Bench'
  from permits where record_type = 'bond' and bond_amount is not null;
`;

/** The company of 10,000 bonds (and some permits), with sureties, ledgers and collateral. */
function bondTargetSql() {
  const b = BONDS_BENCH;
  return `
  begin;
  select setseed(0.12);
  insert into companies (name, slug, time_zone) values ('Bond Target Contractors', '${b.slug}', 'America/Denver');
  create temporary table bt on commit drop as select id from companies where slug = '${b.slug}';
  insert into sureties (company_id, name, single_limit, aggregate_limit)
  select bt.id, (array['Liberty Mutual Surety','Travelers Bond','CNA Surety','Zurich Surety','Chubb Surety',
                       'Arch Surety','Hartford Bonding','Great American Surety'])[g],
         (2000000 + g * 500000)::numeric, (150000000 + g * 25000000)::numeric
  from bt cross join generate_series(1, ${b.sureties}) g;
  insert into clients (company_id, name)
  select bt.id, 'Bond Client ' || lpad(g::text, 2, '0') from bt cross join generate_series(1, ${b.clients}) g;
  with cl as (select id, row_number() over (order by name) - 1 as n from clients where company_id = (select id from bt))
  insert into projects (company_id, client_id, name, project_number, status)
  select bt.id, cl.id, 'Bond Project ' || g || ' ' || (array['Civic Center','Clinic','Parking','Warehouse','Roadway','Campus'])[1 + g % 6],
         'BPR-' || lpad(g::text, 3, '0'), 'In Progress'
  from bt cross join generate_series(1, ${b.projects}) g join cl on cl.n = g % ${b.clients};

  create temporary table bt_bonds on commit drop as
  with pr as (select id, client_id, row_number() over (order by project_number) - 1 as n
              from projects where company_id = (select id from bt)),
       su as (select id, row_number() over (order by name) - 1 as n from sureties where company_id = (select id from bt)),
       raw as (select g, random() as r_status, random() as r_amount, random() as r_exp from generate_series(1, ${b.bonds}) g)
  select gen_random_uuid() as id, raw.g, pr.id as project_id, pr.client_id, su.id as surety_id,
         (25000 + floor(raw.r_amount * 1975000))::numeric(14,2) as amount,
         case when raw.r_status < 0.60 then 'active' when raw.r_status < 0.75 then 'reduced'
              when raw.r_status < 0.90 then 'released' when raw.r_status < 0.95 then 'cancelled' else 'claimed' end as status,
         current_date - (30 + raw.g % 700) as issue_date,
         current_date + (floor(raw.r_exp * 900) - 60)::int as expiration_date
  from raw join pr on pr.n = raw.g % ${b.projects} join su on su.n = raw.g % ${b.sureties};

  insert into permits (id, company_id, project_id, client_id, permit_number, permit_name, agency, record_type, status,
                       start_date, issue_date, expiration_date, close_date, final_status, bond_amount, surety_company, surety_id,
                       bond_number, guarantee_type, bond_status, current_amount)
  select x.id, bt.id, x.project_id, x.client_id, 'BT-' || lpad(x.g::text, 6, '0'),
         (array['Performance Bond','Maintenance Bond','Payment Bond'])[1 + x.g % 3],
         (array['City of Denver','Colorado DOT','Jefferson County','Denver Water','Adams County'])[1 + x.g % 5],
         'bond', 'Required', x.issue_date, x.issue_date, x.expiration_date,
         case when x.status in ('released','cancelled') then x.issue_date + 200 end,
         case when x.status = 'released' then 'Completed' when x.status = 'cancelled' then 'Cancelled' end,
         x.amount, s.name, x.surety_id, 'SB-' || (500000 + x.g), (array['Performance','Maintenance'])[1 + x.g % 2],
         x.status,
         case when x.status = 'reduced' then round(x.amount / 2, 2) when x.status in ('released','cancelled') then 0
              else x.amount end
  from bt_bonds x cross join bt join sureties s on s.id = x.surety_id;

  insert into permits (company_id, project_id, client_id, permit_number, permit_name, agency, start_date, expiration_date)
  select bt.id, x.project_id, x.client_id, 'BTP-' || lpad(x.g::text, 6, '0'), 'Building Permit', 'City of Denver',
         x.issue_date, x.expiration_date
  from bt_bonds x cross join bt where x.g <= ${b.permits};

  insert into bond_ledger_entries (company_id, permit_id, kind, change, amount_after, effective_date, created_by_name)
  select bt.id, x.id, 'original', x.amount, x.amount, x.issue_date, 'Bench' from bt_bonds x cross join bt;
  insert into bond_ledger_entries (company_id, permit_id, kind, change, amount_after, effective_date, obligee_acceptance_date,
                                   percent, created_by_name)
  select bt.id, x.id, 'reduction', -(x.amount - round(x.amount / 2, 2)), round(x.amount / 2, 2), x.issue_date + 100,
         x.issue_date + 95, 50, 'Bench'
  from bt_bonds x cross join bt where x.status = 'reduced';
  insert into bond_ledger_entries (company_id, permit_id, kind, change, amount_after, effective_date, reason, created_by_name)
  select bt.id, x.id, case when x.status = 'released' then 'release' when x.status = 'cancelled' then 'cancellation' else 'claim' end,
         case when x.status = 'claimed' then 0 else -x.amount end, case when x.status = 'claimed' then x.amount else 0 end,
         x.issue_date + 200, 'Bench', 'Bench'
  from bt_bonds x cross join bt where x.status in ('released','cancelled','claimed');

  insert into bond_collateral (company_id, permit_id, form, amount, held_since, released_on, created_by_name)
  select bt.id, x.id, (array['letter_of_credit','cash','other'])[1 + x.g % 3], round(x.amount / 10, 2), x.issue_date,
         case when x.status in ('released','cancelled') then x.issue_date + 210 end, 'Bench'
  from bt_bonds x cross join bt where x.g % 5 = 0;
  commit;
`;
}

/** Fills a migrated, empty database; returns the bond target's id and a surety of it. */
export async function generateBondsData(database: Database, log: (line: string) => void = () => {}) {
  await generatePermitsData(database, log);
  return addBondsData(database, log);
}

/**
 * Adds the bonds to a database generatePermitsData() filled: the other companies' bonds brought to
 * the ledger, and the bond target company. Returns the bond target's id and a surety of it.
 */
export async function addBondsData(database: Database, log: (line: string) => void = () => {}) {
  const t0 = performance.now();
  await database.exec(`begin; ${LEDGER_THE_OTHERS} commit;`);
  await database.exec(bondTargetSql());
  const [row] = await database.db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.slug, BONDS_BENCH.slug));
  const targetId = row!.id;
  await database.db.transaction(async (tx) => {
    await createAccount(tx, {
      email: BONDS_BENCH.users.admin,
      password: BONDS_BENCH.password,
      role: "company-admin",
      companyId: targetId,
      firstName: "Bonds",
      lastName: "Admin",
    });
    const client = await createAccount(tx, {
      email: BONDS_BENCH.users.clientUser,
      password: BONDS_BENCH.password,
      role: "client-user",
      companyId: targetId,
      firstName: "Bonds",
      lastName: "Client",
    });
    const visible = await queryRows<{ id: string }>(
      tx,
      sql`select id from clients where company_id = ${targetId} order by name limit 5`,
    );
    await tx
      .insert(userClients)
      .values(visible.map((c) => ({ userId: client.id, clientId: c.id, companyId: targetId })));
  });
  await database.exec("analyze");
  const [counts] = await queryRows<{ bonds: number; entries: number; collateral: number; all_bonds: number }>(
    database.db,
    sql`select (select count(*)::int from permits where company_id = ${targetId} and record_type = 'bond') as bonds,
               (select count(*)::int from bond_ledger_entries where company_id = ${targetId}) as entries,
               (select count(*)::int from bond_collateral where company_id = ${targetId}) as collateral,
               (select count(*)::int from permits where record_type = 'bond') as all_bonds`,
  );
  const [surety] = await queryRows<{ id: string }>(
    database.db,
    sql`select id from sureties where company_id = ${targetId} order by name limit 1`,
  );
  log(
    `  bonds: ${counts!.bonds} in the target company (${counts!.entries} ledger entries, ${counts!.collateral} collateral), ` +
      `${counts!.all_bonds} bonds in all, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { targetId, suretyId: surety!.id };
}

const fmt = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;
function line(name: string, s: Stats, budget?: number): string {
  const verdict =
    budget === undefined ? "" : s.median < budget ? `  ok (< ${budget} ms)` : `  OVER BUDGET (${budget} ms)`;
  return `${name.padEnd(44)} min ${fmt(s.min)}  median ${fmt(s.median)}  p95 ${fmt(s.p95)}  max ${fmt(s.max)}  n=${s.n}${verdict}`;
}

/**
 * GET /api/bonds through app.inject (no network) as the bond target's admin, and its client-user
 * for information, on a database addBondsData() filled. The figures carry no budget (`npm run bench`
 * reports them as information); the lines printed judge the median against 50 ms.
 */
export async function benchBonds(
  database: Database,
  o: { kind: DbKind; dataDir: string; suretyId: string; requests: number; log?: (line: string) => void },
): Promise<Figure[]> {
  const log = o.log ?? console.log;
  const running = await startApp(database, { dataDir: o.dataDir });
  const app = running.app;
  try {
    const admin = await signIn(app, BONDS_BENCH.users.admin, BONDS_BENCH.password);
    const client = await signIn(app, BONDS_BENCH.users.clientUser, BONDS_BENCH.password);
    const time = async (name: string, url: string, cookie: string, budget?: number) => {
      const s = stats(await timeInjected(app, url, cookie, { warmup: WARMUP, requests: o.requests }));
      log(`  ${line(name, s, budget)}`);
      return figure({
        section: "bonds",
        db: o.kind,
        name: `GET /api/bonds ${name.trim()} (info)`,
        unit: "ms",
        median: s.median,
        p95: s.p95,
        n: s.n,
      });
    };
    const first = (
      await app.inject({ method: "GET", url: "/api/bonds", headers: { cookie: admin } })
    ).json() as {
      total: number;
      summary: { open_exposure: string };
      by_surety: unknown[];
    };
    log(
      `  GET /api/bonds as the admin: ${first.total} bonds, open exposure ${first.summary.open_exposure}, ` +
        `${first.by_surety.length} sureties`,
    );
    return [
      await time("(page 1, all aggregates)", "/api/bonds", admin, BUDGET_MS),
      await time("  ?surety_id=… (one surety)", `/api/bonds?surety_id=${o.suretyId}`, admin, BUDGET_MS),
      await time(
        "  ?status=active&sort=current_amount&dir=desc",
        "/api/bonds?status=active&sort=current_amount&dir=desc",
        admin,
        BUDGET_MS,
      ),
      await time("  ?q=civic (search)", "/api/bonds?q=civic", admin, BUDGET_MS),
      await time("  client-user (5 of 40 clients)", "/api/bonds", client),
    ];
  } finally {
    await running.close();
  }
}

if (isMain(import.meta.url)) {
  const requests = Number(arg("requests") ?? 200);
  console.log(
    `Bonds aggregates benchmark: ${BONDS_BENCH.bonds} bonds in one company; ${requests} requests per figure.`,
  );
  console.log(`Load average at start: ${loadAverage()}`);
  const figures: Figure[] = [];
  for (const kind of dbKinds(["pg"])) {
    console.log(`\n${dbLabel(kind)}`);
    const bench = await createBenchDatabase(kind, "bench_bonds");
    try {
      const { suretyId } = await generateBondsData(bench.database, console.log);
      figures.push(
        ...(await benchBonds(bench.database, { kind, dataDir: bench.dataDir, suretyId, requests })),
      );
    } finally {
      await bench.dispose();
    }
  }
  console.log(`\nLoad average at the end: ${loadAverage()}`);
  if (hasFlag("json")) printFigures(figures);
}
