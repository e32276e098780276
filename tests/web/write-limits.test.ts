// The post and chapter forms over the API's per-user limits (docs/web.md §5, docs/api.md §8): the answer keeps the
// 429 and says the API's sentence (how long to wait), with what the user typed.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../app/lib/api.server.ts";
import { saveErrorMessage, saveFailure } from "../../app/lib/publish.server.ts";

const limited = (message: string) => new ApiError(429, message);

describe("a save over a per-user limit", () => {
  it.each([
    ["post", false, "You can publish at most 30 posts an hour. Please try again in 12 minutes."],
    ["post", true, "You can make at most 120 edits an hour. Please try again in 3 minutes."],
    ["chapter", false, "You can publish at most 60 chapters an hour. Please try again in 1 minute."],
  ] as const)("%s (editing: %s) shows the API's sentence", (kind, editing, sentence) => {
    expect(saveErrorMessage(kind, editing, limited(sentence))).toBe(sentence);
  });

  it("answers 429 and keeps what was typed", () => {
    const sentence = "You can publish at most 30 posts an hour. Please try again in 12 minutes.";
    const answer = saveFailure("post", false, limited(sentence), { title: "Kept title" });

    expect(answer.init?.status).toBe(429);
    expect(answer.data).toMatchObject({ ok: false, formError: sentence, values: { title: "Kept title" } });
  });
});
