import diagnostics from "node:diagnostics_channel";
import ExcelJS from "exceljs";
import type { FastifyInstance, InjectOptions } from "fastify";
import type { Response as InjectResponse } from "light-my-request";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";

/** One route of the app's route table: "GET /api/permits/:id". */
export type RouteKey = `${string} ${string}`;

/**
 * Records every route the next Fastify instance registers, from the moment it is created (the
 * `fastify.initialization` diagnostics channel fires inside `Fastify()`, before any plugin), so a
 * route added anywhere, by any plugin, is in the list. Call at module level, before the test
 * context builds the app; read `routesOf(t.app)` once it is built.
 */
export function recordRoutes() {
  const byApp = new WeakMap<FastifyInstance, Set<RouteKey>>();
  const channel = diagnostics.channel("fastify.initialization");
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    const routes = new Set<RouteKey>();
    byApp.set(fastify, routes);
    fastify.addHook("onRoute", (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.add(`${method.toUpperCase()} ${route.url}`);
    });
  };
  channel.subscribe(onInit);
  return {
    routesOf(app: FastifyInstance): RouteKey[] {
      channel.unsubscribe(onInit);
      const routes = byApp.get(app);
      if (!routes) throw new Error("recordRoutes(): the app was built before the recorder subscribed");
      return [...routes].sort();
    },
  };
}

/** A signed-in (or anonymous) caller: like the harness's ApiClient, from any cookie string. */
export interface Caller {
  cookie: string;
  request(opts: InjectOptions): Promise<InjectResponse>;
}

export function callerFor(app: FastifyInstance, cookie: string): Caller {
  return {
    cookie,
    request: (opts) =>
      app.inject({
        ...opts,
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
      }),
  };
}

/** The cookie string after a response's Set-Cookie headers (later cookies replace earlier ones). */
export function mergeCookies(base: string, res: InjectResponse): string {
  const jar = new Map(
    base
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.split("=")[0]!, c] as const),
  );
  for (const c of res.cookies) {
    const expired = c.maxAge === 0 || (c.expires instanceof Date && c.expires.getTime() < Date.now());
    if (expired || c.value === "") jar.delete(c.name);
    else jar.set(c.name, `${c.name}=${c.value}`);
  }
  return [...jar.values()].join("; ");
}

// ---------------------------------------------------------------------------------------------
// What an answer must never carry

/** Keys no answer may have: secrets and storage internals. */
const SECRET_KEYS = new Set([
  "password",
  "passwordhash",
  "password_hash",
  "token",
  "calendartoken",
  "calendar_token",
  "storagekey",
  "storage_key",
  "logokey",
  "logo_key",
  "secret",
  "backupcodes",
  "backup_codes",
]);

/** Substrings no answer may contain, whoever asks. */
const SECRET_TEXT = ["$argon2", "node_modules", "    at "];

/**
 * The forbidden things found in a body: any of `forbidden` (ids, names and texts the actor must not
 * see) as a substring, a secret-looking key, a password hash or a stack trace.
 */
export function leaksIn(body: string, forbidden: Iterable<string>): string[] {
  const found: string[] = [];
  for (const s of forbidden) if (s && body.includes(s)) found.push(s);
  for (const s of SECRET_TEXT) if (body.includes(s)) found.push(s);
  if (body.startsWith("{") || body.startsWith("[")) {
    try {
      walkKeys(JSON.parse(body), (key) => {
        if (SECRET_KEYS.has(key.toLowerCase())) found.push(`key "${key}"`);
      });
    } catch {
      /* not JSON after all */
    }
  }
  return found;
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * An answer's text as a leak scan must read it: an Excel workbook (a zip, whose cells no substring
 * search would find) as the text of its sheets' names and cells, one a line; anything else as is.
 */
export async function scannableText(res: InjectResponse): Promise<string> {
  const type = String(res.headers["content-type"] ?? "");
  if (!type.startsWith(XLSX) || res.rawPayload.length === 0) return res.body;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const lines: string[] = [];
  for (const sheet of book.worksheets) {
    lines.push(sheet.name);
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        const v = cell.value;
        lines.push(
          v instanceof Date ? v.toISOString() : typeof v === "object" ? JSON.stringify(v) : String(v),
        );
      }),
    );
  }
  return lines.join("\n");
}

function walkKeys(value: unknown, visit: (key: string) => void) {
  if (Array.isArray(value)) for (const v of value) walkKeys(v, visit);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      visit(k);
      walkKeys(v, visit);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// What an error answer must look like

/** Engine and database wording that must never reach a user. */
const UNCLEAR = [
  /\bat [\w.<>]+ \(/, // stack frame
  /\.(ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\b(select|insert into|update \w+ set|delete from)\b/i,
  /\b(violates|constraint|relation "|syntax error at or near|duplicate key|column "|invalid input syntax)\b/i,
  /\b(pglite|postgres|drizzle|fastify|zod|busboy|better-auth)\b/i,
  /\b(TypeError|RangeError|SyntaxError|ReferenceError|undefined is not|Cannot read propert)/,
  /\bFST_[A-Z_]+|\bERR_[A-Z_]+/,
  /Maximum call stack/i,
  /\bin JSON at position\b|Unexpected token|Unexpected end of JSON/,
];

/**
 * Why an error body is not `{ code, message }` with a clear human sentence, or null when it is.
 * A sentence starts with a capital letter (after an optional "field: " prefix naming the field),
 * reads as words, and names no engine, query or stack.
 */
export function unclearError(res: InjectResponse): string | null {
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `not JSON: ${res.body.slice(0, 80)}`;
  }
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== "string" || !/^[A-Z_]+$/.test(code)) return `no code: ${res.body.slice(0, 120)}`;
  if (typeof message !== "string") return `no message: ${res.body.slice(0, 120)}`;
  if (message.length < 5 || message.length > 400) return `message length ${message.length}: ${message}`;
  if (!/^([\w.[\]-]+: )?["'A-Z]/.test(message)) return `not a sentence: ${message}`;
  for (const pattern of UNCLEAR) if (pattern.test(message)) return `technical wording: ${message}`;
  return null;
}
