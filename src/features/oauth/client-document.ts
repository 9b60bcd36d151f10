import https from "node:https";
import type { LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import type { Deps } from "../../deps.ts";
import { PACKAGE_VERSION } from "../../http/server.ts";
import { type AddressPolicy, checkUrl, resolveTarget, type UrlCheck } from "../webhooks/index.ts";

/**
 * OAuth Client ID Metadata Documents: a client_id that is an https URL is the address of the client's metadata.
 * Anyone can make the service fetch such a URL, so it is treated like a webhook target (SSRF): the URL and every
 * address its host resolves to are checked, the connection goes to the checked address, no redirect is followed,
 * and the answer is bounded in time and size.
 */

export const DOCUMENT_TIMEOUT_MS = 5_000;
export const MAX_DOCUMENT_BYTES = 64 * 1024;
const MAX_ID_LENGTH = 2000;

/** An https URL with a path (the specification's rule for URL client ids), no fragment, no credentials. */
export function isMetadataDocumentId(clientId: string): boolean {
  if (clientId.length > MAX_ID_LENGTH || clientId.includes("#")) return false;
  try {
    const u = new URL(clientId);
    return u.protocol === "https:" && u.pathname !== "/" && u.pathname !== "" && !u.username && !u.password;
  } catch {
    return false;
  }
}

export type DocumentFetch = { ok: true; document: Record<string, unknown> } | { ok: false; error: string };

const POLICY: AddressPolicy = { allowPrivate: false, allowPlainHttp: false };

/** The URL as the webhook policy judges it; tests may reach their own document server on a loopback address. */
function checkDocumentUrl(deps: Pick<Deps, "outbound">, url: string): UrlCheck {
  const checked = checkUrl(url, POLICY);
  if (!checked.ok && checked.refusal === "loopback" && deps.outbound.allowLoopbackClientDocuments)
    return checkUrl(url, { ...POLICY, allowPrivate: true });
  return checked;
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export async function fetchClientDocument(deps: Pick<Deps, "outbound">, url: string): Promise<DocumentFetch> {
  const started = Date.now();
  const checked = checkDocumentUrl(deps, url);
  if (!checked.ok)
    return { ok: false, error: `refused: ${checked.error.replace("webhooks go", "documents are fetched")}` };
  const resolved = await resolveTarget(checked.target, deps.outbound, POLICY, DOCUMENT_TIMEOUT_MS);
  if (!resolved.ok) return { ok: false, error: resolved.error.replace("webhooks go", "documents are fetched") };
  const target = resolved.addresses[0]!;
  const remaining = Math.max(1, DOCUMENT_TIMEOUT_MS - (Date.now() - started));
  const extraCa = deps.outbound.extraCa;

  const body = await new Promise<{ ok: true; text: string } | { ok: false; error: string }>((resolve) => {
    let settled = false;
    const settle = (v: { ok: true; text: string } | { ok: false; error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(v);
    };
    const request = https.request(checked.url, {
      method: "GET",
      agent: false,
      lookup: pinnedLookup(target.address, target.family),
      headers: { accept: "application/json", "user-agent": `Upbeat/${PACKAGE_VERSION}` },
      ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}),
    });
    const timer = setTimeout(
      () => settle({ ok: false, error: `no answer within ${DOCUMENT_TIMEOUT_MS / 1000} s` }),
      remaining,
    );
    request.on("response", (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        settle({
          ok: false,
          error: status >= 300 && status < 400 ? `redirect (${status}) not followed` : `answered ${status}`,
        });
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_DOCUMENT_BYTES) settle({ ok: false, error: "the document is larger than 64 kB" });
        else chunks.push(chunk);
      });
      res.on("end", () => settle({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", () => settle({ ok: false, error: "the answer broke off" }));
    });
    request.on("error", (err) => {
      const code = (err as { code?: string }).code ?? "";
      settle({ ok: false, error: code ? `request failed (${code})` : "request failed" });
    });
    request.end();
  });
  if (!body.ok) return body;
  let document: unknown;
  try {
    document = JSON.parse(body.text);
  } catch {
    return { ok: false, error: "the document is not JSON" };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return { ok: false, error: "the document is not a JSON object" };
  return { ok: true, document: document as Record<string, unknown> };
}
