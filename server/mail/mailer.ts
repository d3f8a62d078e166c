import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * A fixed Message-ID ("<local@host>"). Reminder digests pass one derived from their deliveries,
   * so that a digest re-sent after a crash carries the same id and mail clients can drop the copy.
   */
  messageId?: string;
  /** Files attached to the message (the monthly compliance packet's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  /** Sends one message; resolves with its Message-ID, rejects when the server refuses it. */
  send(message: MailMessage): Promise<string>;
  /** Where mail goes, for logs and the settings page. */
  describe(): string;
  close(): void;
}

/**
 * SMTP timeouts, well below the reminder sender's claim lease (10 minutes): a hung SMTP server
 * must fail the attempt long before another process may take the claimed reminders over.
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
} as const;

/** Header values come from user-entered text; a line break there would start a new header. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under outboxDir. */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log?: FastifyBaseLogger;
}): Mailer {
  const envelope = (m: MailMessage) => ({ from: opts.from, ...m, subject: oneLine(m.subject) });
  if (opts.smtpUrl) {
    // Options given in the URL's query (ignoreTLS=true, ...) override the defaults here.
    const transport = nodemailer.createTransport({ url: opts.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async send(m) {
        const info = await transport.sendMail(envelope(m));
        return info.messageId;
      },
      describe: () => `SMTP ${new URL(opts.smtpUrl!).host}`,
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(m) {
      const info = await transport.sendMail(envelope(m));
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const file = path.join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
      );
      fs.writeFileSync(file, info.message as Buffer);
      opts.log?.info({ to: m.to, subject: m.subject, file }, "mail written to outbox");
      return info.messageId;
    },
    describe: () => `outbox folder ${opts.outboxDir}`,
    close: () => undefined,
  };
}
