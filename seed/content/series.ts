import type { ContentRating, ReadingDirection, SeriesStatus } from "../../server/rules/series.ts";

/**
 * The demo series and their chapters. `followers` is deliberately unrelated to the creation order,
 * so "top series" differs from "newest".
 */
export interface DemoChapter {
  title: string;
  description: string;
}

export interface DemoSeries {
  name: string;
  description: string;
  author: string;
  /** Black-and-white manga pages with screentone (covers stay in colour). */
  mono: boolean;
  /** The metadata of docs/api.md "Series metadata and browsing": at least one right-to-left manga and one mature series. */
  tags: readonly string[];
  status: SeriesStatus;
  contentRating: ContentRating;
  readingDirection: ReadingDirection;
  createdDaysAgo: number;
  followers: number;
  chapters: readonly DemoChapter[];
}

export const DEMO_SERIES: readonly DemoSeries[] = [
  {
    name: "Lanterns Over Kessel Bay",
    description:
      "In a harbour town where paper lanterns carry messages across the water, apprentice lamplighter Mika finds a lantern addressed to someone who left Kessel Bay forty years ago. A cosy mystery about letters, tides and second chances.",
    author: "mika_draws",
    mono: false,
    tags: ["mystery", "slice of life", "cosy"],
    status: "completed",
    contentRating: "general",
    readingDirection: "vertical",
    createdDaysAgo: 176,
    followers: 16,
    chapters: [
      { title: "The First Lantern", description: "A lantern drifts in against the wind, and Mika is the only one who sees it land." },
      { title: "Return to Sender", description: "The post office has no record of the name, but the harbourmaster goes very quiet." },
      { title: "Low Tide Market", description: "Bargaining for lamp oil, Mika meets a fisherman who remembers the old lighthouse keeper." },
      { title: "Wax and Wick", description: "Oren teaches Mika how lanterns are sealed, and why some were never meant to be opened." },
      { title: "The Keeper's Stair", description: "One hundred and twelve steps, a locked door and a drawing scratched into the stone." },
      { title: "Fog Season", description: "The fog rolls in for a week and every lantern in town goes missing but one." },
      { title: "Letters in the Ballast", description: "A shipwreck's ballast hides a bundle of letters tied with lantern string." },
      { title: "The Harbourmaster's Answer", description: "Old promises come out over a pot of bitter tea." },
      { title: "Night of a Thousand Lights", description: "The festival begins, and someone is sending lanterns back." },
      { title: "Across the Water", description: "Mika rows out past the breakwater to follow a light nobody else can see." },
      { title: "What the Tide Keeps", description: "The lighthouse opens, and the keeper's last letter is finally read." },
      { title: "Lamplighter", description: "Season one finale: Mika lights the first lantern of her own." },
    ],
  },
  {
    name: "The Moth Courier",
    description:
      "Suzu delivers letters only at night, guided by moths that know every window in the city. When a letter arrives with no address and a moth that refuses to fly, she has until dawn to find who it belongs to. Monochrome manga, updated biweekly.",
    author: "demo",
    mono: true,
    tags: ["fantasy", "slice of life", "manga"],
    status: "ongoing",
    contentRating: "general",
    readingDirection: "rtl",
    createdDaysAgo: 168,
    followers: 19,
    chapters: [
      { title: "After Hours", description: "Suzu's first night on the job goes wrong in the most polite way possible." },
      { title: "The Letter with No Address", description: "A plain envelope, a stubborn moth and a very long night ahead." },
      { title: "Rooftop Route", description: "The fastest way across the city is over it." },
      { title: "A Letter for the Lighthouse Keeper", description: "An old route, an older debt, and a light that should not be on." },
      { title: "Dawn Deadline", description: "The moths go to sleep at sunrise. Suzu does not have that luxury." },
    ],
  },
  {
    name: "Saltwind Academy",
    description:
      "A boarding school for weather-mages on a floating island. Top student Aoi can call any wind except the one she needs. Comedy, rivalry and a lot of laundry blown out to sea.",
    author: "tomo_sketches",
    mono: false,
    tags: ["comedy", "school", "fantasy"],
    status: "ongoing",
    contentRating: "general",
    readingDirection: "vertical",
    createdDaysAgo: 150,
    followers: 12,
    chapters: [
      { title: "First Gust", description: "Entrance exams, a runaway weathervane and a rival with perfect hair." },
      { title: "Doldrums", description: "Aoi's wind disappears on the worst possible day." },
      { title: "Squall Team", description: "Group projects are bad. Group projects in a hurricane are worse." },
      { title: "Eye of the Storm", description: "The island drifts off course, and only the dorm's worst students notice." },
    ],
  },
  {
    name: "Paper Tigers of Route 9",
    description:
      "A scooter gang that settles every argument with origami. Loud, earnest and far too serious about paper. Black-and-white action comedy.",
    author: "gutterspace",
    mono: true,
    tags: ["action", "comedy", "manga"],
    status: "ongoing",
    contentRating: "teen",
    readingDirection: "rtl",
    createdDaysAgo: 131,
    followers: 7,
    chapters: [
      { title: "Fold or Fight", description: "The Tigers are challenged on their own stretch of road." },
      { title: "Valley Fold", description: "A new recruit who cannot fold a crane to save his life." },
      { title: "Crease Lightning", description: "Race night, rain, and a paper tiger that will not stay dry." },
    ],
  },
  {
    name: "Ghostlight Diner",
    description:
      "After midnight the diner on Elm Street serves a different crowd. Cook Dee keeps the coffee hot and the rules simple: no haunting the regulars, and everyone tips.",
    author: "demo",
    mono: false,
    tags: ["supernatural", "slice of life", "comedy"],
    status: "ongoing",
    contentRating: "teen",
    readingDirection: "vertical",
    createdDaysAgo: 118,
    followers: 14,
    chapters: [
      { title: "Graveyard Shift", description: "Dee's first night cook shift, and table four has been dead since 1962." },
      { title: "Pie for the Departed", description: "A ghost who cannot leave until she tastes her mother's cherry pie again." },
      { title: "Last Call", description: "The diner is being sold, and the regulars have opinions." },
    ],
  },
  {
    name: "Starfall Shepherds",
    description:
      "On a mountain where stars fall like snow, two shepherds herd the fallen ones home before they burn out. Quiet, luminous fantasy.",
    author: "sora_paints",
    mono: false,
    tags: ["fantasy", "quiet"],
    status: "hiatus",
    contentRating: "general",
    readingDirection: "ltr",
    createdDaysAgo: 104,
    followers: 10,
    chapters: [
      { title: "The Night the Sky Came Down", description: "A meteor shower, a lost star and a shepherd who is not ready." },
      { title: "Carrying Light", description: "Stars are heavier than they look, and much more talkative." },
      { title: "The High Pasture", description: "Where the old shepherds go, and why none of them came back." },
    ],
  },
  {
    name: "Clockwork Orchard",
    description:
      "Nova inherits an orchard where the apple trees are made of brass and the harvest keeps time for the whole valley. Then the trees start running late.",
    author: "nib_and_nova",
    mono: false,
    tags: ["steampunk", "mystery", "fantasy"],
    status: "ongoing",
    contentRating: "general",
    readingDirection: "vertical",
    createdDaysAgo: 89,
    followers: 5,
    chapters: [
      { title: "Inheritance", description: "A key, a deed and an orchard that ticks." },
      { title: "Seven Minutes Slow", description: "The valley's clocks drift, and the neighbours blame Nova." },
      { title: "Grafting", description: "Old Tomas shows Nova how to join a living branch to a brass one." },
    ],
  },
  {
    name: "Neon Tanuki",
    description:
      "A shape-shifting tanuki runs a repair shop in a city that never turns its signs off. Short, punchy chapters in classic screentone.",
    author: "screentone_suki",
    mono: true,
    tags: ["supernatural", "action", "manga"],
    status: "ongoing",
    contentRating: "teen",
    readingDirection: "rtl",
    createdDaysAgo: 66,
    followers: 9,
    chapters: [
      { title: "Open All Night", description: "The shop's first customer is a vending machine with feelings." },
      { title: "Signal Noise", description: "Every sign on the street flickers the same message at once." },
      { title: "Leaf on the Wire", description: "A disguise goes wrong in the middle of a power cut." },
    ],
  },
  {
    name: "The Last Ferry to Aubade",
    description:
      "The last ferry of the night goes to an island that is only there until sunrise. Omar has made the crossing a hundred times; tonight someone refuses to get off.",
    author: "riverink_omar",
    mono: false,
    tags: ["horror", "drama", "mystery"],
    status: "ongoing",
    contentRating: "mature",
    readingDirection: "vertical",
    createdDaysAgo: 44,
    followers: 3,
    chapters: [
      { title: "Departure 23:40", description: "Ticket checks, tired passengers and one who has no ticket at all." },
      { title: "Between Shores", description: "Halfway across, the radio starts playing songs from the island." },
    ],
  },
  {
    name: "Hollow Crown Knights",
    description:
      "Three knights swear to protect a kingdom that has already fallen. A black-and-white adventure about loyalty, bad maps and worse cooking.",
    author: "quiet_quill",
    mono: true,
    tags: ["adventure", "fantasy", "comedy"],
    status: "ongoing",
    contentRating: "teen",
    readingDirection: "ltr",
    createdDaysAgo: 28,
    followers: 6,
    chapters: [
      { title: "An Oath to Nobody", description: "The kingdom is gone. The knights have not been told." },
      { title: "The Map Is Wrong", description: "Every road leads back to the same burned bridge." },
    ],
  },
];
