import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * An https server on 127.0.0.1 with a self-signed certificate (made with openssl), serving what a test puts in
 * `routes`: OAuth Client ID Metadata Documents must be https URLs, so the test's documents need TLS.
 */
export interface DocumentServer {
  base: string;
  /** The certificate (PEM), to trust as deps.outbound.extraCa. */
  ca: string;
  routes: Map<string, { status?: number; body: string; headers?: Record<string, string> }>;
  hits: string[];
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const dir = mkdtempSync(join(tmpdir(), "upbeat-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const key = readFileSync(join(dir, "key.pem"), "utf8");
  const cert = readFileSync(join(dir, "cert.pem"), "utf8");
  rmSync(dir, { recursive: true, force: true });
  const routes: DocumentServer["routes"] = new Map();
  const hits: string[] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    hits.push(req.url ?? "");
    const route = routes.get(req.url ?? "");
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status ?? 200, { "content-type": "application/json", ...route.headers });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    base: `https://127.0.0.1:${port}`,
    ca: cert,
    routes,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nobody listens on right now (for a test app whose APP_URL must name its own port). */
export async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
