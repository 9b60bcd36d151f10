import type { App, Logger } from "@slack/bolt";
import { type ChatPostMessageArguments, WebClient, type WebClientOptions } from "@slack/web-api";
import type { Deps } from "../deps.ts";
import { NotInstalledError } from "./intake/failures.ts";
import type { Ack, Dispatch } from "./intake/intake.ts";
import { type ChatRouter, type Listener, runListeners } from "./router.ts";

type Body = Record<string, unknown>;
type SlackEvent = Record<string, unknown> & { type: string };

/** Events Bolt hands to listeners without authorizing: the workspace's token is gone or going. */
const SKIP_AUTHORIZE = new Set(["app_uninstalled", "tokens_revoked"]);
/** Bolt's ignoreSelf keeps these even when the user is the app's own bot. */
const KEPT_FROM_SELF = new Set(["member_joined_channel", "member_left_channel"]);

function eventOf(body: Body): SlackEvent | undefined {
  const event = body.event as { type?: unknown } | undefined;
  if (typeof event !== "object" || event === null || typeof event.type !== "string") return undefined;
  // Function executions carry their own token and an ack the listener controls: Bolt's business.
  return event.type === "function_executed" ? undefined : (event as SlackEvent);
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const obj = (v: unknown) => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined);

/** The workspace, enterprise and user of an event as Bolt's buildSource finds them. */
function sourceOf(body: Body, event: SlackEvent) {
  const auth = Array.isArray(body.authorizations) ? obj(body.authorizations[0]) : undefined;
  const teamId = (auth && auth.team_id !== null ? str(auth.team_id) : undefined) ?? str(body.team_id);
  const enterpriseId = auth ? (str(auth.enterprise_id) ?? undefined) : str(body.enterprise_id);
  const userId =
    str(event.user) ??
    str(obj(event.user)?.id) ??
    str(obj(event.channel)?.creator) ??
    str(obj(event.subteam)?.created_by);
  const isEnterpriseInstall = auth ? Boolean(auth.is_enterprise_install) : body.is_enterprise_install === true;
  return { teamId, enterpriseId, userId, isEnterpriseInstall };
}

/** The conversation of an event as Bolt's getTypeAndConversation finds it (for `say`). */
function conversationOf(event: SlackEvent): string | undefined {
  let found = str(event.channel) ?? str(obj(event.channel)?.id);
  if ("channel_id" in event) found = str(event.channel_id);
  const item = obj(event.item);
  if (item && "channel" in item) found = str(item.channel);
  return found || undefined;
}

/**
 * Events API deliveries straight to our listeners, without Bolt's processEvent: the same arguments our listeners get
 * from Bolt (event, payload, message, body, context with teamId, botToken, botUserId, retryNum…, a Web API client
 * for the workspace's token, say, logger), after the same global middleware (Bolt's ignoreSelf, then every `use`
 * middleware in order). Bolt's per-event cost (building its arguments, copying them for every middleware chain,
 * coded errors) was a large share of an acknowledged event's CPU (bench/README.md, "ack"). Authorization is Bolt's
 * `authorize` (ChatClients.authorize, held briefly); a workspace not installed rejects with NotInstalledError, as
 * Bolt's did (the intake marks it done). A listener's failure rejects with its own error (Bolt wrapped it in a coded
 * error; the intake stores the innermost either way). Everything else (actions, views, commands, shortcuts, options,
 * function executions) still goes through Bolt.
 */
export function directEvents(
  deps: Pick<Deps, "chat">,
  router: ChatRouter,
  bolt: App,
  clientOptions: WebClientOptions,
  logger: Logger,
): Dispatch {
  const clients = new Map<string, { token: string; client: WebClient }>();
  let tokenless: WebClient | undefined;
  const clientFor = (teamId: string | undefined, token: string | undefined): WebClient => {
    if (token === undefined || teamId === undefined) {
      tokenless ??= new WebClient(undefined, clientOptions);
      return tokenless;
    }
    const held = clients.get(teamId);
    if (held?.token === token) return held.client;
    // Like Bolt's pool: the workspace's id goes with every call; a new token (a reinstall) gets a new client.
    const client = new WebClient(token, { ...clientOptions, teamId });
    clients.set(teamId, { token, client });
    return client;
  };

  return async (body: Body, ack: Ack, retry?: { retryNum: number; retryReason: string }) => {
    const event = eventOf(body);
    if (!event) {
      await bolt.processEvent({ body, ack, ...retry });
      return;
    }
    const source = sourceOf(body, event);
    let auth: Record<string, unknown> = { teamId: source.teamId, enterpriseId: source.enterpriseId };
    if (!SKIP_AUTHORIZE.has(event.type)) {
      if (!source.teamId) throw new Error("event without a team");
      const found = await deps.chat.authorize(source.teamId);
      if (!found) throw new NotInstalledError(source.teamId);
      auth = { ...found, teamId: source.teamId };
    }
    const context: Record<string, unknown> = {
      ...auth,
      userId: auth.userId ?? source.userId,
      teamId: auth.teamId ?? source.teamId,
      isEnterpriseInstall: source.isEnterpriseInstall,
      retryNum: retry?.retryNum,
      retryReason: retry?.retryReason,
    };
    const enterpriseId = auth.enterpriseId ?? source.enterpriseId;
    if (enterpriseId !== undefined) context.enterpriseId = enterpriseId;
    else delete context.enterpriseId;
    // Events API deliveries are acknowledged before any listener runs (the intake already answered Slack).
    await ack();
    const client = clientFor(str(context.teamId), str(context.botToken));
    const args: Record<string, unknown> = { body, payload: event, event, context, client, logger };
    if (event.type === "message") args.message = event;
    const channel = conversationOf(event);
    if (channel !== undefined) {
      // Bolt's say: a text, or a message's arguments, posted in the event's conversation.
      args.say = (message: string | Record<string, unknown>) =>
        client.chat.postMessage(
          (typeof message === "string"
            ? { channel, text: message }
            : { channel, ...message }) as ChatPostMessageArguments,
        );
    }
    if (ignoredAsSelf(event, context)) return;
    const listeners = router.eventListeners(event.type);
    await chain(router.middleware, args, async () => {
      if (!listeners) return;
      // What Bolt's event(/.*/) listener (the router's) left in the context: the type it matched.
      context.matches = [event.type];
      await runListeners(listeners, { ...args, next: () => {} });
    });
  };
}

/** Bolt's ignoreSelf: the app's own bot messages, and events whose user is the app's bot (but for a few). */
function ignoredAsSelf(event: SlackEvent, context: Record<string, unknown>): boolean {
  if (event.type === "message" && event.subtype === "bot_message" && event.bot_id === context.botId) return true;
  return (
    context.botUserId !== undefined &&
    "user" in event &&
    event.user === context.botUserId &&
    !KEPT_FROM_SELF.has(event.type)
  );
}

/** Runs the global middleware in order, each continuing with `next`; `last` runs once every one has called it. */
async function chain(middleware: readonly Listener[], args: Record<string, unknown>, last: () => Promise<void>) {
  const step = async (i: number): Promise<void> => {
    if (i === middleware.length) return last();
    await middleware[i]!({ ...args, next: () => step(i + 1) });
  };
  await step(0);
}
