import type { RouteOptions } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The path parameter that carries a link token (an e-mail's link, a calendar feed: the URL is the
     * credential). Declared once on the route; the request log then shows that segment as
     * `[redacted]`, whatever route or page the URL reaches (security finding 4).
     */
    linkToken?: string;
  }
}

/** What a masked token reads as in a log line. */
export const REDACTED = "[redacted]";

/**
 * Pages of the web app whose path carries a link token. They have no server route (the SPA fallback
 * serves them), so they are named here, as in web/app/router.tsx: a link page added there is added
 * here. `:token` marks the token's segment.
 */
export const LINK_TOKEN_PAGES: readonly string[] = ["/acknowledge/:token", "/request/:token", "/status/:token"];

/** Query parameters that carry a token, on any path (`?token=`, `?access_token=`, `?feedToken=`). */
const TOKEN_QUERY_KEY = /token/i;

/** A path pattern split into segments: a literal (lower case), any value, or the token. */
type Segment = { literal: string } | "any" | "token";
type Pattern = readonly Segment[];

/**
 * A route's path (`/api/calendar/:file`) with `tokenParam` as the token's segment, up to that segment:
 * what follows it does not matter (`/api/links/:token/accept` masks `/api/links/<token>/anything`).
 */
export function compilePattern(routePath: string, tokenParam = "token"): Pattern {
  const segments = routePath.split("/").filter(Boolean);
  const pattern = segments.map((s): Segment => {
    if (!s.includes(":") && !s.includes("*")) return { literal: s.toLowerCase() };
    // `:file`, `:file.ics`, `:id(^\\d+)`: only the declared parameter is the token.
    const name = /^:([A-Za-z0-9_]+)/.exec(s)?.[1];
    return name === tokenParam ? "token" : "any";
  });
  const end = pattern.indexOf("token");
  if (end < 0) throw new Error(`${routePath}: "${tokenParam}" is not a parameter of the path`);
  return pattern.slice(0, end + 1);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/**
 * The URL as it may be logged: each segment that a link pattern names as a token, and the value of
 * every `token` query parameter, replaced by `[redacted]`. The path is compared as the router reads
 * it (escapes decoded, any case, empty segments skipped), so `/api/acknowledgement%73/<token>` is
 * masked like the plain path; a URL with more segments than a pattern is masked too (a mistyped link
 * still carries its token). Everything else is logged as the client sent it.
 */
export function redactUrl(url: string, patterns: readonly Pattern[]): string {
  const cut = url.search(/[?#]/);
  const fullPath = cut < 0 ? url : url.slice(0, cut);
  const rest = cut < 0 ? "" : url.slice(cut);
  // An absolute-form request target (`GET http://host/path`): keep the origin, mask the path.
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(fullPath)?.[0] ?? "";
  const raw = fullPath.slice(origin.length).split("/");
  const at = raw.flatMap((s, i) => (s ? [i] : [])); // indexes of the non-empty segments
  const words = at.map((i) => decode(raw[i]!));
  let masked = false;
  for (const pattern of patterns) {
    if (words.length < pattern.length) continue;
    if (!pattern.every((p, i) => typeof p !== "object" || p.literal === words[i])) continue;
    raw[at[pattern.length - 1]!] = REDACTED; // the token is a pattern's last segment
    masked = true;
  }
  const path = masked ? origin + raw.join("/") : fullPath;
  return path + (rest && TOKEN_QUERY_KEY.test(rest) ? redactQuery(rest) : rest);
}

/** `?a=1&token=x#f` → `?a=1&token=[redacted]#f` (keys compared decoded). */
function redactQuery(rest: string): string {
  const hash = rest.indexOf("#");
  const query = hash < 0 ? rest : rest.slice(0, hash);
  const fragment = hash < 0 ? "" : rest.slice(hash);
  if (!query.startsWith("?")) return rest;
  const pairs = query
    .slice(1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const key = eq < 0 ? pair : pair.slice(0, eq);
      return TOKEN_QUERY_KEY.test(decode(key.replace(/\+/g, " "))) && eq >= 0 ? `${key}=${REDACTED}` : pair;
    });
  return `?${pairs.join("&")}${fragment}`;
}

/**
 * The link paths of one app: the web app's link pages, and each route that declares `linkToken`
 * (added as the routes are registered, see `onRoute`). One per app, made before its logger.
 */
export class LinkTokenPaths {
  readonly #patterns: Pattern[] = LINK_TOKEN_PAGES.map((page) => compilePattern(page));
  readonly #seen = new Set<string>();

  /** An `onRoute` hook: remembers the route's path when it declares a link token. */
  readonly onRoute = (route: RouteOptions): void => {
    const param = route.config?.linkToken;
    if (!param) return;
    const key = `${route.url} ${param}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#patterns.push(compilePattern(route.url, param));
  };

  /** The URL as it may be logged (see redactUrl). */
  redact(url: string): string {
    return redactUrl(url, this.#patterns);
  }
}
