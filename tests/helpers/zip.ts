// Reading the zips the API streams (GET /user/{id}/export) in tests.
import yauzl from "yauzl";
import type { TestApi } from "./api.ts";

export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

/** Every entry of a zip, in its order. */
export function unzip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries: ZipEntry[] = [];
      file.on("entry", (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            file.readEntry();
          });
          stream.on("error", reject);
        });
      });
      file.on("end", () => resolve(entries));
      file.on("error", reject);
      file.readEntry();
    });
  });
}

/** The account.json of a user's export, downloaded with their token. */
export async function exportedAccount(api: TestApi, userId: number, auth: { Authorization: string }): Promise<Record<string, unknown>> {
  const res = await api.request
    .get(`/user/${userId}/export`)
    .set(auth)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => done(null, Buffer.concat(chunks)));
    });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  const entries = await unzip(res.body as Buffer);
  return JSON.parse(entries.find((e) => e.name === "account.json")!.bytes.toString("utf8")) as Record<string, unknown>;
}
