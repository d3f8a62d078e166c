import { beforeAll, describe, expect, it } from "vitest";
import { useTestContext } from "../../test-support/harness.ts";
import { webhookHelpers } from "../../test-support/webhook-events.ts";
import { useWorld } from "../../test-support/world.ts";

/*
 * Issue 30, item 3: every entry the ledger's writer appends is 'bond.ledger_entry_added' about its
 * bond (the entry's kind, signed change, amount after and effective date, amounts as stored); a
 * release is also 'bond.released'. Through the real API; the other company's endpoint hears nothing.
 */

const t = useTestContext();
const w = useWorld(t);
const h = webhookHelpers(t);
let ours: string;
let projectId: string;

beforeAll(async () => {
  ours = (await h.endpoint(w.companyId)).id;
  await h.endpoint(w.otherCompanyId);
  projectId = (await t.make.project({ companyId: w.companyId, clientId: w.seenClientId })).id;
});

describe("bond ledger events", () => {
  it("the original amount, a rider and a release, each an entry; the release also bond.released", async () => {
    const created = await w.admin.post("/api/permits", {
      permit_number: "B-WH-1",
      permit_name: "Webhook bond",
      record_type: "bond",
      agency: "City of Springfield",
      issue_date: "2026-01-05",
      expiration_date: "2028-06-30",
      project_id: projectId,
      bond_amount: "100000",
      surety_company: "Acme Surety",
      guarantee_type: "Performance",
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const original = await h.theEvent(id, "bond.ledger_entry_added", ours);
    expect(original.data).toMatchObject({
      entry: {
        kind: "original",
        change: "100000.00",
        amount_after: "100000.00",
        effective_date: "2026-01-05",
      },
      permit: { id, kind: "bond", bond: { current_amount: 100000, status: "active" } },
    });

    const rider = await w.admin.post(`/api/bonds/${id}/ledger`, {
      kind: "rider",
      change: "25000",
      effective_date: "2026-02-01",
      reason: "Change order",
    });
    expect(rider.statusCode, rider.body).toBe(200);
    const entries = () => h.eventsAbout(id, "bond.ledger_entry_added");
    expect((await entries()).at(-1)!.data).toMatchObject({
      entry: { kind: "rider", change: "25000.00", amount_after: "125000.00", effective_date: "2026-02-01" },
      permit: { bond: { current_amount: 125000 } },
    });
    expect(await h.eventsAbout(id, "bond.released")).toHaveLength(0);

    const release = await w.admin.post(`/api/bonds/${id}/ledger`, {
      kind: "release",
      effective_date: "2026-05-01",
    });
    expect(release.statusCode, release.body).toBe(200);
    const all = await entries();
    expect(all).toHaveLength(3);
    expect(all.at(-1)!.data.entry).toMatchObject({
      kind: "release",
      change: "-125000.00",
      amount_after: "0.00",
    });
    const released = await h.theEvent(id, "bond.released", ours);
    expect(released.data).toMatchObject({
      entry: { kind: "release", effective_date: "2026-05-01" },
      permit: { id, bond: { status: "released", current_amount: 0 } },
    });
    for (const e of all) expect(e.endpoints).toEqual([ours]);
    await h.nothingFor(w.otherCompanyId);
  });
});
