import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { HubBody, HubEditBody, type HubEditInput, type HubInput } from "../../server/rules/hub.ts";
import { SeriesBody, SeriesEditBody, type SeriesEditInput, type SeriesInput } from "../../server/rules/series.ts";
import { ApiError, type Api } from "./api.server.ts";
import { onFields, type EntityKind, type EntityValues } from "./entity-form.ts";
import { formValues } from "./forms.ts";
import { positiveId } from "./ids.ts";
import { attempt, NOT_FOUND, readFailure } from "./load.server.ts";
import {
  failure,
  imageField,
  invalid,
  publisher,
  readPublishForm,
  redirectIdQuery,
  refusal,
  saveFailure,
  success,
} from "./publish.server.ts";
import { SERIES_META_FIELDS, seriesMetaBody } from "./series-meta.ts";
import { hubPath, seriesPath } from "./urls.ts";

const TEXT_FIELDS = ["name", "description"] as const;
const IMAGE_FIELDS = ["profileImageId", "profileBannerId"] as const;

interface Entity extends EntityValues {
  id: number;
  ownerId: number;
  ownerName: string;
}

/** What differs between the hub form and the series form: the words, the calls, the rules. */
const KINDS = {
  hub: {
    Title: "Hub",
    rules: { create: HubBody, edit: HubEditBody },
    read: async (api: Api, id: number): Promise<Entity> => {
      const h = await api.hubById(id);
      return { ...pick(h), ownerId: h.authorId, ownerName: h.authorName };
    },
    // A create body is an edit body whose description is always there (the rules default it to "").
    save: (api: Api, id: number | null, body: HubEditInput) => (id === null ? api.createHub(body as HubInput) : api.updateHub(id, body)),
    path: hubPath,
  },
  series: {
    Title: "Series",
    rules: { create: SeriesBody, edit: SeriesEditBody },
    read: async (api: Api, id: number): Promise<Entity> => {
      const s = await api.seriesById(id);
      const meta = { tags: s.tags, status: s.status, contentRating: s.contentRating, readingDirection: s.readingDirection };
      return { ...pick(s), meta, ownerId: s.author, ownerName: s.authorName };
    },
    save: (api: Api, id: number | null, body: SeriesEditInput) =>
      id === null ? api.createSeries(body as SeriesInput) : api.updateSeries(id, body),
    path: seriesPath,
  },
} as const;

function pick(e: { id: number; name: string; description: string; profileImageId: number | null; profileBannerId: number | null }) {
  return { id: e.id, name: e.name, description: e.description, profileImageId: e.profileImageId, profileBannerId: e.profileBannerId };
}

/**
 * The loader of `/publish/{hub|series}` (create) and `/publish/{hub|series}/{id}` (edit, or the
 * first product's `?id=`, docs/web.md §7): signed in, and for editing the creator only (403 otherwise).
 */
export function entityLoader(kind: EntityKind) {
  const k = KINDS[kind];
  return async ({ request, params, context }: LoaderFunctionArgs) => {
    const { session, api } = await publisher(request, context);
    redirectIdQuery(request);
    if (params.id === undefined) return { entity: null };
    const id = positiveId(params.id);
    const read = id === null ? NOT_FOUND : await attempt(k.read(api, id));
    if (!read.ok) {
      const failed = readFailure(read, kind === "hub" ? "No hub found." : "No series found.", `Failed to load ${kind} data`);
      return refusal(failed.status, `Edit ${kind}`, failed.message);
    }
    const entity = read.value;
    if (entity.ownerId !== session.user.id) {
      return refusal(403, `You can't edit this ${kind}`, `Only its creator, @${entity.ownerName}, can edit “${entity.name}”.`);
    }
    const { ownerId: _o, ownerName: _n, ...values } = entity;
    return { entity: values };
  };
}

/** Creates or saves a hub or series: uploads (without JavaScript), the shared rules, the API, the messages of docs/web.md §4 and §5. */
export function entityAction(kind: EntityKind) {
  const k = KINDS[kind];
  return async ({ request, params, context }: ActionFunctionArgs) => {
    const { api } = await publisher(request, context);
    const editing = params.id !== undefined;
    const editId = editing ? positiveId(params.id) : null;
    const max = context.config.uploadMaxBytes;
    const read = await readPublishForm(
      request,
      context,
      api,
      IMAGE_FIELDS.map((f) => `${f}File`),
    );
    // A series' form carries its metadata too (tags as comma-separated text, three selects).
    const values = formValues(read.form, kind === "series" ? [...TEXT_FIELDS, ...SERIES_META_FIELDS] : TEXT_FIELDS);
    const meta = kind === "series" ? seriesMetaBody(values) : {};
    const logo = imageField(read, "profileImageId", max);
    const banner = imageField(read, "profileBannerId", max);
    const images = { profileImageId: logo.id ?? null, profileBannerId: banner.id ?? null };
    if (logo.error || banner.error) {
      return failure(values, { profileImageId: logo.error ?? undefined, profileBannerId: banner.error ?? undefined }, null, { images });
    }
    const body = { name: values.name, description: values.description, ...meta, profileImageId: logo.id, profileBannerId: banner.id };
    const parsed = onFields((editing ? k.rules.edit : k.rules.create).safeParse(body));
    if (!parsed.success) return invalid(values, parsed.error, { images });
    try {
      if (editing && editId === null) throw new ApiError(404, "Not found");
      const saved = await k.save(api, editId, parsed.data);
      return success(`${k.Title} ${editing ? "updated" : "created"} successfully!`, k.path(saved.name));
    } catch (err) {
      return saveFailure(kind, editing, err, values, { images });
    }
  };
}
