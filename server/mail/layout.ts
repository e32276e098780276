/** The site's name in every message: the From's display name, the heading and the footer. */
export const SITE_NAME = "Inkwell";

export interface MailContent {
  /** "Hello alice," */
  greeting?: string;
  paragraphs: string[];
  /** The one thing the message asks for: a button in HTML, the bare link in plain text. */
  action?: { label: string; url: string };
  /** Small print under the message: why it was sent, what to do if it was not you. */
  footer?: string;
  /** A visible unsubscribe link under everything (notification mail, docs/api.md "Notification mail"). */
  unsubscribe?: { label: string; url: string };
  /** Linked lines after the paragraphs (a digest's notifications): a line and its link each. */
  links?: { text: string; url: string }[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * The two parts of a message, made alike for every kind (docs/api.md "Mail"): plain text with links on lines of their
 * own, and simple HTML (inline styles only: mail programs drop style sheets). Every text is escaped.
 */
export function mailBody(content: MailContent): { text: string; html: string } {
  const text = [
    ...(content.greeting ? [content.greeting] : []),
    ...content.paragraphs,
    ...(content.links?.length ? [content.links.map((l) => `- ${l.text}\n  ${l.url}`).join("\n")] : []),
    ...(content.action ? [`${content.action.label}:\n${content.action.url}`] : []),
    ...(content.footer ? [content.footer] : []),
    ...(content.unsubscribe ? [`${content.unsubscribe.label}:\n${content.unsubscribe.url}`] : []),
    `-- \n${SITE_NAME}`,
  ].join("\n\n");

  const paragraph = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1f3a5f;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555555">${escapeHtml("Or open this link:")}<br><a href="${escapeHtml(content.action.url)}" style="color:#1f3a5f;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : "";
  const links = content.links?.length
    ? `<ul style="margin:0 0 16px;padding-left:20px">${content.links.map((l) => `<li style="margin:0 0 8px"><a href="${escapeHtml(l.url)}" style="color:#1f3a5f">${escapeHtml(l.text)}</a></li>`).join("")}</ul>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(SITE_NAME)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f4;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#222222">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:6px">
<p style="margin:0 0 20px;font-size:20px;font-weight:bold">${escapeHtml(SITE_NAME)}</p>
${content.greeting ? paragraph(content.greeting) : ""}
${content.paragraphs.map(paragraph).join("\n")}
${links}
${action}
${content.footer ? `<p style="margin:24px 0 0;font-size:13px;color:#555555">${escapeHtml(content.footer)}</p>` : ""}
${content.unsubscribe ? `<p style="margin:12px 0 0;font-size:13px;color:#555555"><a href="${escapeHtml(content.unsubscribe.url)}" style="color:#1f3a5f">${escapeHtml(content.unsubscribe.label)}</a></p>` : ""}
</div>
</body>
</html>
`;
  return { text, html };
}
