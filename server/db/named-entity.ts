import type BetterSqlite3 from "better-sqlite3";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { assertOwnImages, publishOwnImagesQuery, refIds, type ImageRef } from "../images/image-refs.ts";
import type { Paging } from "../rules/paging.ts";
import type { Page } from "../rules/responses.ts";
import { nameKey } from "../rules/text.ts";
import type { Database } from "./database.ts";
import type { Prisma } from "./generated/client.ts";
import { nameSearch, searchPlan, type NameSearch, type SearchPlan } from "./search.ts";
import { prepare } from "./sql.ts";
import { isUniqueViolation } from "./unique-violation.ts";

/** What hubs and series share on create and edit: a unique name, a description, a logo and a banner. */
export interface NamedEntityInput {
  name: string;
  description?: string | null;
  profileImageId?: number | null;
  profileBannerId?: number | null;
}

/** The logo and banner, as image references that must belong to the editor. */
export const logoAndBanner = (input: NamedEntityInput): ImageRef[] => [
  { field: "profileImageId", label: "Logo", id: input.profileImageId },
  { field: "profileBannerId", label: "Banner", id: input.profileBannerId },
];

/** The columns an edit writes: the name always; description and images when given (null clears them). */
function namedEntityChanges(input: NamedEntityInput) {
  return {
    name: input.name,
    nameKey: nameKey(input.name),
    ...(input.description !== undefined ? { description: input.description ?? "" } : {}),
    ...(input.profileImageId !== undefined ? { profileImageId: input.profileImageId } : {}),
    ...(input.profileBannerId !== undefined ? { profileBannerId: input.profileBannerId } : {}),
  };
}

type Statement<Params extends unknown[], Row> = BetterSqlite3.Statement<Params, Row>;

/** The card queries of hubs or series: pages take (...[search arg], limit, offset). */
export interface NamedEntityQueries<Row> {
  newest: Statement<[number, number], Row>;
  top: Statement<[number, number], Row>;
  count: Statement<[], { n: number }>;
  search: Record<SearchPlan, Statement<[string, number, number], Row>>;
  searchCount: Record<NameSearch["kind"], Statement<[string], { n: number }>>;
  byKey: Statement<[string], Row>;
  byId: Statement<[number], Row>;
}

/** The reads hubs and series share: pages of cards newest or top first, the name search, the name-or-id lookup. */
export function namedEntityReads<Row, Card>(q: NamedEntityQueries<Row>, toCard: (row: Row) => Card) {
  const page = (rows: Row[], total: number, paging: Paging): Page<Card> => pageOf(rows.map(toCard), total, paging);
  const listNewest = (paging: Paging) => page(q.newest.all(paging.perPage, offsetOf(paging)), q.count.get()!.n, paging);

  return {
    listNewest,

    listTop: (paging: Paging) => page(q.top.all(paging.perPage, offsetOf(paging)), q.count.get()!.n, paging),

    search: (name: string, paging: Paging): Page<Card> => {
      const key = nameKey(name.trim());
      if (key === "") return listNewest(paging);
      const { kind, arg } = nameSearch(key);
      const total = q.searchCount[kind].get(arg)!.n;
      return page(q.search[searchPlan(kind, total)].all(arg, paging.perPage, offsetOf(paging)), total, paging);
    },

    /** By name (case-insensitive), then, for an all-digit name, by id (docs/api.md §4). */
    findRow: (nameOrId: string): Row | undefined => {
      const byName = q.byKey.get(nameKey(nameOrId.trim()));
      if (byName || !/^[0-9]{1,10}$/.test(nameOrId)) return byName;
      return q.byId.get(Number(nameOrId));
    },
  };
}

export interface NamedEntityKind {
  table: "Hub" | "Series";
  messages: { notFound: string; notAuthor: string; nameTaken: string };
  /** The row's author, or null when there is no such row. */
  findAuthor(id: number): Promise<{ authorId: number } | null>;
  /** The Prisma update of the row, run in one transaction with the publishing of its images. */
  updateRow(id: number, changes: ReturnType<typeof namedEntityChanges>): Prisma.PrismaPromise<unknown>;
}

/**
 * The writes hubs and series share: the name is free (409 otherwise, also when a concurrent writer
 * took it first), the logo and banner are the writer's own images, and only the author edits.
 */
export function namedEntityWrites(db: Database, kind: NamedEntityKind) {
  const { sqlite, prisma } = db;
  const idByKey = prepare<[string], { id: number }>(sqlite, `SELECT id FROM ${kind.table} WHERE nameKey = ?`);

  function assertNameFree(name: string, exceptId?: number) {
    const existing = idByKey.get(nameKey(name));
    if (existing && existing.id !== exceptId) throw conflict(kind.messages.nameTaken);
  }

  return {
    /** Checks the images and the name, then runs `insert` (which publishes the images with the row). */
    create<T>(input: NamedEntityInput, authorId: number, insert: () => T): T {
      assertOwnImages(sqlite, authorId, logoAndBanner(input));
      assertNameFree(input.name);
      try {
        return insert();
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(kind.messages.nameTaken);
        throw err;
      }
    },

    /** The author's edit: the changed columns and the publishing of the new images are one write. */
    async update(id: number, input: NamedEntityInput, userId: number): Promise<void> {
      const row = await kind.findAuthor(id);
      if (!row) throw notFound(kind.messages.notFound);
      if (row.authorId !== userId) throw forbidden(kind.messages.notAuthor);
      assertOwnImages(sqlite, userId, logoAndBanner(input));
      assertNameFree(input.name, id);
      try {
        await prisma.$transaction([
          kind.updateRow(id, namedEntityChanges(input)),
          publishOwnImagesQuery(prisma, userId, refIds(logoAndBanner(input))),
        ]);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(kind.messages.nameTaken);
        throw err;
      }
    },
  };
}
