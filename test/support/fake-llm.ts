import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake answers next: a completion, a delay beyond the client's timeout, an error status or broken JSON. */
export type FakeLlmMode =
  | { kind: "ok"; text?: string; tokens?: number | null; delayMs?: number }
  | { kind: "slow"; ms: number }
  | { kind: "status"; status: number }
  | { kind: "malformed" };

export interface FakeLlm {
  /** Base URL to give as LLM_API_URL (…/v1). */
  url: string;
  /** Every request body received, parsed, in order. */
  requests: { model: string; messages: { role: string; content: string }[]; [k: string]: unknown }[];
  /** Authorization headers received, in order. */
  authorizations: (string | undefined)[];
  mode: FakeLlmMode;
  close(): Promise<void>;
}

/** An OpenAI-compatible chat completions server on 127.0.0.1 that records what it is sent. */
export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: Omit<FakeLlm, "url" | "close"> = { requests: [], authorizations: [], mode: { kind: "ok" } };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404).end();
        return;
      }
      fake.requests.push(JSON.parse(raw));
      fake.authorizations.push(req.headers.authorization);
      const mode = fake.mode;
      if (mode.kind === "slow") {
        const timer = setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), mode.ms);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      if (mode.kind === "status") {
        res.writeHead(mode.status, { "content-type": "application/json" }).end('{"error":{"message":"boom"}}');
        return;
      }
      if (mode.kind === "malformed") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"choices": [ {"message": ');
        return;
      }
      const body = {
        id: "chatcmpl-fake",
        object: "chat.completion",
        choices: [
          { index: 0, message: { role: "assistant", content: mode.text ?? "The team shipped <things> & more." } },
        ],
        ...(mode.tokens === null ? {} : { usage: { total_tokens: mode.tokens ?? 321 } }),
      };
      const send = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (mode.delayMs) setTimeout(send, mode.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake as FakeLlm, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export function llmEnv(fake: FakeLlm, extra: Record<string, string> = {}): Record<string, string> {
  return { LLM_API_URL: fake.url, LLM_MODEL: "fake-model-1", LLM_API_KEY: "sk-test-fake", ...extra };
}
