import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/domain/paths.ts";
import { routes } from "./router.tsx";

/** Every path the app links to (and the server writes into e-mails and calendars) reaches a screen. */
describe("shared/domain/paths.ts against the route table", () => {
  const samples = Object.entries(paths).map(([name, path]) => [
    name,
    typeof path === "function" ? path("3f1c0b1e-0000-4000-8000-000000000001") : path,
  ]);

  it.each(samples)("%s (%s) matches a route of web/app/router.tsx, not the catch-all", (_name, path) => {
    const matches = matchRoutes(routes, path) ?? [];
    const leaf = matches.at(-1)?.route;
    expect(leaf, path).toBeDefined();
    expect(leaf!.path).not.toBe("*");
  });

  it("a path the table does not have falls to the catch-all", () => {
    expect(matchRoutes(routes, "/no-such-screen")?.at(-1)?.route.path).toBe("*");
  });
});
