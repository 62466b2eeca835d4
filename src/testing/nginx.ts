/**
 * @module Test and benchmark support: the repository's nginx site (deploy/nginx/quire.conf)
 * rendered for free loopback ports and a temporary prefix, run by Debian's nginx as a
 * foreground child process (`-p`, `-c`), never the system service; and an HTTP client that
 * binds its socket to a chosen loopback address, so nginx sees distinct `$remote_addr`s.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./scratch.ts";

const SITE = fileURLToPath(new URL("../../deploy/nginx/quire.conf", import.meta.url));

/** The nginx binary, or an error that says how to install it. */
export function nginxBinary(): string {
  for (const candidate of [process.env.NGINX_BIN, "/usr/sbin/nginx"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "nginx is not installed. Install Debian's package: `apt-get install -y nginx` (the test " +
        "runs it as its own foreground process; the system service need not run).",
    );
  }
}

interface RenderOptions {
  /** Port nginx listens on, on 127.0.0.1. */
  listenPort: number;
  /** The instances' ports on 127.0.0.1, one upstream `server` each. */
  upstreamPorts: number[];
  /** Directory for the access and error logs. */
  logDir: string;
}

/**
 * deploy/nginx/quire.conf with its listen address, upstream servers and log directory
 * replaced, and nothing else: every other directive is the file's own. Throws if the file no
 * longer has the shape this relies on (so the test cannot silently test something else).
 */
function renderSite(source: string, options: RenderOptions): string {
  const replaceOnce = (text: string, pattern: RegExp, by: (match: string) => string) => {
    const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`));
    if (!matches || matches.length === 0) {
      throw new Error(`deploy/nginx/quire.conf: no match for ${pattern}`);
    }
    return text.replace(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`), by);
  };
  const servers = [...source.matchAll(/^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;$/gm)];
  const first = servers[0];
  if (servers.length < 1 || !first) {
    throw new Error("deploy/nginx/quire.conf: no `server 127.0.0.1:PORT ...;` in its upstream");
  }
  const indent = first[1] ?? "    ";
  const params = first[2] ?? "";
  let out = source.replace(/^\s*server 127\.0\.0\.1:\d+( [^;]*)?;\n/gm, "");
  out = out.replace(
    /(upstream quire \{\n)/,
    `$1${options.upstreamPorts.map((p) => `${indent}server 127.0.0.1:${p}${params};\n`).join("")}`,
  );
  out = replaceOnce(out, /^(\s*)listen 80;$/m, () => `    listen 127.0.0.1:${options.listenPort};`);
  out = replaceOnce(out, /^\s*listen \[::\]:80;\n/m, () => "");
  out = replaceOnce(out, /\/var\/log\/nginx\//, () => `${options.logDir}/`);
  return out;
}

export interface RunningNginx {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** The master's process id (its workers are its children). */
  pid: number;
  prefix: string;
  /** nginx's access log so far (format `quire`: one line per request). */
  accessLog(): string;
  /** Everything nginx wrote to its error log and stderr. */
  errors(): string;
  /** SIGTERM and wait; removes the prefix. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts nginx with the rendered site in front of `upstreamPorts`. As root, the master stays
 * root and the workers run as nginx's default unprivileged user, so the prefix is made
 * traversable for them.
 */
export async function startNginx(options: {
  upstreamPorts: number[];
  workerProcesses?: number;
}): Promise<RunningNginx> {
  const binary = nginxBinary();
  const prefix = mkdtempSync(join(tmpdir(), "quire-nginx-"));
  chmodSync(prefix, 0o755);
  const logDir = join(prefix, "logs");
  mkdirSync(logDir);
  mkdirSync(join(prefix, "tmp"));
  const port = await freePort();
  const site = renderSite(readFileSync(SITE, "utf8"), {
    listenPort: port,
    upstreamPorts: options.upstreamPorts,
    logDir,
  });
  writeFileSync(join(prefix, "quire.conf"), site);
  const temp = (name: string) => `${name}_temp_path ${join(prefix, "tmp", name)};`;
  writeFileSync(
    join(prefix, "nginx.conf"),
    [
      "daemon off;",
      "master_process on;",
      `worker_processes ${options.workerProcesses ?? 1};`,
      `pid ${join(prefix, "nginx.pid")};`,
      `error_log ${join(logDir, "error.log")} warn;`,
      "events { worker_connections 4096; }",
      "http {",
      "  default_type application/octet-stream;",
      `  ${temp("client_body")} ${temp("proxy")} ${temp("fastcgi")} ${temp("uwsgi")} ${temp("scgi")}`,
      `  include ${join(prefix, "quire.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  let stderr = "";
  const child: ChildProcess = spawn(
    binary,
    ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(logDir, "error.log")],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (c) => {
    stderr += String(c);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const read = (file: string) => {
    try {
      return readFileSync(join(logDir, file), "utf8");
    } catch {
      return "";
    }
  };
  let stopping: Promise<void> | null = null;
  const running = () => child.exitCode === null && child.signalCode === null;
  const nginx: RunningNginx = {
    base: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    prefix,
    accessLog: () => read("quire.access.log"),
    errors: () => `${stderr}${read("error.log")}${read("quire.error.log")}`,
    stop: () => {
      stopping ??= (async () => {
        if (running()) {
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(prefix, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    if (!running() || Date.now() > deadline) {
      const why = nginx.errors();
      await nginx.stop();
      throw new Error(`nginx did not start:\n${why}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return nginx;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request on a fresh connection whose socket is bound to `localAddress` (any 127.x.y.z
 * on Linux), so the server sees that address as the peer.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? "GET", headers: init.headers, localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A block of loopback addresses 127.A.B.1…254 unlikely to be used by another run at once. */
export function loopbackBlock(): (n: number) => string {
  const a = 2 + Math.floor(Math.random() * 250);
  const b = Math.floor(Math.random() * 256);
  return (n: number) => {
    if (!Number.isInteger(n) || n < 1 || n > 254) throw new Error(`host number ${n} out of range`);
    return `127.${a}.${b}.${n}`;
  };
}
