import { describe, expect, it } from "vitest";
import { createKey } from "../src/features/mcp-keys/index.ts";
import { useTestApp } from "./support/app.ts";

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string };
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const NUL_TEXT = "a\u0000b";

/** A value of the schema's shape: strings "x", the first of an enum or a union; enough to put a NUL in each string. */
function sample(doc: Document, schema: Schema | undefined, depth = 0): unknown {
  let s = schema;
  while (s && typeof s.$ref === "string") s = doc.components?.schemas?.[s.$ref.split("/").pop()!];
  if (!s || depth > 6) return "x";
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union?.length) return sample(doc, union[0], depth + 1);
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || s.properties) {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(doc, v, depth + 1)]));
  }
  if (type === "array") return [sample(doc, s.items as Schema, depth + 1)];
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "null") return null;
  return "x";
}

/** One copy of `value` per string in it, that string replaced by text with a NUL; named by its path. */
function withNulInEachString(value: unknown, path = "body"): [string, unknown][] {
  if (typeof value === "string") return [[path, NUL_TEXT]];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) =>
      withNulInEachString(item, `${path}[${i}]`).map(([p, v]): [string, unknown] => [
        p,
        value.map((x, j) => (j === i ? v : x)),
      ]),
    );
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) =>
      withNulInEachString(inner, `${path}.${key}`).map(([p, v]): [string, unknown] => [p, { ...value, [key]: v }]),
    );
  }
  return [];
}

/**
 * The fuzz of issue 22: every route in /openapi.json, with a NUL in each path parameter, each query parameter and each
 * string of its JSON body (and in a key), never answers 5xx; the dashboard API answers 400 naming the field.
 */
describe("a NUL byte anywhere in any documented request", async () => {
  const t = await useTestApp();
  await t.installTeam("T0FUZZ", { installer: "U0FUZZADMIN" });
  const admin = await t.signIn("T0FUZZ", "U0FUZZADMIN");
  const { key } = await createKey(t.deps, "T0FUZZ", "U0FUZZADMIN", { name: "fuzz" });
  const doc = (await t.inject({ method: "GET", url: "/openapi.json" })).json() as Document;
  let seq = 0;

  it("is never a 5xx, and the dashboard API names the field in a 400", async () => {
    const failures: string[] = [];
    const answered = new Map<number, number>();
    let sent = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === "path").map((p) => p.name);
        const queryParams = params.filter((p) => p.in === "query").map((p) => p.name);
        const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
        const body = bodySchema ? sample(doc, bodySchema) : undefined;
        const url = (values: Record<string, string>, query = "") =>
          template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "X1")) + query;

        const cases: { where: string; url: string; payload?: unknown }[] = [
          ...pathParams.map((name) => ({ where: `path ${name}`, url: url({ [name]: NUL_TEXT }), payload: body })),
          ...queryParams.map((name) => ({
            where: `query ${name}`,
            url: url({}, `?${name}=${encodeURIComponent(NUL_TEXT)}`),
            payload: body,
          })),
          ...withNulInEachString(body).map(([where, payload]) => ({ where, url: url({}), payload })),
          ...(body !== null && typeof body === "object" && !Array.isArray(body)
            ? [{ where: "a body key", url: url({}), payload: { ...body, "k\u0000": "x" } }]
            : []),
        ];
        for (const c of cases) {
          // The dashboard API allows 600 requests a minute a session: a minute passes every 300.
          if (++sent % 300 === 0) t.clock.advance(61_000);
          const res = await t.inject({
            method: method.toUpperCase() as "GET",
            url: c.url,
            remoteAddress: `10.99.${++seq >> 8}.${seq & 255}`,
            headers: {
              cookie: admin,
              authorization: `Bearer ${key}`,
              accept: "application/json, text/event-stream",
              ...(c.payload === undefined ? {} : { "content-type": "application/json" }),
            },
            ...(c.payload === undefined ? {} : { payload: JSON.stringify(c.payload) }),
          });
          const what = `${method.toUpperCase()} ${template} (${c.where}): ${res.statusCode} ${res.body.slice(0, 120)}`;
          answered.set(res.statusCode, (answered.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) failures.push(what);
          else if (template.startsWith("/dashboard/api/")) {
            const error = res.statusCode === 400 ? (res.json() as { error?: string }).error : undefined;
            if (!error?.endsWith("must not contain NUL bytes")) failures.push(what);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Not vacuous: most of what was sent reached the guard.
    expect(sent).toBeGreaterThan(100);
    expect(answered.get(400) ?? 0, JSON.stringify([...answered])).toBeGreaterThan(sent * 0.8);
  });
});
