// server/db/schema.ts is written by hand (docs/decisions/014-data-layer.md: no generator runs offline here) and keeps
// what the database cannot say (the kinds of a notification, the actions of the log); this checks it against the
// migrated database of the engine under test (issue 28 item 3): the same tables, the same columns, the same
// nullability (`T | null`), numbers and strings where the column holds them, and `Generated<>` only on a column
// the database fills (a default, NULL, or an id it numbers: SeriesTag's copies are filled by triggers from defaults).
import path from "node:path";
import { sql } from "kysely";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { freshTestStore, testEngine, type TestStore } from "../helpers/test-data-dir.ts";

const SCHEMA_TS = path.resolve("server/db/schema.ts");

// Tables the migrations write by hand and only raw SQL reads (server/named-entities/name-search.ts), so they have no
// type: SQLite's FTS5 trigram tables (with the shadow tables FTS5 makes) and PostgreSQL's name suffixes.
const UNTYPED_TABLES = {
  sqlite: /^(HubNameSearch|SeriesNameSearch)(_(config|content|data|docsize|idx))?$|^sqlite_|^_prisma_migrations$/,
  postgres: /^(HubNameSuffix|SeriesNameSuffix|_prisma_migrations)$/,
};

interface Column {
  /** "number" or "string", then " | null" when the column takes NULL. */
  type: string;
  /** Types: wrapped in Generated<>. Database: has a default (NULL for a nullable column), or is the id it numbers. */
  filled: boolean;
}
type Tables = Record<string, Record<string, Column>>;

/** The tables of `interface DB` in schema.ts, read with the TypeScript compiler. */
function typedTables(): Tables {
  const program = ts.createProgram([SCHEMA_TS], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(SCHEMA_TS)!;
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  ts.forEachChild(file, (node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const kind = (type: ts.Type): string => {
    const parts = type.isUnion() ? type.types : [type];
    const kinds = new Set(
      parts.map((part) =>
        part.flags & ts.TypeFlags.Null
          ? "null"
          : part.flags & ts.TypeFlags.NumberLike
            ? "number"
            : part.flags & ts.TypeFlags.StringLike
              ? "string"
              : checker.typeToString(part),
      ),
    );
    const nullable = kinds.delete("null");
    return [...kinds].sort().join(" | ") + (nullable ? " | null" : "");
  };
  const members = (declaration: ts.InterfaceDeclaration) =>
    declaration.members.filter(ts.isPropertySignature).map((member) => ({ name: member.name.getText(file), type: member.type! }));

  const tables: Tables = {};
  for (const table of members(interfaces.get("DB")!)) {
    const declaration = interfaces.get(table.type.getText(file))!;
    expect(declaration, `interface ${table.type.getText(file)} in schema.ts`).toBeDefined();
    tables[table.name] = {};
    for (const column of members(declaration)) {
      const generated = ts.isTypeReferenceNode(column.type) && column.type.typeName.getText(file) === "Generated";
      const inner = generated ? (column.type as ts.TypeReferenceNode).typeArguments![0]! : column.type;
      tables[table.name]![column.name] = { type: kind(checker.getTypeFromTypeNode(inner)), filled: generated };
    }
  }
  return tables;
}

const columnKind = (declared: string) =>
  /INT|DATETIME|REAL|NUMERIC|DOUBLE/i.test(declared) ? "number" : /TEXT|CHAR/i.test(declared) ? "string" : declared;

/** Every table and column of the migrated database: `pragma table_info` on SQLite, information_schema on PostgreSQL. */
async function databaseTables(db: Database): Promise<Tables> {
  const tables: Tables = {};
  const untyped = UNTYPED_TABLES[db.engine];
  if (db.engine === "sqlite") {
    const names = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db.kysely);
    for (const { name } of names.rows.filter((row) => !untyped.test(row.name))) {
      const columns = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
        SELECT * FROM pragma_table_info(${name})`.execute(db.kysely);
      const numberedId = columns.rows.filter((column) => column.pk > 0).length === 1;
      tables[name] = Object.fromEntries(
        columns.rows.map((column) => [
          column.name,
          {
            type: columnKind(column.type) + (column.notnull ? "" : " | null"),
            filled: column.dflt_value !== null || !column.notnull || (numberedId && column.pk === 1 && /^INTEGER$/i.test(column.type)),
          },
        ]),
      );
    }
  } else {
    const columns = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
    }>`
      SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(db.kysely);
    for (const column of columns.rows.filter((row) => !untyped.test(row.table_name))) {
      (tables[column.table_name] ??= {})[column.column_name] = {
        type: columnKind(column.data_type === "bigint" ? "INT" : column.data_type) + (column.is_nullable === "YES" ? " | null" : ""),
        filled: column.column_default !== null || column.is_nullable === "YES",
      };
    }
  }
  return tables;
}

const shapes = (tables: Tables) =>
  Object.fromEntries(
    Object.entries(tables).map(([table, columns]) => [
      table,
      Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, column.type])),
    ]),
  );

describe(`server/db/schema.ts against the migrated ${testEngine} database`, () => {
  let store: TestStore;
  let db: Database;
  let typed: Tables;
  let migrated: Tables;

  beforeAll(async () => {
    store = await freshTestStore();
    db = await store.open();
    typed = typedTables();
    migrated = await databaseTables(db);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await store?.remove();
  });

  it("has every table and column, with its type and nullability", () => {
    expect(Object.keys(typed).length).toBeGreaterThan(20);
    expect(shapes(typed)).toEqual(shapes(migrated));
  });

  it("marks Generated<> only the columns the database fills", () => {
    const unfilled = Object.entries(typed).flatMap(([table, columns]) =>
      Object.entries(columns)
        .filter(([name, column]) => column.filled && migrated[table]?.[name]?.filled === false)
        .map(([name]) => `${table}.${name}`),
    );
    expect(unfilled).toEqual([]);
  });
});
