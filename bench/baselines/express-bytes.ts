// Baseline 4: Express 5 sending BODY_BYTES bytes as an image (the size of the image read's answer): what an answer of
// that size costs on this machine, whatever the server does before it (the image read's second yardstick).
import { randomBytes } from "node:crypto";
import express from "express";

const bytes = randomBytes(Number(process.env.BODY_BYTES ?? 75_000));
const app = express();
app.disable("x-powered-by");
// No ETag: Express would hash the whole body on every request, which the image read does not (its ETag is kept).
app.set("etag", false);
app.get("/", (_req, res) => {
  res.type("image/webp").send(bytes);
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Express ${bytes.length}-byte baseline on ${JSON.stringify(server.address())}`);
});
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
