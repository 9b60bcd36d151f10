import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { errorBody, mutationErrors, sessionErrors } from "../../contract/index.ts";
import type { Tx } from "../../db/client.ts";
import { members } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { requireSession, type SessionUser } from "../../http/auth.ts";
import { AppError, badRequest, conflict, notFound } from "../../http/errors.ts";
import { addressKey, enforceRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { FORMER_MEMBER, nameOfRow } from "../../lib/person-names.ts";
import { AFTER_LOGIN_COOKIE, AFTER_LOGIN_TTL_SECONDS, afterLoginCookieOptions } from "../session/index.ts";
import {
  CODE_PREFIX,
  CODE_TTL_MS,
  issuerOf,
  newSecret,
  OAUTH_PER_MINUTE,
  redirectWith,
  SCOPE_DESCRIPTIONS,
  SCOPES,
} from "./oauth.model.ts";
import { decideRequest, findRequest, insertGrant, insertToken, type RequestRow, touchClient } from "./oauth.repo.ts";
import { consentRequest, redirectTo } from "./oauth.schemas.ts";
import { redirectHost } from "./redirect-uris.ts";

const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;
const params = z.object({ id: z.string().describe("The request id from /dashboard/connect?request=<id>") });
const gone = () => notFound("This connection request is unknown or has expired; start again from the app");
const decided = () => conflict("This connection request was already answered");

/** The open request behind an id: 404 when unknown or expired, 409 when already approved or denied. */
async function openRequest(deps: Deps, id: string) {
  if (!ID_SHAPE.test(id)) throw gone();
  const found = await findRequest(deps.db, sha256Hex(id));
  if (!found || found.request.expiresAt <= deps.clock.now()) throw gone();
  if (found.request.decidedAt) throw decided();
  return found;
}

/** Claims the request for its one decision (two tabs, two clicks: only the first counts). */
async function decide(deps: Deps, tx: Tx, id: string) {
  const row = await decideRequest(tx, sha256Hex(id), deps.clock.now());
  if (row) return row;
  await openRequest(deps, id);
  throw decided();
}

const approveBody = z
  .object({
    scopes: z
      .array(z.enum(SCOPES))
      .min(1)
      .max(SCOPES.length)
      .optional()
      .describe(
        "What the person allows: a subset of the request's scopes with standups:read; all of them when left out",
      ),
  })
  .nullable();

/**
 * The person may allow less than the client asked for (read only instead of read and write), never more: checked
 * before the request is claimed, so a refused choice leaves it open for another try.
 */
function chosenScopes(asked: RequestRow["scopes"], chosen: string[] | undefined): RequestRow["scopes"] {
  if (!chosen) return asked;
  if (!chosen.includes("standups:read")) throw badRequest("scopes must include standups:read");
  const extra = chosen.filter((scope) => !(asked as string[]).includes(scope));
  if (extra.length) throw badRequest(`The client did not ask for ${extra.join(", ")}`);
  return asked.filter((scope) => chosen.includes(scope));
}

async function approve(
  deps: Deps,
  s: SessionUser,
  id: string,
  body: z.infer<typeof approveBody>,
): Promise<{ redirect_to: string }> {
  const open = await openRequest(deps, id);
  const scopes = chosenScopes(open.request.scopes, body?.scopes);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const req: RequestRow = await decide(deps, tx, id);
    // The workspace of the session decides the grant's: the person consents for the workspace they are signed in to.
    const grant = await insertGrant(tx, {
      teamId: s.teamId,
      userId: s.userId,
      clientId: req.clientId,
      scopes,
      resource: req.resource,
      createdAt: now,
    });
    const code = newSecret(CODE_PREFIX);
    await insertToken(tx, {
      tokenHash: sha256Hex(code),
      kind: "code",
      grantId: grant.id,
      teamId: s.teamId,
      codeChallenge: req.codeChallenge,
      redirectUri: req.redirectUri,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
    await touchClient(tx, req.clientId, now);
    deps.log.info({ team_id: s.teamId, grant_id: grant.id }, "oauth grant approved");
    return {
      redirect_to: redirectWith(req.redirectUri, { code, state: req.state, iss: issuerOf(deps.config.appUrl) }),
    };
  });
}

async function deny(deps: Deps, id: string): Promise<{ redirect_to: string }> {
  await openRequest(deps, id);
  const req = await deps.db.transaction((tx) => decide(deps, tx, id));
  return {
    redirect_to: redirectWith(req.redirectUri, {
      error: "access_denied",
      error_description: "The person declined to connect the app",
      state: req.state,
      iss: issuerOf(deps.config.appUrl),
    }),
  };
}

async function describeRequest(deps: Deps, s: SessionUser, id: string) {
  const { request, client } = await openRequest(deps, id);
  const [me] = await deps.db
    .select({ realName: members.realName, displayName: members.displayName })
    .from(members)
    .where(and(eq(members.teamId, s.teamId), eq(members.userId, s.userId)))
    .limit(1);
  return {
    request_id: id,
    client: {
      client_id: client.clientId,
      name: client.clientName,
      uri: client.clientUri,
      kind: client.kind,
      redirect_host: redirectHost(request.redirectUri),
    },
    scopes: request.scopes.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
    expires_at: request.expiresAt.toISOString(),
    workspace: { team_id: s.teamId, name: s.teamName },
    user: { user_id: s.userId, name: me ? nameOfRow(me) : FORMER_MEMBER },
  };
}

const requestErrors = {
  ...sessionErrors,
  404: errorBody.describe("Unknown or expired request"),
  409: errorBody.describe("Already approved or denied"),
};

/** The consent page's API (the page itself is the dashboard's): any signed-in member connects for themselves. */
export function consentRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/oauth/requests/:id",
    {
      schema: {
        summary: "An MCP client's authorization request waiting for consent",
        params,
        response: { 200: consentRequest, ...requestErrors },
      },
    },
    async (req) => describeRequest(deps, requireSession(req), req.params.id),
  );
  for (const action of ["approve", "deny"] as const) {
    app.post(
      `/dashboard/api/oauth/requests/:id/${action}`,
      {
        schema: {
          summary:
            action === "approve"
              ? "Approve: grants the client access as this member; answers where the browser goes (with the code)"
              : "Deny: answers where the browser goes (with error=access_denied)",
          params,
          body: action === "approve" ? approveBody : z.object({}).nullable(),
          response: { 200: redirectTo, ...requestErrors, ...mutationErrors },
        },
      },
      async (req, reply) => {
        const s = requireSession(req);
        const out =
          action === "approve"
            ? await approve(deps, s, req.params.id, req.body as z.infer<typeof approveBody>)
            : await deny(deps, req.params.id);
        return reply.header("cache-control", "no-store").send(out);
      },
    );
  }

  // The consent page, signed out, offers to come back after sign-in. Only the person's own click on that page sets
  // the after-login cookie: were it set by /oauth/authorize, any site could plant it in a signed-out browser and
  // the next ordinary sign-in would land on an attacker's consent page. The dashboard's guard refuses cross-site
  // POSTs (Origin); a JSON content type is required too, which no cross-site form or simple request can send.
  app.post(
    "/dashboard/api/oauth/requests/:id/resume",
    {
      config: { public: true },
      schema: {
        summary: "Signed out on the consent page: come back to it after signing in from Slack (sets a cookie)",
        params,
        body: z.object({}).nullable(),
        response: {
          204: z.undefined().describe("The next sign-in in this browser lands on the consent page"),
          404: errorBody.describe("Unknown or expired request"),
          409: errorBody.describe("Already approved or denied"),
          ...mutationErrors,
          429: errorBody.describe(`More than ${OAUTH_PER_MINUTE} requests a minute from this address`),
        },
      },
    },
    async (req, reply) => {
      if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json"))
        throw new AppError(415, "unsupported_media_type", "Request body must be application/json");
      await enforceRateLimit(deps, reply, `oauth-resume:${addressKey(req.ip)}`, OAUTH_PER_MINUTE);
      await openRequest(deps, req.params.id);
      reply.setCookie(AFTER_LOGIN_COOKIE, `/dashboard/connect?request=${req.params.id}`, {
        ...afterLoginCookieOptions,
        maxAge: AFTER_LOGIN_TTL_SECONDS,
      });
      return reply.header("cache-control", "no-store").status(204).send();
    },
  );
}
