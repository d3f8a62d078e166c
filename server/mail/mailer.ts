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
}

export interface Mailer {
  /** Sends one message; resolves with its Message-ID, rejects when the server refuses it. */
  send(message: MailMessage): Promise<string>;
  /** Where mail goes, for logs and the settings page. */
  describe(): string;
  close(): void;
}

/** SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under outboxDir. */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; log?: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        const info = await transport.sendMail({ from: opts.from, ...m });
        return info.messageId;
      },
      describe: () => `SMTP ${new URL(opts.smtpUrl!).host}`,
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, ...m });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      opts.log?.info({ to: m.to, subject: m.subject, file }, "mail written to outbox");
      return info.messageId;
    },
    describe: () => `outbox folder ${opts.outboxDir}`,
    close: () => undefined,
  };
}
