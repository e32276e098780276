import type { MetaFunction } from "@remix-run/node";
import { useRootData } from "../lib/root-data.ts";
import { socialMeta } from "../lib/social-meta.ts";

export const meta: MetaFunction = ({ matches }) =>
  socialMeta(matches, {
    title: "Contact · Inkwell",
    description: "Questions, feedback or a problem on Inkwell? Get in touch.",
    path: "/contact",
  });

/** Names the mailbox from CONTACT_EMAIL (docs/web.md §2). */
export default function Contact() {
  const { contactEmail } = useRootData();
  return (
    <div className="container prose-page">
      <p className="eyebrow">Contact</p>
      <h1>Get in touch</h1>
      <p className="lead">
        Questions, feedback, a bug, or a problem with something posted on Inkwell? Reach out to us at{" "}
        <a href={`mailto:${contactEmail}`}>{contactEmail}</a> and we will get back to you.
      </p>
      <p>For a problem with a post or a series, include its link so we can find it quickly.</p>
    </div>
  );
}
