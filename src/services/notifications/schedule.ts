/** @module The server's notification mail timer: runs deliverNotificationMail, logs, never throws. */
import { type ServiceContext, withCaller } from "../context.ts";
import { deliverNotificationMail, type MailRun } from "./mail.ts";

/** How often the relay looks for mail to send: immediate mail goes out within this. */
const NOTIFICATION_MAIL_INTERVAL_MS = 60_000;

export interface PeriodicMail {
  runNow(): Promise<MailRun | undefined>;
  stop(): Promise<void>;
}

/**
 * Every instance runs its own timer; the claims in the database (per row, per owner and day)
 * make sure a notification or a digest is mailed by one of them only. A failed run is logged
 * and the next comes as usual.
 */
export function startNotificationMail(
  ctx: ServiceContext,
  options: { intervalMs?: number } = {},
): PeriodicMail {
  const operatorCtx = withCaller(ctx, { kind: "operator" });
  const interval = options.intervalMs ?? NOTIFICATION_MAIL_INTERVAL_MS;
  let stopped = false;
  let running: Promise<MailRun | undefined> | undefined;
  const runNow = () => {
    running ??= deliverNotificationMail(operatorCtx)
      .then((run) => {
        if (run.immediate + run.digests + run.failed > 0) {
          ctx.logger[run.failed > 0 ? "warn" : "info"]({ ...run }, "notification mail");
        }
        return run;
      })
      .catch((error: unknown) => {
        ctx.logger.error({ err: error }, "notification mail failed; the next run is as scheduled");
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const handle = setInterval(() => {
    if (!stopped) void runNow();
  }, interval);
  handle.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(handle);
      await running;
    },
  };
}
