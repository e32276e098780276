import { Form } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { BlockedUser } from "../../server/rules/blocks.ts";
import { userPath } from "../lib/urls.ts";

/**
 * The settings page's "Blocked users" section: each with an Unblock button, a plain form posting to the block page's
 * action (unblocking only shows again, so it needs no confirmation). `users` null: the list could not be read.
 */
export function BlockedUsers({ users, total }: { users: BlockedUser[] | null; total: number }) {
  return (
    <section className="card settings__section" id="blocked" aria-labelledby="blocked-title">
      <h2 id="blocked-title">Blocked users</h2>
      {users === null ? (
        <p className="muted">Could not load the list right now.</p>
      ) : users.length === 0 ? (
        <p className="muted">You have not blocked anyone. Block someone from their profile page.</p>
      ) : (
        <>
          <p className="muted">Their posts and comments are hidden from your lists; they cannot reply to you or mention you.</p>
          <ul className="blocked-list">
            {users.map((u) => (
              <li key={u.id} className="blocked-list__item">
                <Link to={userPath(u.username)}>@{u.username}</Link>
                <Form method="post" action={`${userPath(u.username)}/block`} className="inline-form">
                  <input type="hidden" name="intent" value="unblock" />
                  <input type="hidden" name="redirectTo" value="/settings#blocked" />
                  <button type="submit" className="button button--ghost" aria-label={`Unblock ${u.username}`}>
                    Unblock
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          {total > users.length ? <p className="muted">And {total - users.length} more, listed as you unblock these.</p> : null}
        </>
      )}
    </section>
  );
}
