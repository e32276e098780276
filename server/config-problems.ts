// Settings problems as one readable list (both apps and the start scripts share it): every wrong
// setting on its own line, named by its variable, never a stack trace, never a secret's value.
import type { z } from "zod";

/** Thrown by loadConfig/loadWebConfig: every problem found, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.join("\n")}`);
    this.name = "ConfigError";
  }
}

const isSecret = (name: string) => name.includes("SECRET") || name.includes("PASSWORD");

/** One line for a zod issue about an environment variable, e.g. `API_PORT: must be a whole number, got "abc"`. */
export function describeSettingIssue(issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  const name = String(issue.path[0] ?? "(settings)");
  const raw = env[name];
  const got = raw === undefined || isSecret(name) ? "" : `, got ${JSON.stringify(raw)}`;
  const bound = (word: string, limit: number | bigint, inclusive: boolean | undefined, unit: string) =>
    `must be ${inclusive === false ? (word === "least" ? "more than" : "less than") : `at ${word}`} ${limit}${unit}`;
  let rule: string;
  switch (issue.code) {
    case "invalid_type":
      rule = issue.expected === "number" || issue.expected === "int" ? "must be a whole number" : `must be a ${issue.expected}`;
      break;
    case "too_small":
      rule = bound("least", issue.minimum, issue.inclusive, issue.origin === "string" ? " characters" : "");
      break;
    case "too_big":
      rule = bound("most", issue.maximum, issue.inclusive, issue.origin === "string" ? " characters" : "");
      break;
    case "invalid_value":
      rule = `must be one of ${issue.values.map(String).join(", ")}`;
      break;
    case "invalid_format":
      rule = issue.format === "url" ? "must be a URL such as http://localhost:8080" : `must be a valid ${issue.format}`;
      break;
    default:
      rule = issue.message;
  }
  return `${name}: ${rule}${got}`;
}

/** The problems in the order found, each once (both apps read some variables, e.g. API_PORT). */
export function uniqueProblems(...lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

/** Prints the list for people (stderr) and exits 1: a wrong setting is not a crash, so no stack trace. */
export function exitWithConfigProblems(what: string, problems: readonly string[]): never {
  const count = problems.length === 1 ? "1 setting needs" : `${problems.length} settings need`;
  console.error(`${what} did not start: ${count} fixing (see README.md, "Configuration"):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
