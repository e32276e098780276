// Baseline 2: Express 5's hello-world JSON handler, the yardstick for the API's reads.
import express from "express";

const app = express();
app.disable("x-powered-by");
app.get("/", (_req, res) => {
  res.json({ hello: "world" });
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Express hello-world baseline on ${JSON.stringify(server.address())}`);
});
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
