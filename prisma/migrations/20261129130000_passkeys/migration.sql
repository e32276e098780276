-- Passkeys (docs/api.md "Passkeys"): an account's WebAuthn credentials, which sign in without a password or another
-- factor, and the challenges of adding one and of signing in, kept only as sha256 for 5 minutes and used once.

-- CreateTable
CREATE TABLE "Passkey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "credentialId" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "counter" BIGINT NOT NULL,
    "transports" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    CONSTRAINT "Passkey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PasskeyChallenge" (
    "challengeHash" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER,
    "challengeIdHash" TEXT,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "PasskeyChallenge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Passkey_credentialId_key" ON "Passkey"("credentialId");

-- CreateIndex
CREATE INDEX "Passkey_userId_createdAt_idx" ON "Passkey"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PasskeyChallenge_challengeIdHash_key" ON "PasskeyChallenge"("challengeIdHash");

-- CreateIndex
CREATE INDEX "PasskeyChallenge_userId_idx" ON "PasskeyChallenge"("userId");

-- CreateIndex
CREATE INDEX "PasskeyChallenge_expiresAt_idx" ON "PasskeyChallenge"("expiresAt");

