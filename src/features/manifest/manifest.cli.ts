/**
 * `npm run manifest`: prints the Slack app manifest for APP_URL, as `GET /chat/manifest` answers it. Reads only
 * APP_URL (and PORT for the default), so it works before any Slack secret exists.
 */
import { ConfigError, readAppUrl } from "../../config.ts";
import { buildManifest } from "./manifest.ts";

const problems: string[] = [];
const appUrl = readAppUrl(process.env, problems);
if (problems.length > 0) {
  process.stderr.write(`${new ConfigError(problems).message}\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(buildManifest(appUrl), null, 2)}\n`);
