import { describe, expect, it } from "vitest";
import { parseArgs } from "../../seed/cli.ts";

describe("seed command line", () => {
  it("defaults to DATA_DIR, then ./data, and the demo", () => {
    expect(parseArgs([], {})).toEqual({ dataDir: "./data", help: false });
    expect(parseArgs([], { DATA_DIR: "/srv/comics" })).toEqual({ dataDir: "/srv/comics", help: false });
  });

  it("reads --data-dir and --scale in both spellings", () => {
    expect(parseArgs(["--data-dir", "/tmp/x", "--scale", "users=5"], {})).toEqual({ dataDir: "/tmp/x", scale: "users=5", help: false });
    expect(parseArgs(["--data-dir=/tmp/y", "--scale=posts=9"], {})).toEqual({ dataDir: "/tmp/y", scale: "posts=9", help: false });
  });

  it("treats a bare --scale as the full benchmark set", () => {
    expect(parseArgs(["--scale"], {}).scale).toBe("");
    expect(parseArgs(["--scale", "--data-dir", "d"], {})).toEqual({ dataDir: "d", scale: "", help: false });
  });

  it("takes PostgreSQL from DATABASE_URL, an empty one meaning none", () => {
    expect(parseArgs([], { DATABASE_URL: "postgresql://db.example/inkwell" })).toEqual({
      dataDir: "./data",
      databaseUrl: "postgresql://db.example/inkwell",
      help: false,
    });
    expect(parseArgs([], { DATABASE_URL: "" }).databaseUrl).toBeUndefined();
  });

  it("rejects unknown arguments and a missing folder", () => {
    expect(() => parseArgs(["--sclae"], {})).toThrow(/Unknown argument/);
    expect(() => parseArgs(["--data-dir"], {})).toThrow(/needs a folder/);
  });
});
