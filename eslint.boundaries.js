import boundaries from "eslint-plugin-boundaries";

// The platform folders of server/: everything a request goes through, features below none of them. A new
// top-level folder of server/ is no layer until it is named here (or given another element below): lint
// fails on its files (boundaries/no-unknown-files) instead of counting them as platform unseen.
const SERVER_PLATFORM = ["access", "audit", "auth", "db", "http", "mail", "storage", "time"];

// Which folder is which layer (first match wins). See docs/ARCHITECTURE.md, "Layers".
// (`mode: "file"` is how this plugin classifies single files at a folder's root; `mode` is marked deprecated in
// v7 without a replacement for files, hence "boundaries/legacy-warnings": false below.)
const elements = [
  { type: "shared", pattern: "shared", mode: "folder" },
  // Entry points that compose the app: they may reach every feature, through its public face.
  {
    type: "server-composition",
    pattern: ["server/app.ts", "server/main.ts", "server/features/index.ts"],
    mode: "file",
  },
  { type: "server-composition", pattern: ["server/jobs", "server/setup"], mode: "folder" },
  { type: "server-test-support", pattern: "server/test-support", mode: "folder" },
  // Tests across features (the statement budgets, the security suites): test files, which may reach anything.
  { type: "server-tests", pattern: ["server/performance", "server/security"], mode: "folder" },
  { type: "server-feature", pattern: "server/features/*", mode: "folder", capture: ["feature"] },
  // Platform: the folders named above and the files at the root of server/ (config.ts, errors.ts).
  { type: "server-platform", pattern: SERVER_PLATFORM.map((name) => `server/${name}`), mode: "folder" },
  { type: "server-platform", pattern: "server/*.ts", mode: "file", capture: ["layer"] },
  { type: "web-app", pattern: "web/app", mode: "folder" },
  { type: "web-app", pattern: "web/main.tsx", mode: "file" },
  { type: "web-feature", pattern: "web/features/*", mode: "folder", capture: ["feature"] },
  { type: "web-common", pattern: ["web/components", "web/lib", "web/assets"], mode: "folder" },
];

const files = [{ category: "test", pattern: "**/*.test.ts" }];

export const boundariesConfig = {
  files: ["server/**/*.ts", "web/**/*.{ts,tsx}", "shared/**/*.ts"],
  plugins: { boundaries },
  settings: {
    "boundaries/elements": elements,
    "boundaries/files": files,
    "boundaries/legacy-warnings": false,
    "boundaries/include": ["server/**/*", "web/**/*", "shared/**/*"],
  },
  rules: {
    "boundaries/no-unknown-files": 2,
    "boundaries/no-unknown-dependencies": 2,
    "boundaries/dependencies": [
      2,
      {
        default: "disallow",
        policies: [
          // Within one element (a feature, a platform folder, shared/) anything goes.
          { allow: { to: { element: { types: "*" } }, dependency: { relationship: { to: "internal" } } } },
          // shared/ is the bottom layer: everyone may use it, it uses nothing else (no policy from shared).
          { from: { element: { types: "*" } }, allow: { to: { element: { types: "shared" } } } },
          // Server, bottom-up: platform <- features <- composition. Features meet through their index.ts.
          {
            from: { element: { types: "server-*" } },
            allow: { to: { element: { types: "server-platform" } } },
          },
          {
            from: { element: { types: "server-feature" } },
            allow: { to: { element: { types: "server-feature", internalPath: "index.ts" } } },
          },
          {
            from: { element: { types: "server-composition" } },
            allow: {
              to: [
                { element: { types: "server-composition" } },
                { element: { types: "server-feature", internalPath: "index.ts" } },
              ],
            },
          },
          // Tests and their support may reach anything in server/ (a test checks internals on purpose).
          {
            from: { element: { types: "server-test-support" } },
            allow: { to: { element: { types: "server-*" } } },
          },
          { from: { file: { categories: "test" } }, allow: { to: { element: { types: "server-*" } } } },
          // Web: lib and components <- features <- app. A feature's face is its index.ts; its routes/ are the
          // router's lazy screens, for web/app alone (one screen never imports another).
          {
            from: { element: { types: "web-*" } },
            allow: { to: { element: { types: "web-common" } } },
          },
          // The app shell (web/app and its entry web/main.tsx) is one layer.
          { from: { element: { types: "web-app" } }, allow: { to: { element: { types: "web-app" } } } },
          {
            from: { element: { types: "web-feature" } },
            allow: { to: { element: { types: "web-feature", internalPath: "index.ts" } } },
          },
          {
            from: { element: { types: "web-app" } },
            allow: { to: { element: { types: "web-feature", internalPath: ["index.ts", "routes/*.tsx"] } } },
          },
        ],
      },
    ],
  },
};
