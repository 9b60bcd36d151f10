import type { z } from "zod";
import { badRequest } from "./errors.ts";

/** Validates at the edge; the first problem becomes a 400 naming the field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  const message = issue.message.includes(field) || !field ? issue.message : `${field}: ${issue.message}`;
  throw badRequest(message);
}
