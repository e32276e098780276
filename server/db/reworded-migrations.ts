// Migrations whose comments were reworded after release, their statements unchanged (issue 28: the comments cited a
// file outside the repository). Prisma records each migration's SHA-256; a site that applied the old wording has the
// old checksum, and our PostgreSQL migrator (like `prisma migrate dev`) would take the edit for a changed migration.
// So a recorded checksum listed here is replaced by the current file's before migrating. Never list a migration
// whose statements changed: that needs a new migration.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The checksum each reworded migration had when it was released, by engine and name. */
const RELEASED_CHECKSUMS = {
  sqlite: {
    "20261124100000_roles": "1f384b3bc212e7c69fa5c7013923e462fdf0fc72e2e9783631dd0c8ab80756eb",
    "20261124110000_deleting": "640ef9ebdf4ddde13bd1c510b6905d30f0a692e1f2e5c8bf779f61163a184938",
    "20261125100000_removal": "da0e5f73684a8993c637d9579fe320802e10992ebfd34f81cb7579aea57664c3",
    "20261125110000_reports": "88c373358762af444823cf2517a9b77c6e046c4a340a28bbef70c8e01b3f9be1",
    "20261125120000_bans": "3be0183c59f0532c14a0a26b474c66da47fb797fa61e24f89f65c0fa47f93907",
    "20261125130000_blocks": "b7f52344a47545fc34583c010d920ef5f21e3d1e0964c2fccb91116f1e53a214",
    "20261126100000_series_metadata": "57c5bb6494a40da28dd1419d2df53d1a76a720448b91c7e68600b4228eb89501",
    "20261126110000_reading_progress": "a2012b0d7f514d393bc5aec6e3170b80d81db337ee47029fc5b515fb6c7c516d",
    "20261127110000_series_tag_order": "3c9f75e98dcebdb1ac37be54af378740207425e92dcfc361e38d50e2bbe2db0d",
  },
  postgres: {
    "20261124100000_roles": "b4c75c75bc2a44a8cb6cd3358d85c0ceb470aac28f6f67ce342943fdbf888cc1",
    "20261124110000_deleting": "f2b8663425d2e6d20316e9eda9da59872fea34e5e3f53101e287bf68f4505c0a",
    "20261125100000_removal": "c88dd05f74e28492b9c84fceaaf31ede1056e536911e1cc4aa8dff04c2d483a6",
    "20261125110000_reports": "662e1c56263fb3c88571d2592a027bc349aa08260fe3e1c6be3a0ba0193f3f5d",
    "20261125120000_bans": "8a53c47ee517c7f857042c98508af72dd034ae14776b5a00e44a061e2e07f325",
    "20261125130000_blocks": "d77fa89facdbdabe93fc3feff9945ae93358b29ae9104e12eada6140efd50bd0",
    "20261126100000_series_metadata": "240f07b255fea5bdd510ee6a8833a6d1ff5737fec87f0da84378f14fcf0611aa",
    "20261126110000_reading_progress": "f2631376bdd42988a7dd2f50663f34f7e583e62f324020cfec2f56bbe90d8d06",
    "20261127110000_series_tag_order": "70376bc607afd9e7a5dc59bf5d7cf6283cd965c02e4fc43b6d986fe45e313348",
  },
} as const satisfies Record<string, Record<string, string>>;

export interface ChecksumUpdate {
  name: string;
  released: string;
  current: string;
}

/** For each reworded migration of `engine` in `migrationsDir`: its released checksum and its file's checksum now. */
export function rewordedMigrations(engine: keyof typeof RELEASED_CHECKSUMS, migrationsDir: string): ChecksumUpdate[] {
  return Object.entries(RELEASED_CHECKSUMS[engine]).flatMap(([name, released]) => {
    const file = path.join(migrationsDir, name, "migration.sql");
    return fs.existsSync(file) ? [{ name, released, current: migrationChecksum(file) }] : [];
  });
}

/** Prisma's checksum of a migration: the SHA-256 of its file. */
export function migrationChecksum(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}
