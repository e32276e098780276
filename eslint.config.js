// ESLint: TypeScript (type-aware), React and hooks rules; Prettier owns formatting. See docs/decisions/013.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["build/", "data/", "bench/.data/", "bench/results/", "bench/baselines/*/build/", ".cache/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A leading underscore marks a name left unused on purpose (an omitted key, a required parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Text rules match control characters on purpose, to refuse them.
      "no-control-regex": "off",
    },
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      // Remix loaders and actions throw Responses (redirects, 404s) by design.
      "@typescript-eslint/only-throw-error": "off",
    },
  },
  { files: ["app/**/*.tsx"], ...react.configs.flat.recommended, settings: { react: { version: "detect" } } },
  { files: ["app/**/*.tsx"], ...react.configs.flat["jsx-runtime"] },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    // The classic hook rules only: the plugin's other rules check code for the React Compiler, which this app does not use.
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["tests/**/*.ts", "bench/**/*.ts"],
    rules: {
      // supertest's and fetch's JSON bodies are `any`; tests check their shapes against /openapi.json instead.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  { files: ["eslint.config.js"], ...tseslint.configs.disableTypeChecked },
  prettier,
);
