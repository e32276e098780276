-- Token revocation (docs/decisions/008-sessions-and-login-throttling.md).
-- tokenGeneration: every token carries the generation it was signed in; bumping it ends all of the user's sessions.
ALTER TABLE "User" ADD COLUMN "tokenGeneration" INTEGER NOT NULL DEFAULT 0;

-- One row per token ended early (logout), until the token would have expired anyway.
CREATE TABLE "RevokedToken" (
    "jti" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "RevokedToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "RevokedToken_expiresAt_idx" ON "RevokedToken"("expiresAt");
