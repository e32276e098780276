import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Prepared } from "../db/prepared.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { mayEditNamedEntity } from "../rules/permissions.ts";
import type { ImageRef } from "../images/image-refs.ts";
import { assertOwnImages } from "../images/own-images.ts";
import type { Paging } from "../rules/paging.ts";
import type { Page } from "../rules/api-responses.ts";
import { cannotBeAName, nameKey } from "../rules/text.ts";
import type { AlsoWrite, NamedEntityChanges, NamedEntityQueries, NamedEntityRow, PageParams } from "./named-entity.queries.ts";

/** What hubs and series share on create and edit: a unique name, a description, a logo and a banner. */
export interface NamedEntityInput {
  name: string;
  description?: string | null;
  profileImageId?: number | null;
  profileBannerId?: number | null;
}

/** The logo and banner, as image references that must belong to the editor. */
const logoAndBanner = (input: NamedEntityInput): ImageRef[] => [
  { field: "profileImageId", label: "Logo", id: input.profileImageId },
  { field: "profileBannerId", label: "Banner", id: input.profileBannerId },
];

function changesOf(input: NamedEntityInput): NamedEntityChanges {
  return {
    name: input.name,
    nameKey: nameKey(input.name),
    ...(input.description !== undefined ? { description: input.description ?? "" } : {}),
    ...(input.profileImageId !== undefined ? { profileImageId: input.profileImageId } : {}),
    ...(input.profileBannerId !== undefined ? { profileBannerId: input.profileBannerId } : {}),
  };
}

export interface NamedEntityKind<Row, Card, Detail> {
  toCard: (row: Row) => Card;
  /** The card with the viewer's link (joinedByMe, followedByMe). */
  toDetail: (card: Card, linked: boolean) => Detail;
  messages: { notFound: string; notAuthor: string; nameTaken: string };
}

/**
 * The rules hubs and series share: pages newest or top first, the name search, the name-or-id lookup,
 * the viewer's link, and writes where the name is free (409 otherwise, also when a concurrent writer took
 * it first), the logo and banner are the writer's own images, and only the author edits.
 */
export function createNamedEntityService<Row extends NamedEntityRow, Card, Detail>(
  db: Database,
  q: NamedEntityQueries<Row>,
  kind: NamedEntityKind<Row, Card, Detail>,
) {
  const { messages } = kind;
  const page = (rows: Row[], total: number, paging: Paging): Page<Card> => pageOf(rows.map(kind.toCard), total, paging);
  const pageParams = (paging: Paging) => ({ limit: paging.perPage, offset: offsetOf(paging) });

  /** A page of the whole list; its rows carry the total, which a page past the end reads on its own. */
  async function listAll(list: Prepared<PageParams, Row & { total: number }>, paging: Paging) {
    const rows = await list.all(pageParams(paging));
    return page(rows, rows[0]?.total ?? (await q.count.first({}))!.n, paging);
  }
  const listNewest = (paging: Paging) => listAll(q.newest, paging);

  /** By name (case-insensitive), then, for an all-digit name, by id (docs/api.md §4). */
  async function findRow(nameOrId: string): Promise<Row | undefined> {
    const key = nameKey(nameOrId.trim());
    if (cannotBeAName(key)) return undefined;
    const byName = await q.byKey.first({ key });
    if (byName || !/^[0-9]{1,10}$/.test(nameOrId)) return byName;
    return q.byId.first({ id: Number(nameOrId) });
  }

  /** findRow's lookup for the id alone: one index read, not the card's joins (every post and comment list resolves its hub). */
  async function findId(nameOrId: string): Promise<number | undefined> {
    const key = nameKey(nameOrId.trim());
    if (cannotBeAName(key)) return undefined;
    const byName = await q.idByKey.first({ key });
    if (byName || !/^[0-9]{1,10}$/.test(nameOrId)) return byName?.id;
    return (await q.idById.first({ id: Number(nameOrId) }))?.id;
  }

  async function detail(row: Row | undefined, viewerId: number | undefined): Promise<Detail> {
    if (!row) throw notFound(messages.notFound);
    const linked = viewerId !== undefined && (await q.isLinked.first({ userId: viewerId, id: row.id })) !== undefined;
    return kind.toDetail(kind.toCard(row), linked);
  }

  async function assertNameFree(name: string, exceptId?: number) {
    const existing = await q.idByKey.first({ key: nameKey(name) });
    if (existing && existing.id !== exceptId) throw conflict(messages.nameTaken);
  }

  /** A concurrent writer that took the name first makes the unique key refuse ours: the same 409. */
  async function nameRaceIsConflict<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(messages.nameTaken);
      throw err;
    }
  }

  return {
    listNewest,

    listTop: (paging: Paging) => listAll(q.top, paging),

    search: async (name: string, paging: Paging): Promise<Page<Card>> => {
      const key = nameKey(name.trim());
      if (key === "") return listNewest(paging);
      if (cannotBeAName(key)) return page([], 0, paging);
      const { rows, total } = await q.search(key, pageParams(paging));
      return page(rows, total, paging);
    },

    findRow,

    findId,

    getById: async (id: number, viewerId?: number) => detail(await q.byId.first({ id }), viewerId),

    getByNameOrId: async (nameOrId: string, viewerId?: number) => detail(await findRow(nameOrId), viewerId),

    listLinkedBy: async (userId: number) => (await q.linkedBy.all({ userId })).map(kind.toCard),

    listCreatedBy: async (userId: number) => (await q.createdBy.all({ userId })).map(kind.toCard),

    /** The cards of these ids (one query), by id; missing ids are left out. */
    cardsByIds: async (ids: number[]): Promise<Map<number, Card>> => new Map((await q.byIds(ids)).map((row) => [row.id, kind.toCard(row)])),

    /** `also`: more of the same write (a series' metadata), in its transaction. */
    create: async (input: NamedEntityInput, authorId: number, also?: AlsoWrite): Promise<Detail> => {
      await assertOwnImages(db.kysely, authorId, logoAndBanner(input));
      await assertNameFree(input.name);
      const id = await nameRaceIsConflict(
        db.kysely.transaction().execute((trx) =>
          q.insert(
            trx,
            {
              name: input.name,
              nameKey: nameKey(input.name),
              description: input.description ?? "",
              profileImageId: input.profileImageId ?? null,
              profileBannerId: input.profileBannerId ?? null,
              authorId,
              createdAt: nowMs(),
            },
            also,
          ),
        ),
      );
      return detail(await q.byId.first({ id }), authorId);
    },

    /** The author's edit: the changed columns and the publishing of the new images are one write. */
    update: async (id: number, input: NamedEntityInput, userId: number, also?: AlsoWrite): Promise<Detail> => {
      const row = await q.authorOf.first({ id });
      if (!row) throw notFound(messages.notFound);
      if (!mayEditNamedEntity({ id: userId }, row)) throw forbidden(messages.notAuthor);
      await assertOwnImages(db.kysely, userId, logoAndBanner(input));
      await assertNameFree(input.name, id);
      await nameRaceIsConflict(db.kysely.transaction().execute((trx) => q.update(trx, id, changesOf(input), userId, also)));
      return detail(await q.byId.first({ id }), userId);
    },
  };
}
