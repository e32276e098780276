// Every setting of both apps and of the start scripts, checked before any work (building, migrating,
// seeding): one list of all problems instead of a crash part-way through the start. Imports only
// the settings modules, so a wrong setting is reported within a second.
import { checkWebSettings } from "../../app/lib/config.server.ts";
import { uniqueProblems } from "../../common/config-problems.ts";
import { checkApiSettings } from "../../server/config.ts";
import { demoPasswordProblem } from "../../seed/demo-password.ts";

export { exitWithConfigProblems } from "../../common/config-problems.ts";

/** SEED_DEMO: the demo on an empty data folder; on by default, except in production. */
export function seedDemoSetting(env: NodeJS.ProcessEnv): boolean {
  if (env.SEED_DEMO === undefined || env.SEED_DEMO === "") return env.NODE_ENV !== "production";
  return env.SEED_DEMO === "true";
}

/** API_IN_PROCESS: the web app calls the API started beside it in memory, not over HTTP; on by default (docs/web.md §1). */
export function apiInProcessSetting(env: NodeJS.ProcessEnv): boolean {
  return env.API_IN_PROCESS !== "false";
}

function checkStartSettings(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const name of ["SEED_DEMO", "API_IN_PROCESS"]) {
    const value = env[name];
    if (value && value !== "true" && value !== "false") problems.push(`${name}: must be one of true, false, got ${JSON.stringify(value)}`);
  }
  const password = demoPasswordProblem(env);
  if (password) problems.push(password);
  return problems;
}

/** All problems with the settings of the API, the web app and the start, each once. */
export function checkAllSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  return uniqueProblems(checkApiSettings(env), checkWebSettings(env), checkStartSettings(env));
}
