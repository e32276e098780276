import type { Database } from "../db/database.ts";
import type { Executor } from "../db/prepared.ts";
import type { Caller } from "../http/auth.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { mayDeleteChapter, mayDeleteHub, mayDeletePost, mayDeleteSeries } from "../rules/permissions.ts";
import type { Deleted } from "../rules/deletion.ts";
import { createSeriesService } from "../series/series.service.ts";
import { createDeletionQueries, type Batched } from "./deletion.queries.ts";

type Actor = Pick<Caller, "id" | "isAdmin">;
/** Gets the locked row's facts (undefined: no such thing) and throws when the actor may not delete it. */
type Decide = (facts: { authorId: number } | undefined) => void;

/**
 * Deleting a post, a chapter, a series or a hub with everything inside it (docs/api.md §15): who may is decided in the
 * deletion's transaction, on the row it locks; the unused images go after the commit (the "image-release" job).
 */
/** `series` finds a deleted chapter's series by name or id (made when first needed, if not given). */
export function createDeletionService(db: Database, series?: Pick<ReturnType<typeof createSeriesService>, "resolveRef">) {
  const deletion = createDeletionQueries(db);
  const seriesRefs = () => (series ??= createSeriesService(db));
  const inTransaction = <T>(work: (trx: Executor) => Promise<T>) => db.kysely.transaction().execute(work);
  // The job deletes the released images' files: this instance's runner starts at once.
  const afterCommit = (released: boolean) => {
    if (released) wakeJobRunners(db);
  };

  /**
   * A hub or a series: while more than a batch of its posts or chapters is left, one batch goes per transaction (with
   * the counts it moves, so every commit between them is consistent: the hub just has fewer posts), then the rest and
   * the thing itself in the last. Each transaction locks the row and asks `decide` again. Answers whether images were
   * released.
   */
  async function inBatches(whole: Batched, id: number, decide: Decide): Promise<boolean> {
    let released = false;
    for (;;) {
      const done = await inTransaction(async (trx) => {
        decide(await deletion.lockParent(trx, whole, id));
        const more = await deletion.moreThanABatch(trx, whole, id);
        released = (await deletion.deleteWithin(trx, more ? `${whole}-batch` : whole, id)) || released;
        return !more;
      });
      if (done) return released;
      await new Promise((resolve) => setImmediate(resolve)); // other writers in between
    }
  }

  return {
    async deletePost(id: number, actor: Actor): Promise<Deleted> {
      const released = await inTransaction(async (trx) => {
        const post = await deletion.lockPost(trx, id, actor.id);
        if (!post) throw notFound("Post not found");
        const hub = { authorId: post.hubAuthorId, actorIsModerator: post.actorIsModerator === 1 };
        if (!mayDeletePost(actor, post, hub)) throw forbidden("Only the author, the hub's moderators and admins can delete this post");
        return deletion.deleteWithin(trx, "post", id);
      });
      afterCommit(released);
      return { type: "post", id, deleted: true };
    },

    async deleteChapter(seriesName: string, number: number, actor: Actor): Promise<Deleted> {
      const { id: seriesId } = await seriesRefs().resolveRef(seriesName, "Chapter not found");
      let id = 0;
      const released = await inTransaction(async (trx) => {
        const chapter = await deletion.lockChapter(trx, seriesId, number);
        if (!chapter) throw notFound("Chapter not found");
        if (!mayDeleteChapter(actor, { authorId: chapter.seriesAuthorId })) {
          throw forbidden("Only the series' author and admins can delete its chapters");
        }
        id = chapter.id;
        return deletion.deleteWithin(trx, "chapter", chapter.id);
      });
      afterCommit(released);
      return { type: "chapter", id, deleted: true };
    },

    async deleteSeries(id: number, actor: Actor): Promise<Deleted> {
      afterCommit(
        await inBatches("series", id, (series) => {
          if (!series) throw notFound("No series found.");
          if (!mayDeleteSeries(actor, series)) throw forbidden("Only the series' author and admins can delete it");
        }),
      );
      return { type: "series", id, deleted: true };
    },

    async deleteHub(id: number, actor: Actor): Promise<Deleted> {
      afterCommit(
        await inBatches("hub", id, (hub) => {
          if (!hub) throw notFound("No hub found.");
          if (!mayDeleteHub(actor, hub)) throw forbidden("Only the hub's creator and admins can delete it");
        }),
      );
      return { type: "hub", id, deleted: true };
    },

    /**
     * A series or hub of an account being deleted (account-deletion.ts): its owner was checked once, before the first
     * batch, and the runner is woken at the end of the whole deletion; a thing already gone deletes nothing.
     */
    deleteOwned: (kind: Batched, id: number) => inBatches(kind, id, () => undefined),

    /** A post with everything inside it, on the caller's transaction (an account's posts); answers whether images were released. */
    deletePostWithin: (trx: Executor, id: number) => deletion.deleteWithin(trx, "post", id),
  };
}
