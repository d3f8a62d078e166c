import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
import { seedDemo } from "./seed-demo.ts";
import { seedDemoYear } from "./demo-year.ts";
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
    // original entry (issue 12); a bond closed as Completed was released (its ledger says so too).
    const [bonds] = await queryRows<Record<string, number>>(
      t.db,
      sql`select count(*)::int as bonds,
            count(*) filter (where p.surety_id is not null and (
                               (p.close_date is null and p.bond_status = 'active' and p.current_amount = p.bond_amount)
                               or (p.close_date is not null and p.bond_status = 'released' and p.current_amount = 0
                                   and exists (select 1 from bond_ledger_entries r
                                                where r.permit_id = p.id and r.kind = 'release'))))::int as opened,
            count(*) filter (where e.kind = 'original' and e.amount_after = p.bond_amount)::int as ledgered,
            count(*) filter (where s.aggregate_limit > 0)::int as limited
          from permits p
          left join bond_ledger_entries e on e.permit_id = p.id and e.kind = 'original'
          left join sureties s on s.id = p.surety_id
          where p.record_type = 'bond'`,
    );
    expect(bonds).toEqual({
      bonds: counts!.bonds,
      opened: counts!.bonds,
      ledgered: counts!.bonds,
      limited: counts!.bonds,
    });
    // Nothing expires before it was issued, and a bond's name says its guarantee type.
    const [odd] = await queryRows<Record<string, number>>(
      t.db,
      sql`select count(*) filter (where issue_date >= expiration_date)::int as issued_after_expiry,
                 count(*) filter (where record_type = 'bond' and permit_name <> guarantee_type || ' Bond')::int as misnamed
            from permits`,
    );
    expect(odd).toEqual({ issued_after_expiry: 0, misnamed: 0 });

    // A year of work through the app's own routes (issue 25): every lifecycle and ledger feature shows.
    const year = await seedDemoYear(t.app, t.db, users, "2026-11-22");
    expect(year).toEqual({
      renewals: 10,
      extensions: 4,
      inspections: 12,
      acknowledged: 6,
      riders: 4,
      reductions: 4,
      releases: 2,
      maintenanceBonds: 2,
      collateral: expect.any(Number) as number,
    });
    expect(year.collateral).toBeGreaterThan(0);
    const [life] = await queryRows<Record<string, number>>(
      t.db,
      sql`select
            (select count(*) from permit_terms where kind = 'renewal')::int as renewal_terms,
            (select count(*) from permit_terms where kind = 'extension')::int as extension_terms,
            (select count(*) from permit_inspections)::int as inspections,
            (select count(*) from permits where expiry_rule = 'after_inspection')::int as inspection_rule,
            (select count(*) from permits where acknowledged_at is not null)::int as acknowledged,
            (select count(*) from permits where responsible_user_id is not null)::int as responsible,
            (select count(*) from permits where renew_by_date < '2026-11-22' and expiration_date >= '2026-11-22'
                                             and close_date is null)::int as renewal_due,
            (select count(*) from bond_ledger_entries where kind = 'rider')::int as riders,
            (select count(*) from bond_ledger_entries where kind = 'reduction')::int as reductions,
            (select count(*) from bond_ledger_entries where kind = 'release' and created_by is not null)::int as released,
            (select count(*) from permits where maintenance_of_id is not null)::int as maintenance_bonds,
            (select count(*) from bond_collateral)::int as collateral,
            (select count(*) from permit_audit)::int as audit_entries`,
    );
    expect(life).toMatchObject({
      renewal_terms: 10,
      inspections: 12,
      inspection_rule: 6,
      acknowledged: 6,
      riders: 4,
      reductions: 4,
      released: 2,
      maintenance_bonds: 2,
    });
    // 4 extensions, and an inspection that moves the expiry may add its own
    expect(life!.extension_terms).toBeGreaterThanOrEqual(4);
    for (const k of ["responsible", "renewal_due", "collateral", "audit_entries"])
      expect(life![k], k).toBeGreaterThan(0);

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
