import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A server of the spec's own on a new, empty embedded database (issue 25: a new install, which the
 * suite's seeded servers are not): no company, no data, one super-admin with a generated password
 * printed once, as `npm start` makes on a bare machine. It serves the web app the run built
 * (E2E_WEB_DIR from run.mjs or across-servers.ts). `stop()` ends it and removes its database.
 */
export interface FreshServer {
  url: string;
  adminEmail: string;
  /** The generated password the first start printed. */
  adminPassword: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

function webDir(): string {
  if (process.env.E2E_WEB_DIR) return process.env.E2E_WEB_DIR;
  const beside = process.env.E2E_DATA_DIR ? path.join(process.env.E2E_DATA_DIR, "web") : null;
  return beside && fs.existsSync(beside) ? beside : path.join(root, "dist");
}

export async function startFreshServer(adminEmail: string): Promise<FreshServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-first-run-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "server/main.ts"],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        WEB_DIR: webDir(),
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: url,
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: "",
        DATABASE_URL: "",
        SCHEDULER: "off",
        // The webhooks spec delivers to a receiver on 127.0.0.1, which production refuses.
        WEBHOOKS_ALLOW_PRIVATE: "true",
        LOG_LEVEL: "warn",
        SIGNIN_IP_LIMIT: "100000",
        SIGNIN_ACCOUNT_LIMIT: "100000",
        API_RATE_LIMIT: "100000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the fresh server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const adminPassword = /password:\s+(\S+)/.exec(output)?.[1];
  if (!adminPassword) {
    await stop();
    throw new Error(`no generated password in the first start's output:\n${output}`);
  }
  return { url, adminEmail, adminPassword, stop };
}
