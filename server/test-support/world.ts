import { beforeAll } from "vitest";
import type { companies, users } from "../db/schema.ts";
import type { ApiClient, TestContext } from "./harness.ts";

type CompanyRow = typeof companies.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** What one person of the world may differ in from the default cast. */
export interface PersonOptions {
  firstName?: string;
  lastName?: string;
  mustResetPassword?: boolean;
}

export interface WorldOptions {
  /** Overrides for "Acme Builders", the company the signed-in users belong to. */
  company?: { name?: string; timeZone?: string };
  /** Also create the seen, hidden and foreign permits. */
  permits?: boolean;
  /** Also sign in a company-admin of the other company. */
  otherAdmin?: boolean;
  /** Names and flags of the cast, e.g. `{ user: { mustResetPassword: true } }`. */
  people?: Partial<Record<"superAdmin" | "admin" | "user" | "clientUser", PersonOptions>>;
}

/**
 * The data most API tests start from: two companies, one signed-in user of each role in the first,
 * and a client the client-user may see. Fields marked "with ..." exist only when that option is set.
 */
export interface World {
  company: CompanyRow;
  companyId: string;
  /** "Bayline Civil": the company whose records everyone above must get 404 for. */
  otherCompanyId: string;
  /** The one client the client-user may see ("Seen Client"). */
  seenClientId: string;
  superAdmin: ApiClient;
  superAdminId: string;
  admin: ApiClient;
  adminId: string;
  user: ApiClient;
  userId: string;
  clientUser: ApiClient;
  clientUserId: string;
  /** With `otherAdmin`: a company-admin of the other company. */
  otherAdmin: ApiClient;
  /** With `permits`: a permit of the seen client. */
  permitId: string;
  /** With `permits`: a permit of the same company under a client the client-user may not see. */
  hiddenPermitId: string;
  /** With `permits`: a permit of the other company. */
  foreignPermitId: string;
}

// The default cast, so names in assertions read the same across feature tests.
const CAST = {
  superAdmin: { firstName: "Sue", lastName: "Perry" },
  admin: { firstName: "Ada", lastName: "Admin" },
  user: { firstName: "Sam", lastName: "Baker" },
  clientUser: { firstName: "Cleo", lastName: "Client" },
} satisfies Record<string, PersonOptions>;

/** Creates the world's rows and signs its people in; `useWorld` calls it from a beforeAll. */
export async function buildWorld(t: TestContext, options: WorldOptions = {}): Promise<World> {
  const w = {} as World;
  const person = (key: keyof typeof CAST) => ({ ...CAST[key], ...options.people?.[key] });
  const signIn = async (user: UserRow & { password: string }) => [user.id, await t.signIn(user)] as const;

  w.company = await t.make.company({ name: "Acme Builders", ...options.company });
  w.companyId = w.company.id;
  const other = await t.make.company({ name: "Bayline Civil" });
  w.otherCompanyId = other.id;
  w.seenClientId = (await t.make.client(w.companyId, "Seen Client")).id;
  if (options.permits) {
    const hiddenClient = await t.make.client(w.companyId, "Hidden Client");
    w.permitId = (await t.make.permit({ companyId: w.companyId, clientId: w.seenClientId })).id;
    w.hiddenPermitId = (await t.make.permit({ companyId: w.companyId, clientId: hiddenClient.id })).id;
    w.foreignPermitId = (await t.make.permit({ companyId: other.id })).id;
  }
  const companyId = w.companyId;
  [w.superAdminId, w.superAdmin] = await signIn(
    await t.make.user({ role: "super-admin", ...person("superAdmin") }),
  );
  [w.adminId, w.admin] = await signIn(
    await t.make.user({ role: "company-admin", companyId, ...person("admin") }),
  );
  [w.userId, w.user] = await signIn(
    await t.make.user({ role: "company-user", companyId, ...person("user") }),
  );
  [w.clientUserId, w.clientUser] = await signIn(
    await t.make.user({
      role: "client-user",
      companyId,
      clientIds: [w.seenClientId],
      ...person("clientUser"),
    }),
  );
  if (options.otherAdmin) {
    w.otherAdmin = await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id }));
  }
  return w;
}

/**
 * Registers a beforeAll (after the test context's) that builds the world, plus what `extend` adds
 * for one file, and returns the object it fills in before the tests run.
 */
export function useWorld<Extra extends object = object>(
  t: TestContext,
  options: WorldOptions = {},
  extend?: (w: World) => Promise<Extra>,
): World & Extra {
  const w = {} as World & Extra;
  beforeAll(async () => {
    Object.assign(w, await buildWorld(t, options));
    if (extend) Object.assign(w, await extend(w));
  });
  return w;
}

/** A company of its own with a signed-in company-admin, for tests that must see only their own rows. */
export async function freshCompany(t: TestContext, company: { name?: string; timeZone?: string } = {}) {
  const row = await t.make.company(company);
  const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: row.id }));
  return { company: row, admin };
}
