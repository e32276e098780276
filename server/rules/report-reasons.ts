// The kinds of things one can report and why (docs/api.md "Reports"). No zod here: the web's report form imports these.

export const REPORT_SUBJECT_TYPES = ["post", "comment", "chapter", "series", "hub", "user"] as const;
export type ReportSubjectType = (typeof REPORT_SUBJECT_TYPES)[number];

export const REPORT_REASONS = ["spam", "harassment", "copyright", "sexual", "violence", "other"] as const;
export type ReportReasonCode = (typeof REPORT_REASONS)[number];

/** What the report form and the queue show for each reason. */
export const REPORT_REASON_LABELS: Record<ReportReasonCode, string> = {
  spam: "Spam or advertising",
  harassment: "Harassment, bullying or hate",
  copyright: "Copyright infringement (someone else's work)",
  sexual: "Sexual content that breaks the rules",
  violence: "Violence, threats or self-harm",
  other: "Something else",
};

export const REPORT_NOTE_MAX = 1000;
export const RESOLUTION_REASON_MAX = 500;
