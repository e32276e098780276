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
    ...(content.action ? [`${content.action.label}:\n${content.action.url}`] : []),
    ...(content.footer ? [content.footer] : []),
    `-- \n${SITE_NAME}`,
  ].join("\n\n");

  const paragraph = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1f3a5f;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555555">${escapeHtml("Or open this link:")}<br><a href="${escapeHtml(content.action.url)}" style="color:#1f3a5f;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(SITE_NAME)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f4;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#222222">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:6px">
<p style="margin:0 0 20px;font-size:20px;font-weight:bold">${escapeHtml(SITE_NAME)}</p>
${content.greeting ? paragraph(content.greeting) : ""}
${content.paragraphs.map(paragraph).join("\n")}
${action}
${content.footer ? `<p style="margin:24px 0 0;font-size:13px;color:#555555">${escapeHtml(content.footer)}</p>` : ""}
</div>
</body>
</html>
`;
  return { text, html };
}
