import { DEMO_USERNAME } from "./content/users.ts";
import type { ImageFiles } from "../server/images/folder-storage.ts";
import { imageRowInserter } from "./image-store.ts";
import { Random } from "./random.ts";
import { DAY, HOUR, type ScaleContext } from "./scale-context.ts";
import { ARTIST_IMAGE, linkArtistImages, type PoolImage } from "./scale-images.ts";
import { username } from "./scale-names.ts";

/** The people of the large benchmark set (seed/scale.ts): users, readers, and the artists' images. */

/** Users, the first of them the bench user; the first `artists` of them publish the series and own images. */
export function writeUsers(ctx: ScaleContext, passwordHash: string): void {
  const { sql, rnd, artists, userId, joinedAt, artistImage } = ctx;
  for (let i = 0; i < ctx.users; i++) {
    const name = i === 0 ? DEMO_USERNAME : username(rnd, i);
    const key = name.toLowerCase();
    const isArtist = i < artists;
    sql.user.run(
      userId(i),
      name,
      key,
      `${key}@example.com`,
      `${key}@example.com`,
      passwordHash,
      joinedAt(i),
      isArtist ? artistImage(i, ARTIST_IMAGE.avatar) : null,
      isArtist ? artistImage(i, ARTIST_IMAGE.userBanner) : null,
    );
    ctx.bulk.row();
    ctx.rows.users++;
  }
}

/** Plain readers after the users: no images, no content; they follow the crowd series. */
export function writeReaders(ctx: ScaleContext, passwordHash: string): void {
  const { sql, now, start, users: N, userId } = ctx;
  const readerRnd = new Random("scale:readers");
  for (let r = 0; r < ctx.readers; r++) {
    const name = username(readerRnd, N + r);
    const key = name.toLowerCase();
    const joined = start + Math.floor(readerRnd.next() * (now - start - 30 * DAY));
    sql.user.run(userId(N + r), name, key, `${key}@example.com`, `${key}@example.com`, passwordHash, joined, null, null);
    ctx.bulk.row();
    ctx.rows.users++;
  }
}

/** Each artist's images: rows of its own, files linked to the drawn pool's. */
export function writeArtistImages(ctx: ScaleContext, files: ImageFiles, pool: PoolImage[][]): void {
  const insertImage = imageRowInserter(ctx.sqlite);
  const artistList = Array.from({ length: ctx.artists }, (_, a) => ({
    userId: ctx.userId(a),
    firstImageId: ctx.artistImage(a, 0),
    createdAt: ctx.joinedAt(a) + HOUR,
  }));
  linkArtistImages(files, pool, artistList, (row) => {
    insertImage(row, row.authorId);
    ctx.bulk.row();
    ctx.rows.images++;
  });
}
