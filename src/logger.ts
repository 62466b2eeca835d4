/** @module The pino logger: JSON lines, secrets redacted by path. */
import { type Logger, pino } from "pino";

/** Paths that may carry secrets in any log object; pino replaces their values. */
const REDACT_PATHS = [
  "authorization",
  "cookie",
  "password",
  "key",
  "token",
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.key",
  "*.token",
  "headers.authorization",
  "headers.cookie",
  "req.headers.authorization",
  "req.headers.cookie",
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "quire" },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
}
