import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conditionTasks, permitConditions, permits } from "../../db/schema.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { ImportResult } from "../../../shared/schemas/imports.ts";

/**
 * Issue 29: the import's conditions file (multipart field `conditions`): rows name permits of the
 * main file or of the company; bad rows are rejected with their row numbers; a dry run rolls back.
 */
const t = useTestContext();
const ZONE = "America/Chicago";

const PERMITS = `project,start_date,project_number,permit_number,permit_name
Tower,2026-01-05,T-1,BP-1,Building
Tower,2026-01-05,T-1,GR-1,Grading
`;
const HEADER =
  "permit_number,title,description,owner,evidence,schedule,due_date,interval,unit,starting,ends,within,within_unit,milestone,milestone_date,event";

function upload(api: ApiClient, conditions: string, dryRun = false) {
  return api.request({
    method: "POST",
    url: `/api/imports/permits${dryRun ? "?dry_run=true" : ""}`,
    ...multipart([
      { name: "file", filename: "permits.csv", contentType: "text/csv", content: PERMITS },
      { name: "conditions", filename: "conditions.csv", contentType: "text/csv", content: conditions },
    ]),
  });
}

async function setup() {
  const company = await t.make.company({ timeZone: ZONE });
  const owner = await t.make.user({
    role: "company-user",
    companyId: company.id,
    email: `owner-${company.id}@example.com`,
  });
  await t.make.client(company.id);
  const existing = await t.make.permit({ companyId: company.id, permitNumber: "OLD-7", permitName: "Older" });
  const api = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
  return { company, owner, existing, api };
}

const today = () => todayIn(ZONE);

describe("importing a conditions file", () => {
  it("adds good rows to the file's and the company's permits with first tasks, and rejects bad ones by row", async () => {
    const { company, owner, existing, api } = await setup();
    const far = addDays(today(), 30);
    const csv = [
      HEADER,
      `BP-1,Post the permit card,,${owner.email.toUpperCase()},Photo,Once,${far},,,,,,,,,`,
      `gr-1,Inspect erosion controls,BMPs,,None,Every,,7,Days,${today()},,,,,,`,
      `OLD-7,Notify the inspector,,,File,Before an event,,,,,,48,Hours,Pour,${far} 07:00,`,
      `BP-1,Inspect after rain,,,,After an event,,,,,,24,hours,,,Rain ≥ 0.25 in`,
      `NOPE-1,Unknown permit,,,,Once,${far},,,,,,,,,`,
      `BP-1,No unit,,,,Every,,7,,${today()},,,,,,`,
      `BP-1,Bad owner,,nobody@example.com,,Once,${far},,,,,,,,,`,
      `BP-1,Bad evidence,,,Video,Once,${far},,,,,,,,,`,
      `BP-1,,,,,Once,${far},,,,,,,,,`,
    ].join("\n");
    const res = await upload(api, csv);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ImportResult;
    expect(result.inserted).toHaveLength(2);
    expect(result.conditions).toMatchObject({ file_name: "conditions.csv", total_rows: 9 });
    expect(result.conditions!.added.map((a) => [a.row, a.permit_number, a.title])).toEqual([
      [2, "BP-1", "Post the permit card"],
      [3, "gr-1", "Inspect erosion controls"],
      [4, "OLD-7", "Notify the inspector"],
      [5, "BP-1", "Inspect after rain"],
    ]);
    expect(result.conditions!.rejected).toEqual([
      { row: 6, reason: "Row 6: permit_number 'NOPE-1' is not a permit of this file or of the company" },
      { row: 7, reason: "Row 7: Unit is required" },
      { row: 8, reason: "Row 8: owner 'nobody@example.com' is not a staff user of this company" },
      { row: 9, reason: "Row 9: evidence 'Video' must be None, File or Photo" },
      { row: 10, reason: expect.stringMatching(/Title/) },
    ]);
    const made = await t.db.select().from(permitConditions).where(eq(permitConditions.companyId, company.id));
    const byTitle = new Map(made.map((c) => [c.title, c]));
    expect(made).toHaveLength(4);
    expect(byTitle.get("Post the permit card")).toMatchObject({
      evidence: "photo",
      dueDate: far,
      ownerUserId: owner.id,
    });
    expect(byTitle.get("Notify the inspector")).toMatchObject({
      permitId: existing.id,
      evidence: "file",
      offsetAmount: 48,
    });
    // 07:00 in Chicago on that day.
    expect(new Date(byTitle.get("Notify the inspector")!.milestoneAt!).toISOString()).toMatch(
      /T1[23]:00:00.000Z$/,
    );
    const [grading] = await t.db.select().from(permits).where(eq(permits.permitNumber, "GR-1"));
    expect(byTitle.get("Inspect erosion controls")!.permitId).toBe(grading!.id);
    const tasks = await t.db.select().from(conditionTasks).where(eq(conditionTasks.companyId, company.id));
    const dueOf = (title: string) =>
      tasks.filter((x) => x.conditionId === byTitle.get(title)!.id).map((x) => x.dueOn);
    expect(dueOf("Post the permit card")).toEqual([far]);
    expect(dueOf("Inspect erosion controls")).toEqual([today()]);
    // 48 hours before 07:00 on that day.
    expect(dueOf("Notify the inspector")).toEqual([addDays(far, -2)]);
    expect(dueOf("Inspect after rain")).toEqual([]);
  });

  it("rolls everything back on a dry run, and answers conditions null without the file", async () => {
    const { company, api } = await setup();
    const csv = `${HEADER}\nBP-1,Post the permit card,,,,Once,${addDays(today(), 3)},,,,,,,,,\n`;
    const dry = await upload(api, csv, true);
    expect(dry.statusCode, dry.body).toBe(200);
    expect((dry.json() as ImportResult).conditions!.added).toHaveLength(1);
    expect(
      await t.db.select().from(permitConditions).where(eq(permitConditions.companyId, company.id)),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(permits)
        .where(and(eq(permits.companyId, company.id), eq(permits.permitNumber, "BP-1"))),
    ).toEqual([]);

    const bad = await upload(api, "title,schedule\nX,Once\n");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/conditions file.*missing: permit_number/i);

    const plain = await api.request({
      method: "POST",
      url: "/api/imports/permits",
      ...multipart([{ name: "file", filename: "permits.csv", contentType: "text/csv", content: PERMITS }]),
    });
    expect(plain.statusCode).toBe(200);
    expect((plain.json() as ImportResult).conditions).toBeNull();
  });
});
