import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { boundariesConfig } from "./eslint.boundaries.js";

export default tseslint.config(
  {
    ignores: [
      "dist",
      "build",
      "data",
      ".test-data",
      ".cache",
      "node_modules",
      "server/db/migrations",
      "coverage",
      "test-results",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // shared/ runs in both the server and the browser: nothing from node:*, React, or the database.
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            "node:*",
            "react",
            "react-dom",
            "drizzle-orm*",
            "../server/*",
            "../web/*",
            "../../server/*",
            "../../web/*",
          ],
        },
      ],
    },
  },
  // Which layer may import which, and features only through their index.ts (docs/ARCHITECTURE.md).
  boundariesConfig,
);
