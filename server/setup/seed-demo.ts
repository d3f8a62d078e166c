import { randomBytes } from "node:crypto";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { loadConfig } from "../config.ts";
import { buildApp, sessionSecret } from "../app.ts";
import { createAccount } from "../auth/accounts.ts";
import { createAuth, type Auth } from "../auth/auth.ts";
import { enrolWithSecret, manualKeyOfSecret, secretOfManualKey } from "../auth/two-factor.ts";
import { addDays, todayIn } from "../../shared/domain/dates.ts";
import { hasClientFilter, type Role } from "../../shared/domain/roles.ts";
import { openDatabase, type Db } from "../db/client.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { ensureFirstSuperAdmin } from "./bootstrap.ts";
import { seedDemoYear } from "./demo-year.ts";
import {
  clients,
  comments,
  companies,
  companyPreferences,
  permits,
  permitTemplates,
  projects,
  userClients,
  userNotifications,
} from "../db/schema.ts";

const AGENCIES = [
  "City of Denver Building Dept.",
  "Denver Public Works",
  "Colorado DOT",
  "Jefferson County Planning",
  "Urban Drainage District",
  "Xcel Energy",
  "State Water Board",
  "Fire Marshal",
];
/** Permit names of the demo data; the permits benchmark uses them too. */
export const PERMIT_KINDS = [
  "Building Permit",
  "Encroachment Permit",
  "Grading Permit",
  "Right-of-Way Permit",
  "Utility Connection",
  "Stormwater Permit",
  "Demolition Permit",
  "Electrical Permit",
  "Fire Sprinkler Permit",
  "Traffic Control Plan",
];
const SURETIES = ["Liberty Mutual Surety", "Travelers Bond", "Zurich Surety", "CNA Surety"];
/** Each demo surety's 'Single Limit' and 'Aggregate Limit', so the Bonds page shows the share in use. */
const SURETY_LIMITS: Record<string, [number, number]> = {
  "Liberty Mutual Surety": [5_000_000, 25_000_000],
  "Travelers Bond": [3_000_000, 12_000_000],
  "Zurich Surety": [2_500_000, 8_000_000],
  "CNA Surety": [1_500_000, 6_000_000],
};

/** Deterministic pseudo-random numbers, so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

export interface DemoUser {
  role: Role;
  email: string;
  password: string;
  company: string | null;
  /** The super-admin's TOTP secret (it must use two-factor sign-in), when the seed enrolled it. */
  totpSecret?: string;
}

/**
 * Loads two companies with clients, projects, about 300 permits and bonds (expired, expiring
 * within 30 days, later, and undated), comments, templates, and one user of every role. With
 * `auth`, the demo super-admin is enrolled in two-factor sign-in (`totpSecret`, else a new secret).
 */
