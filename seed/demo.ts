import bcrypt from "bcryptjs";
import type { Database } from "../server/db/database.ts";
import { sql } from "kysely";
import type { Executor } from "../server/db/prepared.ts";
import type { Encoding } from "./art/render.ts";
import { DEMO_PASSWORD, DEMO_USERNAME } from "./content/users.ts";
import { demoImageJobs, renderDemoImages } from "./demo-images.ts";
import { buildDiscussionPlan } from "./demo-discussion-plan.ts";
import { buildDemoPlan } from "./demo-plan.ts";
import { writeDemo, type DemoCounts } from "./demo-write.ts";
import { createStaging, imageFilesFor, moveIntoPlace, nextImageId, removeStaging, removeStaleStaging } from "./image-store.ts";

export { DEMO_PASSWORD, DEMO_USERNAME };

export interface DemoOptions {
  /** The moment the demo's history ends ("now"); dates spread over the seven months before it. */
  now?: number;
  /** bcrypt cost of the demo password hash (the API's default is 10). */
  bcryptCost?: number;
  /** Every demo member's password (default `demo1234`; production picks another: seed/demo-password.ts). */
  password?: string;
  /** Images drawn at once (default 2: the machine has other work to do). */
  concurrency?: number;
  /** Pages, covers, banners and avatars as WebP (default, half the bytes) or JPEG. Logos are PNG. */
  encoding?: Exclude<Encoding, "png">;
  log?: (message: string) => void;
}

export type DemoResult =
  { seeded: true; counts: DemoCounts; seconds: number; login: { username: string; password: string } } | { seeded: false; reason: string };

/** True when nobody has used the database yet: no users (everything else belongs to a user), no images. */
export async function isDatabaseEmpty(on: Executor): Promise<boolean> {
  const { rows } = await sql<{ used: number }>`SELECT CASE WHEN EXISTS (SELECT 1 FROM "User") OR EXISTS (SELECT 1 FROM "Image")
    OR EXISTS (SELECT 1 FROM "Hub") OR EXISTS (SELECT 1 FROM "Series") THEN 1 ELSE 0 END AS used`.execute(on);
  return rows[0]?.used === 0;
}

/**
 * Fills an EMPTY database with the demo community: 20 members (login `demo` / `demo1234` unless
 * options.password says otherwise),
 * 12 hubs with 60 markdown posts, 10 series with 40 chapters of generated pages, logos, banners,
 * avatars, memberships, follows and likes, comment threads with replies, mentions and likes, and the
 * notifications they make. Deterministic: the same content on every run.
 *
 * A database that already has content is left alone ({ seeded: false }). The images are drawn
 * into a staging folder first; then every row is written and the files moved into place in one
 * transaction, so a failure leaves the database empty and the next start simply tries again.
 */
export async function seedDemo(db: Database, dataDir: string, options: DemoOptions = {}): Promise<DemoResult> {
  const log = options.log ?? (() => {});
  if (!(await isDatabaseEmpty(db.kysely))) return { seeded: false, reason: "the database already has content" };
  const started = performance.now();
  const concurrency = options.concurrency ?? 2;
  const plan = buildDemoPlan(options.now ?? Date.now());
  const discussion = buildDiscussionPlan(plan);
  const jobs = demoImageJobs(plan, options.encoding ?? "webp");
  const files = imageFilesFor(dataDir);
  const firstId = await nextImageId(db.kysely, db.engine);
  removeStaleStaging(files);
  const staging = createStaging(files);

  try {
    log(`Drawing ${jobs.length} images (${concurrency} at a time)...`);
    let reported = 0;
    const images = await renderDemoImages(jobs, staging, firstId, concurrency, (done, total) => {
      if (done - reported >= 50 || done === total) {
        reported = done;
        log(`  ${done}/${total} images`);
      }
    });
    const password = options.password ?? DEMO_PASSWORD;
    const passwordHash = await bcrypt.hash(password, options.bcryptCost ?? 10);
    log("Writing users, hubs, posts, series, chapters and comments...");
    const counts = await db.kysely.transaction().execute(async (trx) => {
      // Checked again inside the transaction: someone may have used the database meanwhile.
      if (!(await isDatabaseEmpty(trx)) || (await nextImageId(trx, db.engine)) !== firstId)
        throw new Error("The database received content while the demo was being prepared");
      const written = await writeDemo(trx, db, plan, discussion, images, passwordHash);
      moveIntoPlace(
        files,
        staging,
        [...images.values()].map((i) => i.image),
      );
      return written;
    });
    return { seeded: true, counts, seconds: (performance.now() - started) / 1000, login: { username: DEMO_USERNAME, password } };
  } finally {
    removeStaging(staging);
  }
}
