import { z } from "zod";
import {
  adminErrors,
  createdWebhookEndpoint,
  errorBody,
  mutationErrors,
  okBody,
  webhookDelivery,
  webhookEndpoint,
  webhookUrlRefused,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { createEndpointInput } from "./webhooks.input.ts";
import {
  createEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  sendTest,
  UrlRefusedError,
} from "./webhooks.service.ts";

const byId = z.object({ id: z.string().describe("Webhook endpoint id (an integer)") });
const notFound = { 404: errorBody.describe("No such webhook endpoint in this workspace") };

export function webhookRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/webhooks",
    {
      config: { admin: true },
      schema: {
        summary: "Webhook endpoints (never their secrets), newest first",
        response: { 200: z.array(webhookEndpoint), ...adminErrors },
      },
    },
    async (req) => listEndpoints(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/webhooks",
    {
      config: { admin: true },
      schema: {
        summary: "Add a webhook endpoint; its signing secret is in this answer only",
        body: createEndpointInput,
        response: {
          201: createdWebhookEndpoint,
          ...adminErrors,
          ...mutationErrors,
          400: webhookUrlRefused.describe(
            "Invalid input: not https://, credentials in the URL, a private or internal host, …; `refusal` says which",
          ),
          409: errorBody.describe("The workspace has 20 endpoints already"),
        },
      },
    },
    async (req, reply) => {
      const s = requireSession(req);
      let created: Awaited<ReturnType<typeof createEndpoint>>;
      try {
        created = await createEndpoint(deps, s.teamId, s.userId, req.body);
      } catch (err) {
        // The message stays the spec's `error`; the code beside it lets the dashboard explain the way forward.
        if (err instanceof UrlRefusedError) return reply.status(400).send({ error: err.message, refusal: err.refusal });
        throw err;
      }
      // The secret is in this body and nowhere else: no cache may keep it.
      return reply.status(201).header("cache-control", "no-store").send(created);
    },
  );

  app.delete(
    "/dashboard/api/webhooks/:id",
    {
      config: { admin: true },
      schema: {
        summary: "Delete a webhook endpoint and its deliveries",
        params: byId,
        response: { 200: okBody, ...adminErrors, ...notFound },
      },
    },
    async (req) => removeEndpoint(deps, requireSession(req).teamId, req.params.id),
  );

  app.post(
    "/dashboard/api/webhooks/:id/test",
    {
      config: { admin: true },
      schema: {
        summary: "Send a webhook.test delivery; it is sent in the background, like any other",
        params: byId,
        response: {
          202: webhookDelivery.describe("The delivery, pending: the deliveries log shows how it went"),
          ...adminErrors,
          ...mutationErrors,
          ...notFound,
          409: errorBody.describe("The endpoint is disabled"),
        },
      },
    },
    async (req, reply) => {
      const s = requireSession(req);
      return reply.status(202).send(await sendTest(deps, s.teamId, s.userId, req.params.id));
    },
  );

  app.get(
    "/dashboard/api/webhooks/:id/deliveries",
    {
      config: { admin: true },
      schema: {
        summary: "The endpoint's last 100 deliveries, newest first",
        params: byId,
        response: { 200: z.array(webhookDelivery), ...adminErrors, ...notFound },
      },
    },
    async (req) => listDeliveries(deps, requireSession(req).teamId, req.params.id),
  );
}
