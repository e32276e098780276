// Reading settings from the environment, and their problems as one readable list (both apps and the
// start scripts share it): every wrong setting on its own line, named by its variable, never a stack
// trace, never a secret's value.
import { z } from "zod";

/** Thrown by loadConfig/loadWebConfig: every problem found, one line each. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.join("\n")}`);
    this.problems = problems;
    this.name = "ConfigError";
  }
}

// DATABASE_URL, REDIS_URL and SMTP_URL may hold a password.
const isSecret = (name: string) =>
  name.includes("SECRET") || name.includes("PASSWORD") || name === "DATABASE_URL" || name === "REDIS_URL" || name === "SMTP_URL";

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

const SECRET_MIN = 16;

/** A signing secret: optional (generated into the data folder) except in production, at least 16 characters. */
export const secretSetting = (name: string) => z.string().min(SECRET_MIN, `${name} must be at least ${SECRET_MIN} characters`).optional();

/**
 * One app's settings, read from the environment with `schema`. Production refuses to start without
 * `productionSecret` (docs/api.md §5); an empty one is already "too short".
 */
export function settingsReader<S extends z.ZodType>(schema: S, productionSecret: string) {
  function read(env: NodeJS.ProcessEnv) {
    const parsed = schema.safeParse(env);
    const problems = parsed.success ? [] : parsed.error.issues.map((issue) => describeSettingIssue(issue, env));
    if (env.NODE_ENV === "production" && env[productionSecret] === undefined) {
      problems.push(`${productionSecret}: required in production (at least ${SECRET_MIN} characters, e.g. \`openssl rand -base64 48\`)`);
    }
    return { settings: parsed.data, problems };
  }
  return {
    /** Every problem, one line each. Reads nothing but `env`, writes nothing. */
    problems: (env: NodeJS.ProcessEnv): string[] => read(env).problems,
    /** The settings; throws a ConfigError listing every problem when any is wrong. */
    settings(env: NodeJS.ProcessEnv): z.output<S> {
      const { settings, problems } = read(env);
      if (!settings || problems.length > 0) throw new ConfigError(problems);
      return settings;
    },
  };
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