export async function seedDemo(
  db: Db,
  opts: { password?: string; today?: string; auth?: Auth; totpSecret?: string } = {},
): Promise<DemoUser[]> {
  const today = opts.today ?? todayIn("UTC");
  const [existing] = await db.select().from(companies).where(eq(companies.slug, "summit-ridge"));
  if (existing) throw new Error("The demo data is already loaded (company 'summit-ridge' exists).");
  const pw = () => opts.password ?? randomBytes(9).toString("base64url");
  const rand = rng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const users: DemoUser[] = [];

  return db.transaction(async (tx) => {
    const specs = [
      {
        name: "Summit Ridge Construction",
        slug: "summit-ridge",
        address: "1200 Larimer St, Denver, CO 80204",
        phone: "(303) 555-0142",
        website: "https://summitridge.example",
        timeZone: "America/Denver",
        clients: ["City of Aurora", "Front Range Medical", "Riverside Apartments LLC", "Peak Logistics"],
        permitCount: 170,
      },
      {
        name: "Bayline Civil Engineering",
        slug: "bayline-civil",
        address: "48 Harbor Way, Oakland, CA 94607",
        phone: "(510) 555-0190",
        website: "https://bayline.example",
        timeZone: "America/Los_Angeles",
        clients: ["Port of Oakland", "East Bay Schools", "Golden Gate Transit"],
        permitCount: 130,
      },
    ];
    for (const [ci, spec] of specs.entries()) {
      const [company] = await tx
        .insert(companies)
        .values({
          name: spec.name,
          slug: spec.slug,
          address: spec.address,
          phone: spec.phone,
          website: spec.website,
          timeZone: spec.timeZone,
          contactName: "Operations Desk",
          contactEmail: `ops@${spec.slug}.example`,
        })
        .returning();
      await tx.insert(companyPreferences).values({ companyId: company!.id });
      const clientRows = await tx
        .insert(clients)
        .values(spec.clients.map((name) => ({ companyId: company!.id, name })))
        .returning();
      await tx.insert(permitTemplates).values([
        { companyId: company!.id, name: "Building Permit", agency: AGENCIES[0], status: "Required" },
        { companyId: company!.id, name: "Grading Permit", agency: AGENCIES[3], status: "Required" },
        { companyId: company!.id, name: "Stormwater Permit", agency: AGENCIES[4], status: "Required" },
        { companyId: company!.id, name: "Fire Sprinkler Permit", agency: AGENCIES[7], status: "N/A" },
      ]);
      const projectRows = [];
      for (let p = 0; p < clientRows.length * 2; p++) {
        const client = clientRows[p % clientRows.length]!;
        const [row] = await tx
          .insert(projects)
          .values({
            companyId: company!.id,
            clientId: client.id,
            name: `${client.name.split(" ")[0]} ${pick(["Civic Center", "Clinic Expansion", "Parking Structure", "Warehouse", "Roadway Widening", "Campus Renovation"])} ${p + 1}`,
            projectNumber: `${spec.slug.slice(0, 2).toUpperCase()}-${2024 + (p % 3)}-${String(101 + p).padStart(3, "0")}`,
            status: pick([
              "In Progress",
              "Under Construction",
              "Waiting on Permit",
              "Not Started",
              "On Hold",
            ]),
            startDate: addDays(today, -Math.floor(rand() * 400) - 30),
          })
          .returning();
        projectRows.push(row!);
      }

      const permitValues: (typeof permits.$inferInsert)[] = [];
      for (let i = 0; i < spec.permitCount; i++) {
        const project = projectRows[i % projectRows.length]!;
        const isBond = rand() < 0.15;
        const bucket = rand();
        // expired 15%, expiring within 30 days 15%, later 45%, no expiration 25%
        const expiration =
          bucket < 0.15
            ? addDays(today, -Math.floor(rand() * 120) - 1)
            : bucket < 0.3
              ? addDays(today, Math.floor(rand() * 30))
              : bucket < 0.75
                ? addDays(today, 31 + Math.floor(rand() * 500))
                : null;
        let start = addDays(today, -Math.floor(rand() * 300) - 10);
        let applied = rand() < 0.8 ? addDays(start, Math.floor(rand() * 20)) : null;
        let issued = expiration && applied ? addDays(applied, 10 + Math.floor(rand() * 30)) : null;
        // Nothing expires before it was issued: a term a year long at most, applied for two weeks
        // before, started a week before that (the draws above stay as they were).
        if (issued && expiration && issued >= addDays(expiration, -30)) {
          issued = addDays(expiration, -365);
          if (applied && applied > addDays(issued, -14)) applied = addDays(issued, -14);
          if (start > addDays(applied ?? issued, -7)) start = addDays(applied ?? issued, -7);
        }
        // A bond's name says its guarantee type ("Maintenance Bond" is a Maintenance bond).
        let bondKind: "Performance" | "Maintenance" = "Performance";
        // Set in the row below, in its place among the random draws (the demo data stays the same).
        let closed: string | null;
        permitValues.push({
          companyId: company!.id,
          projectId: project.id,
          clientId: project.clientId,
          permitNumber: `${isBond ? "BND" : "PRM"}-${ci + 1}${String(i + 1).padStart(4, "0")}`,
          permitName: isBond
            ? `${(bondKind = pick(["Performance", "Maintenance"] as const))} Bond`
            : pick(PERMIT_KINDS),
          agency: pick(AGENCIES),
          status: rand() < 0.85 ? "Required" : pick(["In Waiting", "Pending", "N/A"]),
          archived: rand() < 0.05,
          recordType: isBond ? "bond" : "permit",
          startDate: start,
          permitApplicationDate: applied,
          issueDate: issued,
          expirationDate: expiration,
          closeDate: (closed = expiration && rand() < 0.05 ? addDays(expiration, -5) : null),
          // A closed permit says how it ended, as 'Close Permit' and the form ask.
          finalStatus: closed ? (isBond ? "Completed" : "Finaled") : null,
          phase: pick(["Design", "Pre-construction", "Construction", "Closeout"]),
          ...(isBond
            ? {
                bondAmount: String(Math.round(25_000 + rand() * 975_000)),
                suretyCompany: pick(SURETIES),
                bondNumber: `SB-${100000 + Math.floor(rand() * 899999)}`,
                guaranteeType: (rand(), bondKind),
              }
            : {}),
        });
      }
      const permitRows = await tx.insert(permits).values(permitValues).returning({ id: permits.id });
      await openBondLedgers(tx, company!.id);

      // The company's contact (its admin) receives the reminders and writes the demo comments.
      const roleSpecs: { role: Role; first: string; last: string; title: string; isContact?: true }[] = [
        {
          role: "company-admin",
          first: ci ? "Maya" : "Dana",
          last: ci ? "Chen" : "Whitfield",
          title: "Permit Manager",
          isContact: true,
        },
        {
          role: "company-user",
          first: ci ? "Luis" : "Sam",
          last: ci ? "Ortega" : "Baker",
          title: "Project Engineer",
        },
        {
          role: "client-user",
          first: ci ? "Priya" : "Jordan",
          last: ci ? "Nair" : "Ellis",
          title: "Owner's Rep",
        },
      ];
      for (const r of roleSpecs) {
        const password = pw();
        const email = `${r.first.toLowerCase()}.${r.last.toLowerCase()}@${spec.slug}.example`;
        const user = await createAccount(tx, {
          email,
          password,
          role: r.role,
          companyId: company!.id,
          firstName: r.first,
          lastName: r.last,
          title: r.title,
        });
        users.push({ role: r.role, email, password, company: spec.name });
        if (hasClientFilter(r.role)) {
          await tx
            .insert(userClients)
            .values({ userId: user.id, clientId: clientRows[0]!.id, companyId: company!.id });
        }
        if (r.isContact) {
          await tx.insert(userNotifications).values({ userId: user.id, companyId: company!.id });
          await tx.update(companies).set({ adminUserId: user.id }).where(eq(companies.id, company!.id));
          await tx.insert(comments).values(
            permitRows.slice(0, 40).map((p, k) => ({
              permitId: p.id,
              companyId: company!.id,
              userId: user.id,
              userName: `${r.first} ${r.last}`,
              text: pick([
                "Submitted revised drawings to the agency.",
                "Inspector scheduled for next Tuesday.",
                "Waiting on fee invoice from the city.",
                "Client asked for a status update.",
                "Renewal application in progress.",
              ]),
              isInternal: k % 3 === 0,
            })),
          );
        }
      }
    }
    const password = pw();
    const email = "super.admin@permitrack.example";
    const superAdmin = await createAccount(tx, {
      email,
      password,
      role: "super-admin",
      companyId: null,
      firstName: "Avery",
      lastName: "Stone",
    });
    const totpSecret = opts.auth ? (opts.totpSecret ?? randomBytes(16).toString("hex")) : undefined;
    if (opts.auth && totpSecret) await enrolWithSecret(opts.auth, tx, superAdmin.id, totpSecret);
    users.unshift({ role: "super-admin", email, password, company: null, totpSecret });
    return users;
  });
}

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateDatabase(database);
    const typedKey = process.env.DEMO_TOTP_SECRET?.trim();
    const totpSecret = typedKey ? secretOfManualKey(typedKey) : undefined;
    if (totpSecret === null)
      throw new Error(
        "DEMO_TOTP_SECRET must be the key an authenticator app takes: base32 (A-Z and 2-7), as this command prints it.",
      );
    await ensureFirstSuperAdmin(database.db, config, (line) => console.log(line));
    const users = await seedDemo(database.db, {
      password: process.env.DEMO_PASSWORD || undefined,
      auth: createAuth(database.db, config, sessionSecret(config)),
      totpSecret,
    });
    // The year's work goes through the app's own routes (no web folder, no scheduler, no mail out).
    const app = await buildApp({
      config,
      database,
      logger: false,
      webDir: path.join(config.DATA_DIR, "no-web"),
    });
    try {
      await app.ready();
      const year = await seedDemoYear(app, database.db, users, todayIn("UTC"));
      console.log(
        `\nDemo data loaded: 2 companies, 7 clients, 14 projects, 300 permits and bonds; a year of work: ` +
          `${year.renewals} renewals, ${year.extensions} extensions, ${year.inspections} inspections, ` +
          `${year.acknowledged} acknowledged terms, ${year.riders} riders, ${year.reductions} reductions, ` +
          `${year.releases} released bonds with their maintenance bonds, ${year.collateral} collateral items.\n`,
      );
    } finally {
      await app.close();
    }
    console.log("Demo users (passwords are shown only now):");
    for (const u of users)
      console.log(`  ${u.role.padEnd(14)} ${u.email.padEnd(42)} ${u.password}   ${u.company ?? ""}`);
    const enrolled = users.find((u) => u.totpSecret);
    if (enrolled?.totpSecret) {
      console.log(
        `\nThe super-admin signs in with two-factor authentication. Add this key to an authenticator app:`,
      );
      console.log(`  ${manualKeyOfSecret(enrolled.totpSecret).replace(/(.{4})(?=.)/g, "$1 ")}`);
    }
    console.log("");
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

