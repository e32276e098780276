// The hub moderators page (hubs.$hubName.moderators.tsx): the list for everyone signed in, adding by username and
// removing after a confirmation step for the creator and admins, without JavaScript; the hub page names them.
import { describe, expect, it } from "vitest";
import { loader as hubLoader } from "../../app/routes/hubs.$hubName._index.tsx";
import { action, loader } from "../../app/routes/hubs.$hubName.moderators.tsx";
import { setAdmin } from "../../scripts/admin.ts";
import type { TestUser } from "../helpers/api.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";
import { createHub } from "../helpers/web-seed.ts";

let web: WebTestApi;
let artist: TestUser, reader: TestUser, helper: TestUser, admin: TestUser;
let hub: { id: number; name: string };

setUpSharedWebTestApi(["artist_m", "reader_m", "helper_m", "admin_m"], async (started, users) => {
  web = started;
  [artist, reader, helper, admin] = users;
  hub = await createHub(web.api, artist, { name: "Moderated Hub", description: "Kept tidy" });
  await setAdmin(web.api.db, admin.username, "grant");
  web.api.dataChanged();
});

const PATH = "/hubs/Moderated%20Hub/moderators";
const params = { hubName: "Moderated Hub" };
const load = async (user: TestUser | null, query = "") =>
  run(async () => loader(args(request(`${PATH}${query}`, { cookie: user ? await web.cookieFor(user) : undefined }), web.context, params)));
const post = async (user: TestUser, form: Record<string, string | number>) =>
  run(async () => action(args(request(PATH, { cookie: await web.cookieFor(user), form }), web.context, params)));
const usernames = (out: { data: { moderators: { username: string }[] } }) => out.data.moderators.map((m) => m.username);

describe("hub moderators page", () => {
  it("sends a guest to the login page", async () => {
    const out = await load(null);
    expect(out.location).toBe(`/login?redirectTo=${encodeURIComponent(PATH)}`);
  });

  it("lets the creator add a moderator by username (any case) and says so", async () => {
    const out = await load(artist);
    expect(out.data).toMatchObject({ canManage: true, hub: { id: hub.id, name: "Moderated Hub" } });
    expect(usernames(out)).toEqual(["artist_m"]);

    const added = await post(artist, { intent: "add", username: " READER_M " });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${PATH}?added=reader_m`);
    const after = await load(artist, "?added=reader_m");
    expect(usernames(after)).toEqual(["artist_m", "reader_m"]);
    expect(after.data.notice).toBe("reader_m is now a moderator.");
  });

  it("answers a field error for an empty or unknown username, changing nothing", async () => {
    expect((await post(artist, { intent: "add", username: "  " })).data).toEqual({ fieldError: "Enter a username" });
    const unknown = await post(artist, { intent: "add", username: "nobody_m" });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toEqual({ fieldError: 'Nobody is called "nobody_m"' });
  });

  it("asks before removing, then removes with the confirmation's form", async () => {
    await post(artist, { intent: "add", username: "helper_m" });
    const confirm = await load(artist, `?remove=${helper.id}`);
    expect(confirm.data.removing).toMatchObject({ id: helper.id, username: "helper_m" });
    // The creator cannot be asked about.
    expect((await load(artist, `?remove=${artist.id}`)).data.removing).toBeNull();

    const removed = await post(artist, { intent: "remove", userId: helper.id });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`${PATH}?removed=helper_m`);
    expect(usernames(await load(artist))).toEqual(["artist_m", "reader_m"]);
  });

  it("shows an added moderator the list without the forms; their change is refused with the API's message", async () => {
    const out = await load(reader, `?remove=${reader.id}`);
    expect(out.data.canManage).toBe(false);
    expect(usernames(out)).toEqual(["artist_m", "reader_m"]);
    const refused = await post(reader, { intent: "add", username: "helper_m" });
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({ formError: "Only the hub's creator or an admin can change its moderators" });
  });

  it("lets an admin manage another's hub", async () => {
    expect((await load(admin)).data.canManage).toBe(true);
    expect((await post(admin, { intent: "add", username: "helper_m" })).status).toBe(303);
    expect((await post(admin, { intent: "remove", userId: helper.id })).status).toBe(303);
  });

  it("says 'No hub found.' with a 404 for an unknown hub", async () => {
    const out = await run(async () =>
      loader(args(request("/hubs/nope/moderators", { cookie: await web.cookieFor(artist) }), web.context, { hubName: "nope" })),
    );
    expect(out.status).toBe(404);
    expect(out.data.error).toBe("No hub found.");
  });

  it("names the moderators on the hub page, with moderatedByMe for a moderator", async () => {
    const out = await run(async () =>
      hubLoader(args(request("/hubs/Moderated%20Hub", { cookie: await web.cookieFor(reader) }), web.context, params)),
    );
    expect(out.data.hub).toMatchObject({
      moderators: [
        { id: artist.id, username: "artist_m" },
        { id: reader.id, username: "reader_m" },
      ],
      moderatedByMe: true,
    });
  });
});
