import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
import { seedDemo } from "./seed-demo.ts";
import { useTestContext } from "../test-support/harness.ts";

const t = useTestContext();

describe("demo seed", () => {
  it("loads two companies, ~300 permits and bonds spread over expiry buckets, and a user of every role", async () => {
    const users = await seedDemo(t.db, {
      password: "demo-password-1",
      today: "2026-11-22",
      auth: t.app.ctx.auth,
      totpSecret: "demo-totp-secret-0123456789abcdef",
    });
    expect(new Set(users.map((u) => u.role))).toEqual(
      new Set(["super-admin", "company-admin", "company-user", "client-user"]),
    );
    const [counts] = await queryRows<Record<string, number>>(
      t.db,
      sql`select count(*)::int as total,
            count(*) filter (where record_type = 'bond')::int as bonds,
            count(*) filter (where expiration_date < '2026-11-22')::int as expired,
            count(*) filter (where expiration_date between '2026-11-22' and '2026-12-22')::int as soon,
            count(*) filter (where expiration_date > '2026-12-22')::int as later,
            count(*) filter (where expiration_date is null)::int as undated,
            count(distinct company_id)::int as companies
          from permits`,
    );
    expect(counts!.total).toBe(300);
    expect(counts!.companies).toBe(2);
    for (const k of ["bonds", "expired", "soon", "later", "undated"]) expect(counts![k]).toBeGreaterThan(10);
    // Every bond is as the bond form leaves it: a surety with limits, Active, its amount the ledger's
    // original entry (issue 12).
    const [bonds] = await queryRows<Record<string, number>>(
      t.db,
      sql`select count(*)::int as bonds,
            count(*) filter (where p.surety_id is not null and p.bond_status = 'active'
                               and p.current_amount = p.bond_amount)::int as opened,
            count(*) filter (where e.kind = 'original' and e.amount_after = p.bond_amount)::int as ledgered,
            count(*) filter (where s.aggregate_limit > 0)::int as limited
          from permits p
          left join bond_ledger_entries e on e.permit_id = p.id
          left join sureties s on s.id = p.surety_id
          where p.record_type = 'bond'`,
    );
    expect(bonds).toEqual({
      bonds: counts!.bonds,
      opened: counts!.bonds,
      ledgered: counts!.bonds,
      limited: counts!.bonds,
    });
    // the demo users can really sign in
    const admin = users.find((u) => u.role === "company-admin")!;
    await t.signIn(admin);
    // The super-admin must use two-factor sign-in: the seed enrolled it with the secret it was given.
    const superAdmin = users.find((u) => u.role === "super-admin")!;
    expect(superAdmin.totpSecret).toBe("demo-totp-secret-0123456789abcdef");
    const signedIn = await t.signIn(superAdmin);
    expect((await signedIn.get("/api/permits")).statusCode).toBe(200);
    await expect(seedDemo(t.db, { password: "x" })).rejects.toThrow(/already loaded/);
  });
});
