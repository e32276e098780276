-- An account's explicit choices of notification mail per kind (docs/api.md "Notification mail"); no row: the default.
CREATE TABLE "EmailPreference" (
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "setting" TEXT NOT NULL,

    PRIMARY KEY ("userId", "kind"),
    CONSTRAINT "EmailPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
