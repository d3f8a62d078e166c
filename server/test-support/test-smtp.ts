import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A message as the SMTP server received it. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable undone, for asserting on the text and HTML parts. */
  decoded: string;
  subject: string;
  messageId: string;
  /** The name the client gave in EHLO (nodemailer's `name`, e.g. `?name=server-a` in SMTP_URL). */
  client: string;
  /** When the server accepted it (ms since the epoch). */
  at: number;
}

export type SmtpVerdict = "accept" | "reject" | "discard";

export interface TestSmtpOptions {
  /**
   * Called with each complete message before the server answers it: resolve "accept" to take it
   * (250), "reject" to refuse it with a temporary error (451), or "discard" to never answer and
   * forget it (a sender that died waiting for the answer never handed the message over). May
   * wait: the sender waits for the answer meanwhile.
   */
  beforeAccept?: (mail: ReceivedMail) => Promise<SmtpVerdict> | SmtpVerdict;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** Refuse the next `n` messages with a temporary error (451), as a flaky server does. */
  failNext(n: number): void;
  /** Refuse every message from now on (or stop refusing). */
  failAll(on: boolean): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(raw: string): string {
  const soft = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === "=" ? soft.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) for tests: no TLS, no auth,
 * collecting every accepted message. The mailer reaches it through SMTP_URL.
 */
export async function startTestSmtp(opts: TestSmtpOptions = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  let failures = 0;
  let failEverything = false;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (failEverything || failures > 0) {
          failures = Math.max(0, failures - 1);
          const err = new Error("Mailbox temporarily unavailable") as Error & { responseCode: number };
          err.responseCode = 451;
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(headers)?.[1]?.trim() ?? "";
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
          subject: header("Subject"),
          messageId: header("Message-ID"),
          client: session.hostNameAppearsAs ?? "",
          at: Date.now(),
        };
        if (!opts.beforeAccept) {
          messages.push(mail);
          return callback();
        }
        void Promise.resolve(opts.beforeAccept(mail)).then(
          (verdict) => {
            if (verdict === "discard") return;
            if (verdict === "reject") {
              const err = new Error("Mailbox temporarily unavailable") as Error & { responseCode: number };
              err.responseCode = 451;
              return callback(err);
            }
            mail.at = Date.now();
            messages.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  // A client that vanishes mid-conversation (a killed sender) resets its connection: not our failure.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    failNext: (n) => {
      failures = n;
    },
    failAll: (on) => {
      failEverything = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
