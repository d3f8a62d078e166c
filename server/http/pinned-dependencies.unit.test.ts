import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";

/*
 * package.json's `overrides` pin two packages to the versions before they required Node 22 (we
 * support Node 20.19+): `cookie` 1.x under light-my-request (fastify's inject, which every API test
 * uses) and `content-disposition` 2.x under @fastify/static. These are the code paths that use them.
 */
describe("the packages pinned for Node 20 (package.json overrides)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-pinned-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("inject's `cookies` option (light-my-request → cookie) sends the cookies", async () => {
    const app = Fastify();
    app.get("/", async (request) => ({ cookie: request.headers.cookie }));
    const res = await app.inject({ method: "GET", url: "/", cookies: { a: "1", "b.c": "x y;z" } });
    expect(res.json()).toEqual({ cookie: "a=1; b.c=x%20y%3Bz" });
    await app.close();
  });

  it("reply.download() (@fastify/static → content-disposition) names the file, in UTF-8 too", async () => {
    fs.writeFileSync(path.join(dir, "Straße plan.txt"), "plan");
    const app = Fastify();
    await app.register(fastifyStatic, { root: dir, serve: false });
    app.get("/file", async (_request, reply) => reply.download("Straße plan.txt"));
    const res = await app.inject({ method: "GET", url: "/file" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("plan");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="Stra?e plan.txt"; filename*=UTF-8''Stra%C3%9Fe%20plan.txt`,
    );
    await app.close();
  });
});
