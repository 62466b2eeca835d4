/**
 * @module Test support: a real SMTP server on loopback that keeps what it is sent, so the
 * nodemailer client code runs for real. Plain SMTP (no STARTTLS, no AUTH), enough for tests.
 */
import { createServer, type Socket } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message as sent (headers and body, dot-unstuffed). */
  raw: string;
  /** The header block, lowercased names → raw values. */
  headers: Record<string, string>;
  /** The body, decoded from quoted-printable or base64 when so declared. */
  text: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the next message (or one that already arrived and was not yet taken). */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let taken = 0;
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  const sockets = new Set<Socket>();

  const deliver = (mail: ReceivedMail) => {
    received.push(mail);
    const resolve = waiting.shift();
    if (resolve) {
      taken++;
      resolve(mail);
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let data: string[] = [];
    let from = "";
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 sink.test ESMTP ready");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf("\r\n");
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            deliver(parseMail(from, to, data.join("\r\n")));
            data = [];
            reply("250 OK: queued");
          } else {
            data.push(line.startsWith(".") ? line.slice(1) : line);
          }
        } else {
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO") {
            reply("250-sink.test");
            reply("250 8BITMIME");
          } else if (verb === "HELO") reply("250 sink.test");
          else if (verb === "MAIL") {
            from = /<([^>]*)>/.exec(line)?.[1] ?? "";
            to = [];
            reply("250 OK");
          } else if (verb === "RCPT") {
            to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
            reply("250 OK");
          } else if (verb === "DATA") {
            inData = true;
            reply("354 End data with <CR><LF>.<CR><LF>");
          } else if (verb === "RSET" || verb === "NOOP") reply("250 OK");
          else if (verb === "QUIT") {
            reply("221 Bye");
            socket.end();
          } else reply("502 Command not implemented");
        }
        end = buffer.indexOf("\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next: () => {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseMail(from: string, to: string[], raw: string): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    text = Buffer.from(bytes, "latin1").toString("utf8");
  } else if (encoding === "base64") {
    text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { from, to, raw, headers, text: text.replace(/\r\n/g, "\n") };
}
