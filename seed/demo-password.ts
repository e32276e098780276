import crypto from "node:crypto";
import { DEMO_PASSWORD } from "./content/users.ts";

/** Where the demo members' password came from: it decides whether a log may show it. */
export type DemoPasswordSource = "development" | "setting" | "generated";

export interface DemoPassword {
  password: string;
  source: DemoPasswordSource;
}

const MIN_LENGTH = 8;
const MAX_BYTES = 72; // bcrypt reads no further

/** What is wrong with the DEMO_PASSWORD setting, if anything (an empty value counts as unset). */
export function demoPasswordProblem(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.DEMO_PASSWORD;
  if (!value) return undefined;
  if ([...value].length < MIN_LENGTH) return `DEMO_PASSWORD: must be at least ${MIN_LENGTH} characters`;
  if (Buffer.byteLength(value) > MAX_BYTES) return `DEMO_PASSWORD: must be at most ${MAX_BYTES} bytes`;
  return undefined;
}

/**
 * The password every demo member gets. Development keeps the published `demo1234` (README, tests);
 * production never does: the operator's DEMO_PASSWORD, else a random one made now, which the start
 * log prints once and nobody else knows.
 */
export function chooseDemoPassword(env: NodeJS.ProcessEnv = process.env): DemoPassword {
  const problem = demoPasswordProblem(env);
  if (problem) throw new Error(problem);
  if (env.DEMO_PASSWORD) return { password: env.DEMO_PASSWORD, source: "setting" };
  if (env.NODE_ENV === "production") return { password: crypto.randomBytes(12).toString("base64url"), source: "generated" };
  return { password: DEMO_PASSWORD, source: "development" };
}
