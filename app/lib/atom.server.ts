import { xmlElement, xmlText } from "./xml.ts";

/** A person of an Atom feed or entry: a name, and their page when they have one. */
export interface AtomPerson {
  name: string;
  uri?: string;
}

export interface AtomEntry {
  /** A permanent, absolute IRI: it must not change when the thing is renamed (tagUri). */
  id: string;
  title: string;
  /** The entry's page (absolute). */
  url: string;
  /** RFC 3339. */
  updated: string;
  published?: string;
  summary?: string;
  author?: AtomPerson;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  /** The feed's own address (rel=self) and the page it follows (rel=alternate), absolute. */
  selfUrl: string;
  pageUrl: string;
  /** RFC 3339: the newest entry's date, or the subject's creation when there are none. */
  updated: string;
  /** Required by RFC 4287 at feed level when an entry may have none (an empty feed). */
  author: AtomPerson;
  icon?: string;
  entries: AtomEntry[];
}

/** What the feeds answer with: Atom, cached like a guest's page for a few minutes by browsers and proxies. */
export const ATOM_HEADERS = {
  "Content-Type": "application/atom+xml; charset=utf-8",
  "Cache-Control": "public, max-age=300",
};

/** The first day of the tag URIs' authority (RFC 4151); never changed, or every id changes with it. */
const TAG_DATE = "2026";

/**
 * A permanent id for a thing of the site, `tag:{host},2026:{kind}:{id}` (RFC 4151), from the public origin: the
 * same across renames of series and hubs, which change their pages' addresses.
 */
export function tagUri(publicUrl: string, kind: string, id: number): string {
  return `tag:${new URL(publicUrl).hostname},${TAG_DATE}:${kind}:${id}`;
}

const person = (tag: "author", p: AtomPerson) => `<${tag}>${xmlElement("name", p.name)}${p.uri ? xmlElement("uri", p.uri) : ""}</${tag}>`;

const link = (rel: string, href: string, type?: string) => `<link rel="${rel}" href="${xmlText(href)}"${type ? ` type="${type}"` : ""}/>`;

/** An Atom 1.0 document (RFC 4287). */
export function atomXml(feed: AtomFeed): string {
  const entries = feed.entries.map((e) =>
    [
      "<entry>",
      xmlElement("id", e.id),
      `<title type="text">${xmlText(e.title)}</title>`,
      link("alternate", e.url, "text/html"),
      xmlElement("updated", e.updated),
      e.published ? xmlElement("published", e.published) : "",
      e.author ? person("author", e.author) : "",
      e.summary ? `<summary type="text">${xmlText(e.summary)}</summary>` : "",
      "</entry>",
    ].join(""),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    xmlElement("id", feed.id),
    `<title type="text">${xmlText(feed.title)}</title>`,
    feed.subtitle ? `<subtitle type="text">${xmlText(feed.subtitle)}</subtitle>` : "",
    link("self", feed.selfUrl, "application/atom+xml"),
    link("alternate", feed.pageUrl, "text/html"),
    xmlElement("updated", feed.updated),
    person("author", feed.author),
    "<generator>Inkwell</generator>",
    feed.icon ? xmlElement("icon", feed.icon) : "",
    ...entries,
    "</feed>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The Atom answer of a feed route. */
export const atomResponse = (feed: AtomFeed) => new Response(atomXml(feed), { headers: ATOM_HEADERS });
