import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { savedViews } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { SAVED_VIEWS_MAX } from "../../../shared/domain/permit-list.ts";
import type { SavedView } from "../../../shared/schemas/saved-views.ts";

const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });
const w = useWorld(t, { otherAdmin: true });

const ofUser = (userId: string) => t.db.select().from(savedViews).where(eq(savedViews.userId, userId));
const save = async (
  api: typeof w.admin,
  name: string,
  params: Record<string, string> = { tile: "expired" },
) => {
  const res = await api.post("/api/saved-views", { name, params });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().view as SavedView;
};

describe("saved views: sign-in and who may", () => {
  it("requires sign-in on every route", async () => {
    const id = t.make.uuid();
    expect((await t.anonymous.get("/api/saved-views")).statusCode).toBe(401);
    expect((await t.anonymous.post("/api/saved-views", { name: "x", params: {} })).statusCode).toBe(401);
    expect((await t.anonymous.put(`/api/saved-views/${id}`, { name: "x" })).statusCode).toBe(401);
    expect((await t.anonymous.delete(`/api/saved-views/${id}`)).statusCode).toBe(401);
  });

  it("lets every role keep its own views, and shows each user only theirs", async () => {
    const clients = { superAdmin: w.superAdmin, admin: w.admin, user: w.user, clientUser: w.clientUser };
    for (const [role, api] of Object.entries(clients)) {
      await save(api, `Mine as ${role}`, { q: role, group: "none" });
    }
    for (const [role, api] of Object.entries(clients)) {
      const res = await api.get("/api/saved-views");
      expect(res.statusCode).toBe(200);
      const names = (res.json().views as SavedView[]).map((v) => v.name);
      expect(names).toContain(`Mine as ${role}`);
      expect(names.filter((n) => n.startsWith("Mine as "))).toEqual([`Mine as ${role}`]);
    }
    // The client-user's view is stored under its company; the super-admin's under none.
    expect((await ofUser(w.clientUserId))[0]?.companyId).toBe(w.companyId);
    expect((await ofUser(w.superAdminId))[0]?.companyId).toBeNull();
  });
});

describe("POST /api/saved-views", () => {
  it("saves the list's filters as the URL has them, dropping empty ones", async () => {
    const view = await save(w.admin, "  Expiring bonds ", {
      tile: "expiring_soon",
      record_type: "bond",
      sort: "expiration_date",
      dir: "desc",
      group: "none",
      q: "",
      expires_from: "2030-01-01",
    });
    expect(view).toMatchObject({
      name: "Expiring bonds",
      params: {
        tile: "expiring_soon",
        record_type: "bond",
        sort: "expiration_date",
        dir: "desc",
        group: "none",
        expires_from: "2030-01-01",
      },
    });
    expect(Object.keys(view.params)).not.toContain("q");
  });

  it("answers 400 with field messages for a missing name, unknown filters or values the list refuses", async () => {
    const before = (await ofUser(w.userId)).length;
    const noName = await w.user.post("/api/saved-views", { name: "  ", params: {} });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields.name).toBe("View name is required");
    const unknown = await w.user.post("/api/saved-views", { name: "x", params: { page: "2", evil: "1" } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toMatchObject({
      "params.page": "Unknown filter",
      "params.evil": "Unknown filter",
    });
    const bad = await w.user.post("/api/saved-views", {
      name: "x",
      params: { tile: "soon", expires_from: "2030-02-01", expires_to: "2030-01-01" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields["params.tile"]).toBe("Unknown tile");
    const notText = await w.user.post("/api/saved-views", { name: "x", params: { q: 5 } });
    expect(notText.statusCode).toBe(400);
    expect((await ofUser(w.userId)).length).toBe(before);
  });

  it("refuses a second view of the same name for the same user (409), any case; others may use it", async () => {
    await save(w.user, "Weekly review");
    const dup = await w.user.post("/api/saved-views", { name: "WEEKLY review", params: {} });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toBe('You already have a view named "WEEKLY review".');
    await save(w.admin, "Weekly review");
  });

  it(`keeps at most ${SAVED_VIEWS_MAX} views per user`, async () => {
    const api = await t.signIn(await t.make.user({ role: "company-user", companyId: w.companyId }));
    for (let i = 0; i < SAVED_VIEWS_MAX; i++) await save(api, `View ${i}`);
    const res = await api.post("/api/saved-views", { name: "One too many", params: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.name).toMatch(/at most 50 views/);
  });
});

describe("PUT and DELETE /api/saved-views/:id", () => {
  it("renames a view and replaces its filters", async () => {
    const view = await save(w.user, "To rename", { tile: "expired" });
    const renamed = await w.user.put(`/api/saved-views/${view.id}`, { name: "Renamed" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().view).toMatchObject({ name: "Renamed", params: { tile: "expired" } });
    const refiltered = await w.user.put(`/api/saved-views/${view.id}`, { params: { tile: "closed" } });
    expect(refiltered.json().view).toMatchObject({ name: "Renamed", params: { tile: "closed" } });
    expect((await w.user.put(`/api/saved-views/${view.id}`, {})).statusCode).toBe(400);
    await save(w.user, "Taken");
    expect((await w.user.put(`/api/saved-views/${view.id}`, { name: "taken" })).statusCode).toBe(409);
  });

  it("answers 404 for another user's view, in the same company or another, for every role, and changes nothing", async () => {
    const view = await save(w.user, "Private to Sam", { q: "secret" });
    const others = [w.admin, w.clientUser, w.superAdmin, w.otherAdmin];
    for (const api of others) {
      expect((await api.put(`/api/saved-views/${view.id}`, { name: "Hijacked" })).statusCode).toBe(404);
      expect((await api.delete(`/api/saved-views/${view.id}`)).statusCode).toBe(404);
      const listed = (await api.get("/api/saved-views")).json().views as SavedView[];
      expect(listed.map((v) => v.id)).not.toContain(view.id);
    }
    const [row] = await t.db.select().from(savedViews).where(eq(savedViews.id, view.id));
    expect(row).toMatchObject({ name: "Private to Sam", params: { q: "secret" } });
    expect((await w.user.put(`/api/saved-views/not-an-id`, { name: "x" })).statusCode).toBe(400);
    expect((await w.user.delete(`/api/saved-views/${t.make.uuid()}`)).statusCode).toBe(404);
  });

  it("deletes the owner's view", async () => {
    const view = await save(w.clientUser, "Going away");
    expect((await w.clientUser.delete(`/api/saved-views/${view.id}`)).statusCode).toBe(204);
    expect((await t.db.select().from(savedViews).where(eq(savedViews.id, view.id))).length).toBe(0);
    expect((await w.clientUser.delete(`/api/saved-views/${view.id}`)).statusCode).toBe(404);
  });
});
