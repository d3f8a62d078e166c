import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "../access/actor.ts";
import { buildKeyActor } from "../access/actor-from-user.ts";
import type { Db } from "../db/client.ts";
import { apiKeys } from "../db/schema.ts";
import { AppError, unauthenticated } from "../errors.ts";

/*
 * API keys (issue 30, decision 0033): `Authorization: Bearer ptk_...` on the JSON API. A key is 32
 * random bytes, base64url, after "ptk_"; the database keeps its SHA-256 (hex) and its first 12
 * characters to tell keys apart. This file is the platform's half: making a key, reading the header,
 * and turning a key into an Actor. The admin screens are the api-keys feature.
 */

export const API_KEY_PREFIX = "ptk_";
/** How many characters of the key the list shows ("ptk_" and 8 more). */
export const API_KEY_SHOWN_CHARS = 12;
/** last_used_at is written at most this often per key: not a write per request. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Routes a key can never reach, whatever their own config says (403): the keys and users admin,
 * webhooks (issue 30, item 3), impersonation, and everything of the signed-in person (/api/me and
 * its password, two-factor and calendar feed; saved views). A route may also declare
 * `config: { noApiKey: true }`.
 */
export const API_KEY_CLOSED_PREFIXES = [
  "/api/api-keys",
  "/api/users",
  "/api/webhooks",
  "/api/impersonation",
  "/api/me",
  "/api/saved-views",
] as const;

export const KEY_FORBIDDEN = "API keys cannot reach this part of the API; sign in as a user.";
const KEY_UNKNOWN = "Unknown API key.";
const KEY_REVOKED = "This API key has been revoked.";
const KEY_EXPIRED = "This API key has expired.";
const KEY_MISSES = "Too many unknown API keys. Please wait a minute and try again.";
const KEY_MALFORMED = 'Malformed Authorization header: send "Authorization: Bearer <API key>".';

export const hashApiKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** A new key: the value (shown once), its hash (stored) and its prefix (listed). */
export function newApiKey(): { key: string; tokenHash: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, tokenHash: hashApiKey(key), prefix: key.slice(0, API_KEY_SHOWN_CHARS) };
}

/**
 * The key of an `Authorization` header: null without the header, the key for "Bearer <key>", and
 * 401 for anything else (a Basic header, an empty bearer), so a client's mistake is said plainly.
 */
export function bearerKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw unauthenticated(KEY_MALFORMED);
  return match[1]!;
}

/** True when the route is closed to keys (its config, or one of the closed prefixes). */
export function closedToKeys(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.noApiKey) return true;
  const url = (request.routeOptions.url ?? request.url.split("?")[0] ?? "").toLowerCase();
  return API_KEY_CLOSED_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}

/** The rate limiter's bucket of a request that carries a key (its hash, never the key). */
export function rateLimitKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  return match ? `api-key:${hashApiKey(match[1]!)}` : null;
}

/**
 * The Actor of a key, or 401 (unknown, revoked, expired). One statement per request; last_used_at
 * is moved (a second one) only when it is more than a minute old.
 */
export async function resolveKeyActor(db: Db, key: string): Promise<Actor> {
  if (!key.startsWith(API_KEY_PREFIX)) throw unauthenticated(KEY_UNKNOWN);
  const [row] = await db
    .select({
      id: apiKeys.id,
      companyId: apiKeys.companyId,
      name: apiKeys.name,
      role: apiKeys.role,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.tokenHash, hashApiKey(key)));
  if (!row) throw unauthenticated(KEY_UNKNOWN);
  if (row.revokedAt) throw unauthenticated(KEY_REVOKED);
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) throw unauthenticated(KEY_EXPIRED);
  // The table's check allows only these two; anything else is refused rather than trusted.
  if (row.role !== "company-admin" && row.role !== "company-user") throw unauthenticated(KEY_UNKNOWN);
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, row.id));
  }
  return buildKeyActor({ id: row.id, companyId: row.companyId, name: row.name, role: row.role });
}

/**
 * The auth hook's key → Actor, with its guard: a request's key counts against the key in the rate
 * limiter (app.ts); a key that opens nothing (401) counts against the address too, and an address
 * over API_KEY_MISS_LIMIT a minute gets 429 before its next key is looked up, so random keys cannot
 * buy a fresh budget each (decision 0033).
 */
export function keyActorResolver(app: FastifyInstance) {
  const { db, config } = app.ctx;
  const misses = app.createRateLimit({
    keyGenerator: (req) => `api-key-miss:${req.ip}`,
    max: config.API_KEY_MISS_LIMIT,
    timeWindow: 60_000,
  });
  return async (request: FastifyRequest, key: string): Promise<Actor> => {
    const seen = await misses(request, { increment: false });
    if (!seen.isAllowed && seen.remaining <= 0) {
      throw new AppError(429, "RATE_LIMITED", KEY_MISSES, undefined, {
        "retry-after": String(Math.max(1, seen.ttlInSeconds)),
      });
    }
    try {
      return await resolveKeyActor(db, key);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await misses(request);
      throw err;
    }
  };
}
