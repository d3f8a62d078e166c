import { defineConfig } from "vitest/config";

// API tests run once on PGlite and, when TEST_DATABASE_URL is set, once more on real PostgreSQL.
const apiProject = (db: "pglite" | "pg") => ({
  test: {
    name: `api-${db}`,
    include: ["server/**/*.test.ts"],
    exclude: ["server/**/*.unit.test.ts"],
    env: { TEST_DB: db },
    globalSetup: ["server/test-support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["shared/**/*.test.ts", "web/**/*.test.ts", "server/**/*.unit.test.ts"],
          environment: "node",
        },
      },
      apiProject("pglite"),
      ...(process.env.TEST_DATABASE_URL ? [apiProject("pg")] : []),
    ],
  },
});
