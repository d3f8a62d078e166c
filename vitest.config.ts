import os from "node:os";
import { defineConfig } from "vitest/config";

// API tests run once on PGlite and, when TEST_DATABASE_URL is set, once more on real PostgreSQL.
// Each test file opens a fresh database of its own and builds its own app (server/test-support), so
// the files share no state through the database or the app. They do share the loaded modules: one
// worker runs its files in one module graph (isolate: false), which saves loading fastify,
// better-auth, drizzle and the whole server again for every file (about 2.5 s each, 289 s of the
// 1,284 s the two databases' runs took with isolation).
const apiProject = (db: "pglite" | "pg") => ({
  test: {
    name: `api-${db}`,
    include: ["server/**/*.test.ts"],
    exclude: [
      "server/**/*.unit.test.ts",
      // Creates embedded databases of its own: PGlite only, whatever TEST_DB says.
      ...(db === "pg" ? ["server/db/pglite-create.test.ts"] : []),
    ],
    env: { TEST_DB: db },
    globalSetup: ["server/test-support/global-setup.ts"],
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // One worker per core but one (vitest's run-mode default, written down): on the 2 cores of CI
    // that is a single worker, which ran the API tests faster than two (24 % on a sample: the app,
    // PGlite and PostgreSQL are busy enough to use the second core). scripts/test-all.sh runs the
    // PGlite and the PostgreSQL halves as two processes side by side, one worker each.
    maxWorkers: Math.max(1, os.availableParallelism() - 1),
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
