import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { cycles, unitGraph } from "../scripts/lib/check-cycles.mjs";

// The boundary rule is checked on real paths of this tree: each case lints one made-up import as if it were
// written in `file`, so a loosened rule (or a renamed folder the rule no longer knows) fails here.
const eslint = new ESLint();

async function boundaryErrors(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const used = x;\n`, { filePath: file });
  // Any boundary rule: a file of no layer is refused by boundaries/no-unknown-files.
  return result!.messages.filter((m) => m.ruleId?.startsWith("boundaries/")).map((m) => m.message);
}

describe("layer boundaries (eslint.boundaries.js)", () => {
  it.each([
    [
      "platform imports a feature",
      "server/db/made-up.ts",
      `import { x } from "../features/permits/index.ts";`,
    ],
    [
      "platform imports a feature's internals",
      "server/auth/made-up.ts",
      `import { x } from "../features/permits/permits.service.ts";`,
    ],
    [
      "a feature imports another feature's internals",
      "server/features/exports/made-up.ts",
      `import { x } from "../permits/permit-list-page.query.ts";`,
    ],
    [
      "a feature imports test support",
      "server/features/permits/made-up.ts",
      `import { x } from "../../test-support/harness.ts";`,
    ],
    ["web imports server code", "web/lib/made-up.ts", `import { x } from "../../server/errors.ts";`],
    ["shared imports server code", "shared/domain/made-up.ts", `import { x } from "../../server/errors.ts";`],
    ["shared imports web code", "shared/domain/made-up.ts", `import { x } from "../../web/lib/api.ts";`],
    [
      "a web feature imports another web feature's internals",
      "web/features/projects/made-up.tsx",
      `import { x } from "../permits/components/permit-cards.tsx";`,
    ],
    [
      "web/lib imports a web feature",
      "web/lib/made-up.ts",
      `import { x } from "../features/companies/index.ts";`,
    ],
    [
      "a web feature imports another feature's screen (routes/ are the router's)",
      "web/features/projects/made-up.tsx",
      `import { x } from "../permits/routes/permits-list.tsx";`,
    ],
    [
      "a file in a top-level folder of server/ that no layer names",
      "server/made-up-layer/made-up.ts",
      `import { x } from "../db/client.ts";`,
    ],
  ])("refuses: %s", async (_case, file, line) => {
    expect(await boundaryErrors(file, line)).not.toEqual([]);
  });

  it.each([
    [
      "a feature uses another feature's public face",
      "server/features/exports/made-up.ts",
      `import { x } from "../permits/index.ts";`,
    ],
    [
      "a feature uses its own internals",
      "server/features/permits/made-up.ts",
      `import { x } from "./permits.service.ts";`,
    ],
    [
      "a feature uses the platform",
      "server/features/permits/made-up.ts",
      `import { x } from "../../db/client.ts";`,
    ],
    ["the platform uses shared", "server/db/made-up.ts", `import { x } from "../../shared/domain/roles.ts";`],
    [
      "the app composes features",
      "server/jobs/made-up.ts",
      `import { x } from "../features/reminders/index.ts";`,
    ],
    [
      "a test reaches anything in server/",
      "server/features/permits/made-up.test.ts",
      `import { x } from "../users/users.service.ts";`,
    ],
    [
      "a web feature uses web/lib",
      "web/features/permits/made-up.tsx",
      `import { x } from "../../lib/api.ts";`,
    ],
    [
      "the router lazy-loads a screen",
      "web/app/made-up.tsx",
      `import { x } from "../features/permits/routes/permits-list.tsx";`,
    ],
    [
      "a web feature uses another's public face",
      "web/features/bonds/made-up.tsx",
      `import { x } from "../bond-ledger/index.ts";`,
    ],
    [
      "a platform folder named in the rule uses another",
      "server/time/made-up.ts",
      `import { x } from "../db/client.ts";`,
    ],
  ])("allows: %s", async (_case, file, line) => {
    expect(await boundaryErrors(file, line)).toEqual([]);
  });
});

describe("folder import cycles (scripts/lib/check-cycles.mjs)", () => {
  it("finds a loop of three folders and ignores a chain", () => {
    const graph = (pairs: [string, string][]) => {
      const edges = new Map<string, Map<string, string>>();
      for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Map()).set(b, `${a} -> ${b}`));
      return edges;
    };
    expect(
      cycles(
        graph([
          ["a", "b"],
          ["b", "c"],
          ["c", "a"],
          ["c", "d"],
        ]),
      ),
    ).toEqual([["a", "b", "c"]]);
    expect(
      cycles(
        graph([
          ["a", "b"],
          ["b", "c"],
        ]),
      ),
    ).toEqual([]);
  });

  it("this tree has none", () => {
    expect(cycles(unitGraph())).toEqual([]);
  });
});
