import type { LightMyRequestResponse } from "fastify";
import type { FakeSlack } from "../../dev/fake-slack/index.ts";
import type { SocketAck } from "../../dev/fake-slack/types.ts";

/** What Slack got back for a delivery, the same whichever transport carried it. */
export interface Delivered {
  /** HTTP: a 200; Socket Mode: an ack arrived before Slack gave up. */
  acknowledged: boolean;
  /** The response: a command's reply or a view's response_action; undefined when empty. A text reply is `{ text }`. */
  body: Record<string, unknown> | undefined;
}

/** Delivers events, slash commands and interactions to the app, over signed HTTP requests or the fake's socket. */
export interface ChatDelivery {
  event(teamId: string, event: Record<string, unknown>, opts?: { eventId?: string }): Promise<Delivered>;
  command(teamId: string, userId: string, text: string): Promise<Delivered>;
  interaction(payload: Record<string, unknown>): Promise<Delivered>;
}

function fromHttp(res: LightMyRequestResponse): Delivered {
  const acknowledged = res.statusCode === 200;
  if (!acknowledged || res.body === "") return { acknowledged, body: undefined };
  const json = (res.headers["content-type"] ?? "").toString().includes("json");
  return { acknowledged, body: json ? (res.json() as Record<string, unknown>) : { text: res.body } };
}

function fromSocket(ack: SocketAck | undefined): Delivered {
  const payload = ack?.payload;
  return { acknowledged: ack !== undefined, body: payload && Object.keys(payload).length > 0 ? payload : undefined };
}

export function httpDelivery(send: {
  sendEvent(
    teamId: string,
    event: Record<string, unknown>,
    opts?: { eventId?: string },
  ): Promise<LightMyRequestResponse>;
  sendCommand(teamId: string, userId: string, text: string): Promise<LightMyRequestResponse>;
  sendInteraction(payload: Record<string, unknown>): Promise<LightMyRequestResponse>;
}): ChatDelivery {
  return {
    event: async (teamId, event, opts) => fromHttp(await send.sendEvent(teamId, event, opts)),
    command: async (teamId, userId, text) => fromHttp(await send.sendCommand(teamId, userId, text)),
    interaction: async (payload) => fromHttp(await send.sendInteraction(payload)),
  };
}

export function socketDelivery(fake: FakeSlack): ChatDelivery {
  return {
    event: async (teamId, event, opts) => fromSocket(await fake.socket.sendEvent(teamId, event, opts)),
    command: async (teamId, userId, text) => fromSocket(await fake.socket.sendCommand(teamId, userId, text)),
    interaction: async (payload) => fromSocket(await fake.socket.sendInteraction(payload)),
  };
}
