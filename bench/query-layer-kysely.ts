// The queries of bench/query-layer.ts written with Kysely, once for both engines (docs/decisions/014-data-layer.md).
import { Kysely, type CompiledQuery, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";

// ---- Kysely's view of the tables the measured queries touch (dates are Unix milliseconds) ----
export interface KyselyTables {
  User: { id: number; username: string; profileImageId: number | null };
  Hub: {
    id: number;
    name: string;
    nameKey: string;
    description: string;
    memberCount: number;
    postCount: number;
    profileImageId: number | null;
    profileBannerId: number | null;
    authorId: number;
    createdAt: number;
  };
  Post: { id: number; title: string; description: string; date: number; likes: number; authorId: number; hubId: number };
  PostLike: { userId: number; postId: number };
}

export type KyselyDb = Kysely<KyselyTables>;

/** How each engine selects the hubs whose name key contains a search argument (FTS5 MATCH or pg_trgm LIKE). */
export type NameFilter = (arg: string) => Expression<SqlBool>;

/** The join condition of a hub card's latest post: `lp` is the newest post of hub `h`. */
function isLatestPostOfHub(eb: ExpressionBuilder<KyselyTables & { h: KyselyTables["Hub"]; lp: KyselyTables["Post"] }, "h" | "lp">) {
  return eb(
    "lp.id",
    "=",
    eb.selectFrom("Post as p").select("p.id").whereRef("p.hubId", "=", "h.id").orderBy("p.date", "desc").orderBy("p.id", "desc").limit(1),
  );
}

/** The measured queries, built with Kysely: the same builders for SQLite and PostgreSQL. */
export function kyselyQueries(db: KyselyDb, nameFilter: NameFilter) {
  const hubCard = () =>
    db
      .selectFrom("Hub as h")
      .innerJoin("User as u", "u.id", "h.authorId")
      .leftJoin("Post as lp", (join) => join.on(isLatestPostOfHub))
      .select([
        "h.id",
        "h.name",
        "h.description",
        "h.memberCount",
        "h.postCount",
        "h.profileImageId",
        "h.profileBannerId",
        "h.authorId",
        "u.username as authorName",
        "h.createdAt",
        "lp.id as lpId",
        "lp.title as lpTitle",
        "lp.date as lpDate",
      ]);

  // The page's ids from the sort index alone, then the cards; CROSS JOIN keeps SQLite's join order as in (a).
  const hubPage = (limit: number, offset: number, nameArg?: string) => {
    let ids = db.selectFrom("Hub").select("Hub.id");
    if (nameArg !== undefined) ids = ids.where(nameFilter(nameArg));
    const page = ids.orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).as("pg");
    return db
      .selectFrom(page)
      .crossJoin("Hub as h")
      .innerJoin("User as u", "u.id", "h.authorId")
      .leftJoin("Post as lp", (join) => join.on(isLatestPostOfHub))
      .whereRef("h.id", "=", "pg.id")
      .select(["h.id", "h.name", "h.description", "h.memberCount", "h.postCount", "h.profileImageId", "h.profileBannerId"])
      .select(["h.authorId", "u.username as authorName", "h.createdAt", "lp.id as lpId", "lp.title as lpTitle", "lp.date as lpDate"])
      .orderBy("h.createdAt", "desc")
      .orderBy("h.id", "desc");
  };

  const postSummary = () =>
    db
      .selectFrom("Post as p")
      .innerJoin("User as u", "u.id", "p.authorId")
      .innerJoin("Hub as h", "h.id", "p.hubId")
      .select(["p.id", "p.title", "p.description", "p.date", "p.likes", "p.authorId", "u.username as authorName", "p.hubId"])
      .select("h.name as hubName")
      .orderBy("p.likes", "desc")
      .orderBy("p.id", "desc");

  const postsByLikes = (hubId: number, limit: number, skip: number) =>
    postSummary().where("p.id", "in", (eb) =>
      eb
        .selectFrom("Post")
        .select("id")
        .where("hubId", "=", hubId)
        .orderBy("likes", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .offset(skip),
    );

  // After a remembered key (k, id): the ties on k with a smaller id, then the posts below k (two index ranges).
  const postsByLikesAfterKey = (hubId: number, limit: number, skip: number, k: number, id: number) => {
    const ties = db
      .selectFrom("Post")
      .select(["id", "likes"])
      .where("hubId", "=", hubId)
      .where("likes", "=", k)
      .where("id", "<", id)
      .orderBy("id", "desc")
      .limit(limit + skip);
    const below = db
      .selectFrom("Post")
      .select(["id", "likes"])
      .where("hubId", "=", hubId)
      .where("likes", "<", k)
      .orderBy("likes", "desc")
      .orderBy("id", "desc")
      .limit(limit + skip);
    // SQLite refuses ORDER BY/LIMIT directly inside a compound SELECT's arms, so each arm is wrapped, as in (a).
    const arms = db
      .selectFrom(ties.as("ties"))
      .selectAll()
      .unionAll(db.selectFrom(below.as("below")).selectAll())
      .as("arms");
    return postSummary().where(
      "p.id",
      "in",
      db.selectFrom(arms).select("arms.id").orderBy("likes", "desc").orderBy("id", "desc").limit(limit).offset(skip),
    );
  };

  /** Like or unlike: the link row and the counter in one transaction, answering the count after it. */
  const setLiked = (userId: number, postId: number, on: boolean) =>
    db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("Post").select("likes").where("id", "=", postId).executeTakeFirst();
      if (!before) throw new Error("Post not found");
      const result = on
        ? await trx
            .insertInto("PostLike")
            .values({ userId, postId })
            .onConflict((oc) => oc.columns(["userId", "postId"]).doNothing())
            .executeTakeFirst()
        : await trx.deleteFrom("PostLike").where("userId", "=", userId).where("postId", "=", postId).executeTakeFirst();
      const changes = Number("numInsertedOrUpdatedRows" in result ? result.numInsertedOrUpdatedRows : result.numDeletedRows);
      if (changes > 0) {
        await trx
          .updateTable("Post")
          .set((eb) => ({ likes: eb("likes", "+", on ? changes : -changes) }))
          .where("id", "=", postId)
          .execute();
      }
      return (await trx.selectFrom("Post").select("likes").where("id", "=", postId).executeTakeFirstOrThrow()).likes;
    });

  return { hubCard, hubPage, postsByLikes, postsByLikesAfterKey, setLiked };
}

/**
 * A query compiled once and executed again: the cost without building and compiling. (Reusing it with other
 * values means a new `parameters` array in the compiled order; Kysely has no named placeholders.)
 */
export function compiledOnce(db: KyselyDb, compiled: CompiledQuery) {
  return () => db.executeQuery(compiled);
}
