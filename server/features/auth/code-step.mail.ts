import type { FastifyBaseLogger } from "fastify";
import { displayName } from "../../access/actor-from-user.ts";
import type { Config } from "../../config.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { TWO_FACTOR_FAILURE_LIMIT } from "../../../shared/domain/two-factor.ts";

type Person = { email: string; firstName: string; lastName: string };

/**
 * The e-mails about wrong codes at the sign-in code step: to the user when the count reaches the
 * notice (someone who knows the password is guessing) and at the lock; to the admins who can
 * reset it at the lock. Plain text that asks no one to click anything (a warning mail should not
 * teach people to follow links in warning mails; the app's address is named so they know where to
 * go). A mail that cannot be sent is logged, never a failed request.
 */
export async function sendCodeFailureNotices(
  ctx: { mailer: Mailer; config: Config },
  log: FastifyBaseLogger,
  notice: { user: Person; failures: number; locked: boolean; admins: Person[] },
) {
  const { user, failures, locked, admins } = notice;
  const at = new Date().toUTCString();
  const app = ctx.config.publicUrl;
  const messages = [
    {
      to: user.email,
      subject: locked
        ? "Permitrack: sign-in with a code is locked on your account"
        : "Permitrack: wrong sign-in codes on your account",
      text: [
        `Hello ${displayName(user)},`,
        "",
        `Someone signed in to your Permitrack account (${app}) with your password and then entered ${failures} wrong authentication codes in a row (the last one at ${at}).`,
        "",
        locked
          ? `After ${TWO_FACTOR_FAILURE_LIMIT} wrong codes in a row, sign-in with a code is now locked on your account. Your administrator has been told; they can reset your two-factor authentication once they have talked to you.`
          : `If it was not you, your password is known to someone else: change it now, or ask your administrator to. After ${TWO_FACTOR_FAILURE_LIMIT} wrong codes in a row, sign-in with a code is locked until an administrator resets it.`,
        "",
        "If it was you, nothing else is needed.",
      ].join("\n"),
    },
    ...(locked
      ? admins.map((admin) => ({
          to: admin.email,
          subject: `Permitrack: two-factor sign-in locked for ${displayName(user)}`,
          text: [
            `Hello ${displayName(admin)},`,
            "",
            `Sign-in with a code is locked for ${displayName(user)} (${user.email}) after ${failures} wrong authentication codes in a row (the last one at ${at}). Whoever entered them knew the account's password.`,
            "",
            `Talk to ${displayName(user)} first. If it was not them, have them choose a new password. Then reset their two-factor authentication under Admin > Users (${app}/admin/users): they set it up again at their next sign-in.`,
          ].join("\n"),
        }))
      : []),
  ];
  for (const message of messages) {
    try {
      await ctx.mailer.send(message);
    } catch (err) {
      log.error({ err, to: message.to }, "could not send the wrong-codes notice");
    }
  }
}