/**
 * The company's bonds as the bond form would leave them (issue 12): their sureties (with limits),
 * status Active (Released, with its release entry, for a bond closed as Completed), and their amount as the ledger's original entry, effective on the issue date (else
 * the start date). Set-based, like migration 0010 does for bonds from before the ledger.
 */
async function openBondLedgers(tx: Db, companyId: string) {
  for (const [name, [single, aggregate]] of Object.entries(SURETY_LIMITS))
    await tx.execute(sql`
      insert into sureties (company_id, name, single_limit, aggregate_limit)
      values (${companyId}, ${name}, ${single}, ${aggregate})`);
  await tx.execute(sql`
    update permits p set surety_id = s.id, bond_status = 'active', current_amount = p.bond_amount
    from sureties s
    where p.company_id = ${companyId} and p.record_type = 'bond'
      and s.company_id = p.company_id and s.name = p.surety_company`);
  await tx.execute(sql`
    insert into bond_ledger_entries
      (company_id, permit_id, kind, change, amount_after, effective_date, reason, created_by, created_by_name)
    select company_id, id, 'original', bond_amount, bond_amount, coalesce(issue_date, start_date, current_date),
           'Original bond amount', null, 'Demo data'
    from permits
    where company_id = ${companyId} and record_type = 'bond' and bond_amount is not null
    order by permit_number`);
  // A bond closed as Completed was released on its close date, as 'Release Bond' leaves it.
  await tx.execute(sql`
    insert into bond_ledger_entries
      (company_id, permit_id, kind, change, amount_after, effective_date, reason, created_by, created_by_name)
    select company_id, id, 'release', -bond_amount, 0, close_date, 'Work completed; release letter on file', null,
           'Demo data'
    from permits
    where company_id = ${companyId} and record_type = 'bond' and bond_amount is not null and close_date is not null
    order by permit_number`);
  await tx.execute(sql`
    update permits set bond_status = 'released', current_amount = 0
    where company_id = ${companyId} and record_type = 'bond' and bond_amount is not null and close_date is not null`);
}
