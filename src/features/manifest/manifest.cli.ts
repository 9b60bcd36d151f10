/**
 * `npm run manifest [-- --socket-mode]`: prints the Slack app manifest for APP_URL, as `GET /chat/manifest` (or
 * `?mode=socket`) answers it. Reads only APP_URL (and PORT for the default), so it works before any Slack secret
 * exists.
 */
import { ConfigError, readAppUrl } from "../../config.ts";
import { buildManifest } from "./manifest.ts";
import { suggestedTransport } from "./transport.ts";

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--socket-mode");
if (unknown.length > 0) {
  process.stderr.write(`Unknown argument ${unknown.join(" ")}\nUsage: npm run manifest [-- --socket-mode]\n`);
  process.exit(1);
}
const problems: string[] = [];
const appUrl = readAppUrl(process.env, problems);
if (problems.length > 0) {
  process.stderr.write(`${new ConfigError(problems).message}\n`);
  process.exit(1);
}
const transport = args.includes("--socket-mode") ? "socket" : "http";
// The HTTP manifest names request URLs under APP_URL: useless when Slack cannot reach it (stdout stays the manifest).
if (
  transport === "http" &&
  suggestedTransport({ appUrl, chatAppToken: process.env.CHAT_APP_TOKEN?.trim() || undefined }) === "socket"
) {
  process.stderr.write(
    `Note: Slack cannot reach ${appUrl} (not a public https address) or CHAT_APP_TOKEN is set: you probably want npm run manifest -- --socket-mode\n`,
  );
}
process.stdout.write(`${JSON.stringify(buildManifest(appUrl, transport), null, 2)}\n`);
