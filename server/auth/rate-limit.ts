import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";

/**
 * Sign-in attempt counters in the database, so every app instance shares them (better-auth's
 * limiter is per process and per address only). Fixed windows: simple, and good enough here.
 */
export class SignInLimiter {
  constructor(
    private readonly db: Db,
    private readonly limits: { perIp: number; perAccount: number; windowSeconds: number },
  ) {}

  /** Counts an attempt from `ip` and refuses when the address or the account is over its limit. */
  async check(ip: string, email: string): Promise<void> {
    const ipHit = await this.bump(`ip:${ip}`);
    if (ipHit.count > this.limits.perIp) throw this.tooMany(ipHit.retryAfter);
    const account = await this.peek(`acct:${email.toLowerCase()}`);
    if (account && account.count >= this.limits.perAccount) throw this.tooMany(account.retryAfter);
  }

  /** Records a failed password for the account. */
  async fail(email: string): Promise<void> {
    await this.bump(`acct:${email.toLowerCase()}`);
  }

  /** A successful sign-in clears the account's failures. */
  async succeed(email: string): Promise<void> {
    await this.db.execute(sql`delete from auth_rate_limits where key = ${`acct:${email.toLowerCase()}`}`);
  }

  /*
   * The code step of two-factor sign-in counts on its own key per user, which a correct password
   * never clears: someone who knows the password cannot buy more guesses at the code by signing in
   * again. Attempts also count against the address, like passwords.
   */

  /** Counts a code attempt from `ip` and refuses when the address or the user's codes are over the limit. */
  async checkCode(ip: string, userId: string): Promise<void> {
    const ipHit = await this.bump(`ip:${ip}`);
    if (ipHit.count > this.limits.perIp) throw this.tooMany(ipHit.retryAfter);
    const codes = await this.peek(`2fa:${userId}`);
    if (codes && codes.count >= this.limits.perAccount) throw this.tooMany(codes.retryAfter);
  }

  /** Records a wrong code for the user. */
  async failCode(userId: string): Promise<void> {
    await this.bump(`2fa:${userId}`);
  }

  /** A correct code clears the user's code failures. */
  async succeedCode(userId: string): Promise<void> {
    await this.db.execute(sql`delete from auth_rate_limits where key = ${`2fa:${userId}`}`);
  }

  private bump(key: string) {
    return bumpCounter(this.db, key, this.limits.windowSeconds);
  }

  private peek(key: string) {
    return peekCounter(this.db, key, this.limits.windowSeconds);
  }

  private tooMany(retryAfter: number) {
    return tooManyAttempts("Too many sign-in attempts. Please wait a few minutes and try again.", retryAfter);
  }
}

/**
 * The links that work without sign-in and name one record by a random token (a document request's
 * link, issue 27): every request counts against the address, and an unknown token counts again as a
 * miss; an address over either limit gets 429 before its token is looked up, so guessing tokens
 * costs a window per handful of tries, on every instance alike (the counters are in the database).
 */
export class LinkLimiter {
  constructor(
    private readonly db: Db,
    private readonly purpose: string,
    private readonly limits: { perIp: number; missesPerIp: number; windowSeconds: number },
  ) {}

  /** Counts a request from `ip` and refuses when the address is over its limit or its misses are. */
  async check(ip: string): Promise<void> {
    const hit = await bumpCounter(this.db, `${this.purpose}:ip:${ip}`, this.limits.windowSeconds);
    if (hit.count > this.limits.perIp) throw this.tooMany(hit.retryAfter);
    const misses = await peekCounter(this.db, `${this.purpose}:miss:${ip}`, this.limits.windowSeconds);
    if (misses && misses.count >= this.limits.missesPerIp) throw this.tooMany(misses.retryAfter);
  }

  /** Records a token that named nothing. */
  async miss(ip: string): Promise<void> {
    await bumpCounter(this.db, `${this.purpose}:miss:${ip}`, this.limits.windowSeconds);
  }

  private tooMany(retryAfter: number) {
    return tooManyAttempts("Too many requests. Please wait a few minutes and try again.", retryAfter);
  }
}

/** One more hit on `key` in its fixed window (a new window once the last one is over). */
async function bumpCounter(db: Db, key: string, w: number) {
  const rows = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
      insert into auth_rate_limits (key, count, window_start) values (${key}, 1, now())
      on conflict (key) do update set
        count = case when auth_rate_limits.window_start < now() - make_interval(secs => ${w})
                     then 1 else auth_rate_limits.count + 1 end,
        window_start = case when auth_rate_limits.window_start < now() - make_interval(secs => ${w})
                     then now() else auth_rate_limits.window_start end
      returning count, ceil(extract(epoch from window_start + make_interval(secs => ${w}) - now()))::int as retry_after`,
  );
  const row = rows[0]!;
  return { count: Number(row.count), retryAfter: Math.max(1, Number(row.retry_after)) };
}

/** The hits on `key` in its current window, or null. */
async function peekCounter(db: Db, key: string, w: number) {
  const rows = await queryRows<{ count: number; retry_after: number }>(
    db,
    sql`
      select count, ceil(extract(epoch from window_start + make_interval(secs => ${w}) - now()))::int as retry_after
      from auth_rate_limits where key = ${key} and window_start >= now() - make_interval(secs => ${w})`,
  );
  const row = rows[0];
  return row ? { count: Number(row.count), retryAfter: Math.max(1, Number(row.retry_after)) } : null;
}

const tooManyAttempts = (message: string, retryAfter: number) =>
  new AppError(429, "RATE_LIMITED", message, undefined, { "retry-after": String(retryAfter) });
