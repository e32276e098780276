// Baseline 1: the cheapest JSON answer Node can give (node:http, no framework).
import http from "node:http";

const body = JSON.stringify({ hello: "world" });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
// The same keep-alive as the site's servers.
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`node:http baseline on ${JSON.stringify(server.address())}`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
