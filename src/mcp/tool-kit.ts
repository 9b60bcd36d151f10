import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpScope } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { completeWindow, isRealDate, MAX_DAYS, todayIn, workspaceToday } from "../features/calendar/index.ts";
import { type Filters, resolveFilters } from "../features/insights/index.ts";
import { AppError } from "../http/errors.ts";
import { findNul } from "../lib/nul.ts";

/** How a request authenticated: an API key from the dashboard, or an OAuth access token a person granted. */
export type McpCredential =
  | { readonly kind: "key"; readonly keyId: number }
  | { readonly kind: "oauth"; readonly grantId: number; readonly clientId: string; readonly clientName: string };

/**
 * Who calls: the workspace, the member the credential acts for and what it may do. All of it comes from the
 * credential, never from the arguments.
 */
export interface McpPrincipal {
  readonly teamId: string;
  readonly teamName: string;
  /**
   * The member writes act as: an OAuth token's person, or the admin who created a key. Null when that person's data
   * was removed (reads still work; writes say the credential acts for nobody).
   */
  readonly userId: string | null;
  readonly scopes: readonly McpScope[];
  /**
   * Whether reads reach what the dashboard shows admins only (e-mails and roles of members). A key is a workspace
   * credential an admin made, so it reads as an admin; an OAuth token reads as its member's current role.
   */
  readonly isAdmin: boolean;
  /**
   * The workspace calendar's timezone (UTC when none is saved), read in the same query as the credential, so a
   * tool's "today" costs no query of its own; absent: read it when needed.
   */
  readonly timezone?: string;
  readonly credential: McpCredential;
}

/** What every tool call runs with. Writes need the whole of deps (queue, events, chat); reads use db, clock, log. */
export interface ToolContext extends McpPrincipal {
  readonly deps: Deps;
}

/** For logs: which credential called, never the credential itself. */
export function credentialLog(c: McpCredential): Record<string, number | string> {
  return c.kind === "key" ? { key_id: c.keyId } : { grant_id: c.grantId };
}

/** The read tools only read, so clients may call them without asking the user each time. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** JSON-RPC "internal error", quoted in tool error texts so the failure class is plain to the client. */
const INTERNAL_ERROR = -32603;

/** A problem with the arguments, explained to the model so it can correct the call. */
export class ToolError extends Error {}

export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** What the credential needs for the tool to be listed and callable (default standups:read). */
  scope?: McpScope;
  /** Default READ_ONLY; write tools say what they change. */
  annotations?: ToolAnnotations;
  run(ctx: ToolContext, args: z.output<z.ZodObject<S>>): Promise<Record<string, unknown>>;
}

export interface Tool {
  readonly name: string;
  readonly scope: McpScope;
  register(server: McpServer, ctx: ToolContext): void;
}

function textResult(text: string, isError: boolean): CallToolResult {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}

/** Result as JSON text (what every client reads) and the same object as structuredContent. */
async function runTool<S extends z.ZodRawShape>(
  spec: ToolSpec<S>,
  ctx: ToolContext,
  args: z.output<z.ZodObject<S>>,
): Promise<CallToolResult> {
  const started = performance.now();
  // The database cannot hold a NUL; the model is told which argument to correct, as for any bad argument.
  const nul = findNul(args);
  if (nul !== undefined) return textResult(`${nul || "arguments"} must not contain NUL bytes`, true);
  try {
    const result = await spec.run(ctx, args);
    ctx.deps.log.info(
      {
        tool: spec.name,
        team_id: ctx.teamId,
        ...credentialLog(ctx.credential),
        ms: Math.round(performance.now() - started),
      },
      "mcp tool call",
    );
    return { ...textResult(JSON.stringify(result), false), structuredContent: result };
  } catch (err) {
    if (err instanceof ToolError) return textResult(err.message, true);
    if (err instanceof AppError && err.status < 500) return textResult(err.message, true);
    // The cause stays in the log: SQL and stack details are no business of the client.
    ctx.deps.log.error(
      { err, tool: spec.name, team_id: ctx.teamId, ...credentialLog(ctx.credential) },
      "mcp tool failed",
    );
    return textResult(`Internal error (${INTERNAL_ERROR}): ${spec.name} failed. Try again in a moment.`, true);
  }
}

export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    scope: spec.scope ?? "standups:read",
    register(server, ctx) {
      // The SDK validates the arguments against `input` first; a bad call is answered with isError.
      const handler = (args: z.output<z.ZodObject<S>>) => runTool(spec, ctx, args);
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: spec.input,
          annotations: spec.annotations ?? READ_ONLY,
        },
        handler as unknown as Parameters<McpServer["registerTool"]>[2],
      );
    },
  };
}

// ---- Shared argument schemas and date windows --------------------------------------------------

export const daysArg = (fallback: number, what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_DAYS)
    .default(fallback)
    .describe(`How many days to look back, today included (1 to ${MAX_DAYS}; default ${fallback}). ${what}`);

export const dateArg = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
    .optional()
    .describe(`${what} (YYYY-MM-DD, in the workspace timezone).`);

export interface Window {
  from: string;
  to: string;
  days: number;
}

/** Today in the workspace timezone: from the credential's query when it read the timezone, else read now. */
export async function toolToday(ctx: ToolContext): Promise<string> {
  return ctx.timezone ? todayIn(ctx.timezone, ctx.deps.clock.now()) : workspaceToday(ctx.deps, ctx.teamId);
}

/** `days` days back from today in the workspace timezone, today included. */
export async function lastDays(ctx: ToolContext, days: number): Promise<Window> {
  const w = completeWindow({}, await toolToday(ctx), days);
  return { from: w.from, to: w.to, days };
}

export function realDate(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isRealDate(value)) throw new ToolError(`${name} ${value} is not a real date`);
  return value;
}

// ---- The standup and member filters ---------------------------------------------------------------

export const scheduleArg = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a schedule id")
    .optional()
    .describe(
      "Only this standup: its schedule_id (every response carries one; get_workspace_summary lists the standups).",
    );

export const userArg = (what = "Only this member") =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(`${what}: a Slack user id such as U01ABCDEF (get_members lists them).`);

/** The filters a tool was given, the standup checked against the workspace (another's is not found). */
export async function toolFilters(
  ctx: ToolContext,
  args: { schedule_id?: string | undefined; user_id?: string | undefined },
): Promise<Filters> {
  try {
    return await resolveFilters(ctx.deps, ctx.teamId, args);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      throw new ToolError(
        `schedule_id ${args.schedule_id} is not a standup of this workspace; get_workspace_summary lists them.`,
      );
    }
    throw err;
  }
}

/** The filters echoed in a result, so the model sees what it asked for. */
export function echoFilters(args: { schedule_id?: string | undefined; user_id?: string | undefined }) {
  return {
    ...(args.schedule_id ? { schedule_id: args.schedule_id } : {}),
    ...(args.user_id ? { user_id: args.user_id } : {}),
  };
}
