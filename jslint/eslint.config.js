// ESLint for the pages' modules (web/static): plain ES modules in the browser, no build step.
// Run from the repository root: jslint/node_modules/.bin/eslint -c jslint/eslint.config.js web/static
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "all" }],
      "no-undef": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "smart"],
      "no-implicit-globals": "error",
      "no-shadow": "error",
    },
  },
];
