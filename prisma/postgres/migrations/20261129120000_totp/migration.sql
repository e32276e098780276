-- TOTP second factor, its recovery codes and the login's code step (docs/api.md "Second factors").
CREATE TABLE "TotpFactor" (
    "userId" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "confirmedAt" BIGINT,
    "lastUsedStep" INTEGER,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "TotpFactor_pkey" PRIMARY KEY ("userId")
);

-- Stored only as their sha256.
CREATE TABLE "RecoveryCode" (
    "userId" INTEGER NOT NULL,
    "codeHash" TEXT NOT NULL,

    CONSTRAINT "RecoveryCode_pkey" PRIMARY KEY ("userId","codeHash")
);

-- The id stored only as its sha256.
CREATE TABLE "LoginChallenge" (
    "idHash" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "expiresAt" BIGINT NOT NULL,
    "wrongCodes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LoginChallenge_pkey" PRIMARY KEY ("idHash")
);

CREATE INDEX "LoginChallenge_userId_idx" ON "LoginChallenge"("userId");

ALTER TABLE "TotpFactor" ADD CONSTRAINT "TotpFactor_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "RecoveryCode" ADD CONSTRAINT "RecoveryCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "LoginChallenge" ADD CONSTRAINT "LoginChallenge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
