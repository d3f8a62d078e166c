import { defineConfig } from "vitest/config";

// One server, one browser, shared state: the end-to-end files run one after another.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["tests/e2e/**/*.e2e.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A page waits on the server and on lazily loaded code; 1 s (vitest's default) is too tight on a busy CI machine.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
