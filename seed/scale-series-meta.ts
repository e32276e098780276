import type { ContentRating, ReadingDirection, SeriesStatus } from "../server/rules/series.ts";
import { Random } from "./random.ts";

/**
 * The tags, statuses, ratings and reading directions of the large benchmark set's series (docs/api.md "Series metadata and browsing"). A few dozen
 * tags, picked with a skew (the first ones on a large share of the series, the last on a handful), all statuses,
 * ratings and directions. Drawn from their own random stream, so the rest of the set is the same with or without them.
 */
export const SCALE_TAGS = [
  "fantasy",
  "comedy",
  "action",
  "romance",
  "drama",
  "slice of life",
  "adventure",
  "mystery",
  "sci-fi",
  "horror",
  "supernatural",
  "school",
  "manga",
  "historical",
  "sports",
  "thriller",
  "cosy",
  "post-apocalyptic",
  "mecha",
  "music",
  "cooking",
  "steampunk",
  "space opera",
  "detective",
  "isekai",
  "found family",
  "superhero",
  "psychological",
  "martial arts",
  "mythology",
  "pirates",
  "time travel",
  "villainess",
  "cyberpunk",
  "wholesome",
  "silent",
] as const;

/** The two most used tags of both benchmark sets (the demo series carry them too): the bench's tag filters. */
export const BENCH_TAGS = ["fantasy", "comedy"] as const;

export interface SeriesMeta {
  tags: string[];
  status: SeriesStatus;
  contentRating: ContentRating;
  readingDirection: ReadingDirection;
}

const weighted = <T>(rnd: Random, choices: readonly (readonly [T, number])[]): T => {
  let x = rnd.next();
  for (const [value, weight] of choices) {
    if (x < weight) return value;
    x -= weight;
  }
  return choices[choices.length - 1]![0];
};

/** One series' metadata after another, in the set's order. */
export function seriesMetaSource(): () => SeriesMeta {
  const rnd = new Random("scale:series-meta");
  return () => {
    const wanted = rnd.int(0, 5);
    const tags: string[] = [];
    // u^2.5 puts most picks on the first tags: "fantasy" on about 45 % of the series, "comedy" on 20 %, the last ones on 3 %.
    for (let i = 0; i < wanted * 3 && tags.length < wanted; i++) {
      const tag = SCALE_TAGS[Math.floor(SCALE_TAGS.length * rnd.next() ** 2.5)]!;
      if (!tags.includes(tag)) tags.push(tag);
    }
    return {
      tags,
      status: weighted<SeriesStatus>(rnd, [
        ["ongoing", 0.65],
        ["completed", 0.25],
        ["hiatus", 0.1],
      ]),
      contentRating: weighted<ContentRating>(rnd, [
        ["general", 0.6],
        ["teen", 0.3],
        ["mature", 0.1],
      ]),
      readingDirection: weighted<ReadingDirection>(rnd, [
        ["vertical", 0.6],
        ["ltr", 0.2],
        ["rtl", 0.2],
      ]),
    };
  };
}
