import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { authorizeUrl, nextAddress, pkce } from "../../../test/support/mcp-oauth.ts";
import { startDocumentServer } from "../../../test/support/tls-document-server.ts";
import { rows } from "../../db/client.ts";
import { systemOutbound } from "../../lib/outbound.ts";

const REDIRECT = "http://127.0.0.1:8765/callback";

/** Client ID Metadata Documents: fetched under the webhooks' address policy, checked, cached a day. */
describe("Client ID Metadata Documents", async () => {
  const docs = await startDocumentServer();
  afterAll(() => docs.close());
  const t = await useTestApp({
    outbound: {
      allowLoopbackClientDocuments: true,
      extraCa: docs.ca,
      // A public-looking name that resolves inside: the resolved address is what is judged.
      resolve: async (name) =>
        name === "docs.internal-corp.example.com" ? [{ address: "10.1.2.3", family: 4 }] : systemOutbound.resolve(name),
    },
  });
  const { challenge } = pkce();
  const authorize = (clientId: string) =>
    t.inject({
      method: "GET",
      remoteAddress: nextAddress(),
      url: authorizeUrl({
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    });
  const serve = (path: string, doc: Record<string, unknown> | string, status = 200, headers = {}) => {
    docs.routes.set(path, { status, body: typeof doc === "string" ? doc : JSON.stringify(doc), headers });
    return `${docs.base}${path}`;
  };
  const valid = (url: string) => ({ client_id: url, client_name: "Doc", redirect_uris: [REDIRECT] });

  it("uses a valid document and caches it for a day; a failed re-fetch falls back to the cache", async () => {
    const url = `${docs.base}/ok.json`;
    serve("/ok.json", valid(url));
    expect((await authorize(url)).statusCode).toBe(302);
    expect((await authorize(url)).statusCode).toBe(302);
    expect(docs.hits.filter((h) => h === "/ok.json")).toHaveLength(1);
    // A day later it is fetched again; the site being down then does not lock the client out.
    t.clock.advance(25 * 3600_000);
    serve("/ok.json", "down", 503);
    expect((await authorize(url)).statusCode).toBe(302);
    expect(docs.hits.filter((h) => h === "/ok.json")).toHaveLength(2);
    // A renamed client is picked up at the next fetch.
    t.clock.advance(25 * 3600_000);
    serve("/ok.json", { ...valid(url), client_name: "Renamed" });
    expect((await authorize(url)).statusCode).toBe(302);
    const [row] = await rows<{ client_name: string }>(
      t.deps.db,
      sql`select client_name from oauth_clients where client_id = ${url}`,
    );
    expect(row?.client_name).toBe("Renamed");
  });

  it("refuses documents that do not name their own URL, bad redirect URIs, secrets, oversized or redirected ones", async () => {
    const cases: [string, RegExp][] = [
      [serve("/mismatch.json", valid("https://other.example.com/client.json")), /another client_id/],
      [
        serve("/bad-redirect.json", { ...valid(`${docs.base}/bad-redirect.json`), redirect_uris: ["javascript:x"] }),
        /not valid/,
      ],
      [
        serve("/handler.json", { ...valid(`${docs.base}/handler.json`), redirect_uris: ["ms-settings:privacy"] }),
        /ms-settings: redirect URIs are not allowed/,
      ],
      [
        serve("/secret.json", {
          ...valid(`${docs.base}/secret.json`),
          token_endpoint_auth_method: "client_secret_basic",
        }),
        /token_endpoint_auth_method/,
      ],
      [serve("/big.json", { ...valid(`${docs.base}/big.json`), padding: "x".repeat(70 * 1024) }), /larger than 64 kB/],
      [serve("/moved.json", "", 302, { location: `${docs.base}/ok.json` }), /redirect \(302\) not followed/],
      [serve("/not-json.json", "<html>"), /not JSON/],
      [`${docs.base}/missing.json`, /answered 404/],
    ];
    for (const [url, words] of cases) {
      const res = await authorize(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body, url).toMatch(words);
    }
    const stored = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from oauth_clients where client_id like ${`${docs.base}/%`} and client_id <> ${`${docs.base}/ok.json`}`,
    );
    expect(stored[0]!.n).toBe(0);
  });

  it("never fetches from private, link-local or reserved addresses, nor plain http", async () => {
    const before = docs.hits.length;
    for (const url of [
      "https://10.0.0.5/client.json",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00::1]/client.json",
      "https://192.168.1.1:8443/client.json",
      "https://docs.internal-corp.example.com/client.json",
      "https://localhost/client.json",
      "http://example.com/client.json",
      "https://example.com/",
    ]) {
      const res = await authorize(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toMatch(/refused|non-public|neither|internal name|single|must be a public/);
    }
    expect(docs.hits.length).toBe(before);
  });
});
