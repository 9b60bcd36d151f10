import { appManifest } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import type { App } from "../../http/server.ts";
import { buildManifest } from "./manifest.ts";

export function manifestRoutes(app: App, deps: Deps): void {
  app.get(
    "/chat/manifest",
    {
      schema: {
        summary: "The Slack app manifest for this instance (Create New App → From an app manifest)",
        response: { 200: appManifest },
      },
    },
    async () => buildManifest(deps.config.appUrl),
  );
}
