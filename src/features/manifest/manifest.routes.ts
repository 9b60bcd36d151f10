import { appManifest, manifestQuery, mutationErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import type { App } from "../../http/server.ts";
import { buildManifest } from "./manifest.ts";

export function manifestRoutes(app: App, deps: Deps): void {
  app.get(
    "/chat/manifest",
    {
      schema: {
        summary: "The Slack app manifest for this instance (Create New App → From an app manifest)",
        description:
          "HTTP mode by default (request URLs under APP_URL); `?mode=socket` answers the Socket Mode manifest, the one " +
          "the setup page at `/` offers an instance that Slack cannot reach.",
        querystring: manifestQuery,
        response: { 200: appManifest, 400: mutationErrors[400] },
      },
    },
    async (req) => buildManifest(deps.config.appUrl, req.query.mode ?? "http"),
  );
}
