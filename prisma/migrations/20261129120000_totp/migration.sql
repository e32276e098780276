-- TOTP second factor, its recovery codes and the login's code step (docs/api.md "Second factors").
CREATE TABLE "TotpFactor" (
    "userId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "secret" TEXT NOT NULL,
    "confirmedAt" DATETIME,
    "lastUsedStep" INTEGER,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "TotpFactor_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Stored only as their sha256.
CREATE TABLE "RecoveryCode" (
    "userId" INTEGER NOT NULL,
    "codeHash" TEXT NOT NULL,

    PRIMARY KEY ("userId", "codeHash"),
    CONSTRAINT "RecoveryCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The id stored only as its sha256.
CREATE TABLE "LoginChallenge" (
    "idHash" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "wrongCodes" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "LoginChallenge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "LoginChallenge_userId_idx" ON "LoginChallenge"("userId");
