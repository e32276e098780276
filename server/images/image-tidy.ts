import fs from "node:fs/promises";
import path from "node:path";
import type { Database } from "../db/database.ts";
import { formatOf, ImageFiles, syncFolder } from "./image-files.ts";
import { createImageQueries } from "./images.queries.ts";

export const imagesDir = (dataDir: string) => path.join(dataDir, "images");

// Written once the folders have been searched for the temp files of versions before incoming/.
const LEGACY_MARKER = ".tidied-v1";

export interface TidyReport {
  /** Uploads whose row was committed but whose file had not been moved: moved now. */
  rolledForward: number;
  /** Temp files and uploads without a row: deleted. */
  removed: number;
}

/**
 * Run at API start, before it listens: finishes or undoes whatever a crash left in images/incoming
 * (see ImageService.upload for the order of writes). Reads one folder, so it stays quick however
 * many images there are.
 */
export async function tidyImages(db: Database, dataDir: string): Promise<TidyReport> {
  const files = new ImageFiles(imagesDir(dataDir));
  const report: TidyReport = { rolledForward: 0, removed: 0 };
  const images = createImageQueries(db);
  const names = await fs.readdir(files.incomingDir).catch(() => [] as string[]);
  const touched = new Set<string>();
  for (const name of names) {
    const file = path.join(files.incomingDir, name);
    const dot = name.lastIndexOf(".");
    const row = dot > 0 && !name.endsWith(".tmp") ? await images.byFileKey(name.slice(0, dot)) : undefined;
    if (row) {
      const target = files.originalPath(row.id, formatOf(row.contentType));
      const placed = await fs.stat(target).then(
        () => true,
        () => false,
      );
      if (!placed) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(file, target);
        touched.add(path.dirname(target));
        report.rolledForward++;
        continue;
      }
    }
    await fs.rm(file, { force: true, recursive: true });
    report.removed++;
  }
  if (names.length > 0) touched.add(files.incomingDir);
  for (const dir of touched) await syncFolder(dir);
  report.removed += await removeLegacyTempFiles(files.root);
  return report;
}

/** Before incoming/ existed, temp files sat beside the originals and renditions: searched for once. */
async function removeLegacyTempFiles(root: string): Promise<number> {
  const marker = path.join(root, LEGACY_MARKER);
  if (
    await fs.stat(marker).then(
      () => true,
      () => false,
    )
  )
    return 0;
  let removed = 0;
  const folders = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory() || folder.name === "incoming") continue;
    const dir = path.join(root, folder.name);
    for (const name of await fs.readdir(dir)) {
      if (!name.endsWith(".tmp")) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(marker, "");
  return removed;
}
