/** Methods for the app surface and install flow: views, OAuth, api.test. */
import { viewViolations } from "./block-kit-limits.ts";
import { ApiError, type Ctx, type MethodSpec, type Result, requireStr, str } from "./context.ts";
import { parseScopes } from "./store.ts";
import type { FakeView } from "./types.ts";

function viewArg(ctx: Ctx, types: string[]): Record<string, unknown> {
  const view = ctx.args.view;
  if (!view || typeof view !== "object" || Array.isArray(view)) throw new ApiError("invalid_arguments");
  const v = view as Result;
  if (typeof v.type !== "string" || !types.includes(v.type)) throw new ApiError("invalid_arguments");
  if (v.blocks !== undefined && !Array.isArray(v.blocks)) throw new ApiError("invalid_arguments");
  // Slack refuses a view past any Block Kit limit with invalid_arguments, naming each problem.
  const violations = viewViolations(v);
  if (violations.length > 0) {
    throw new ApiError("invalid_arguments", { response_metadata: { messages: violations.map((m) => `[ERROR] ${m}`) } });
  }
  return v;
}

function newHash(ctx: Ctx): string {
  return `${ctx.store.nowSeconds()}.${ctx.store.nextId("").slice(2)}`;
}

function viewJson(ctx: Ctx, view: FakeView): Result {
  const v = view.view;
  return {
    ok: true,
    view: {
      id: view.id,
      team_id: view.teamId,
      type: view.type,
      blocks: v.blocks ?? [],
      private_metadata: v.private_metadata ?? "",
      callback_id: v.callback_id ?? "",
      state: { values: {} },
      hash: view.hash,
      title: v.title,
      close: v.close ?? null,
      submit: v.submit ?? null,
      clear_on_close: v.clear_on_close ?? false,
      notify_on_close: v.notify_on_close ?? false,
      root_view_id: view.root_view_id,
      previous_view_id: view.previous_view_id,
      app_id: ctx.store.appId,
      external_id: view.external_id,
      app_installed_team_id: view.teamId,
      bot_id: ctx.team.botId,
    },
  };
}

function openModal(ctx: Ctx, via: "views.open" | "views.push"): Result {
  if (!str(ctx.args, "trigger_id") && !str(ctx.args, "interactivity_pointer")) throw new ApiError("invalid_arguments");
  const v = viewArg(ctx, ["modal"]);
  const externalId = typeof v.external_id === "string" ? v.external_id : "";
  if (externalId && ctx.store.viewsByExternalId.has(`${ctx.team.id}:${externalId}`)) {
    throw new ApiError("duplicate_external_id");
  }
  const id = ctx.store.nextId("V");
  const view: FakeView = {
    id,
    teamId: ctx.team.id,
    type: "modal",
    view: v,
    hash: newHash(ctx),
    external_id: externalId,
    root_view_id: id,
    previous_view_id: null,
    via,
  };
  ctx.store.storeView(view);
  return viewJson(ctx, view);
}

export const appMethods: Record<string, MethodSpec> = {
  "views.open": { run: (ctx) => openModal(ctx, "views.open") },
  "views.push": { run: (ctx) => openModal(ctx, "views.push") },

  "views.update": {
    run: (ctx) => {
      const viewId = str(ctx.args, "view_id");
      const externalId = str(ctx.args, "external_id");
      if (!viewId && !externalId) throw new ApiError("invalid_arguments");
      const found = viewId
        ? ctx.store.views.get(viewId)
        : ctx.store.viewsByExternalId.get(`${ctx.team.id}:${externalId}`);
      if (!found || found.teamId !== ctx.team.id) throw new ApiError("not_found");
      const v = viewArg(ctx, [found.type]);
      const hash = str(ctx.args, "hash");
      if (hash && hash !== found.hash) throw new ApiError("hash_conflict");
      found.view = v;
      found.hash = newHash(ctx);
      return viewJson(ctx, found);
    },
  },

  "views.publish": {
    run: (ctx) => {
      const userId = requireStr(ctx.args, "user_id", "invalid_arguments");
      if (!ctx.store.user(ctx.team, userId)) throw new ApiError("user_not_found");
      const v = viewArg(ctx, ["home"]);
      const existing = ctx.team.homeViews.get(userId);
      const hash = str(ctx.args, "hash");
      if (hash && existing && hash !== existing.hash) throw new ApiError("hash_conflict");
      const id = existing?.id ?? ctx.store.nextId("V");
      const view: FakeView = {
        id,
        teamId: ctx.team.id,
        type: "home",
        view: v,
        hash: newHash(ctx),
        external_id: typeof v.external_id === "string" ? v.external_id : "",
        root_view_id: id,
        previous_view_id: null,
        user_id: userId,
        via: "views.publish",
      };
      ctx.team.homeViews.set(userId, view);
      ctx.store.storeView(view);
      return viewJson(ctx, view);
    },
  },

  "oauth.v2.access": {
    tokenless: true,
    run: (ctx) => {
      const { args, request, store } = ctx;
      const clientId = str(args, "client_id") ?? request.basic?.clientId;
      const clientSecret = str(args, "client_secret") ?? request.basic?.clientSecret;
      if (!clientId) throw new ApiError("invalid_client_id");
      if (!clientSecret) throw new ApiError("bad_client_secret");
      const grantType = str(args, "grant_type");
      if (grantType && grantType !== "authorization_code") throw new ApiError("invalid_grant_type");
      const code = str(args, "code") ?? "";
      const grant = store.codes.get(code);
      if (!grant) throw new ApiError("invalid_code");
      if (grant.clientId !== undefined && grant.clientId !== clientId) throw new ApiError("invalid_client_id");
      if (grant.clientSecret !== undefined && grant.clientSecret !== clientSecret) {
        throw new ApiError("bad_client_secret");
      }
      if (grant.redirectUri !== undefined && grant.redirectUri !== str(args, "redirect_uri")) {
        throw new ApiError("bad_redirect_uri");
      }
      store.codes.delete(code);
      const team = store.addTeam({
        id: grant.team.id,
        name: grant.team.name,
        domain: grant.team.domain,
        botToken: grant.botToken,
        botUserId: grant.botUserId,
        scopes: grant.scope,
      });
      const authedUser: Result = { id: grant.authedUserId };
      if (grant.userToken) {
        store.addToken({
          token: grant.userToken,
          teamId: team.id,
          kind: "user",
          userId: grant.authedUserId,
          scopes: parseScopes(grant.userScope ?? ""),
          revoked: false,
        });
        Object.assign(authedUser, { scope: grant.userScope ?? "", access_token: grant.userToken, token_type: "user" });
      }
      ctx.teamIdOut = team.id;
      return {
        ok: true,
        app_id: grant.appId ?? store.appId,
        authed_user: authedUser,
        scope: grant.scope,
        token_type: "bot",
        access_token: grant.botToken,
        bot_user_id: grant.botUserId,
        team: { id: team.id, name: team.name },
        enterprise: null,
        is_enterprise_install: false,
      };
    },
  },

  "api.test": {
    tokenless: true,
    run: ({ args }) => {
      const error = str(args, "error");
      return error ? { ok: false, error, args } : { ok: true, args };
    },
  },
};
