/** @module The server's notification mail timer: runs deliverNotificationMail, logs, never throws. */
import { type ServiceContext, withCaller } from "../context.ts";
import { deliverNotificationMail, type MailRun, nextUtcDay } from "./mail.ts";

/** How often the relay looks for mail to send: immediate mail goes out within this. */
const NOTIFICATION_MAIL_INTERVAL_MS = 60_000;

export interface PeriodicMail {
  /** A run now, or the run already under way. */
  runNow(): Promise<MailRun | undefined>;
  /** Settles when the scheduled run under way (if any) is done and the next one is set. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every instance runs its own relay; the claims in the database (per row, per owner and day)
 * make sure a notification or a digest is mailed by one of them only. Runs are scheduled on
 * the context's clock: every `intervalMs`, and at the turn of the UTC day itself (when the
 * day's digests fall due) whenever that comes sooner, so a digest leaves at midnight, not up
 * to an interval later, and a test moves its clock past midnight instead of sleeping. A
 * failed run is logged and the next comes as usual.
 */
export function startNotificationMail(
  ctx: ServiceContext,
  options: { intervalMs?: number } = {},
): PeriodicMail {
  const operatorCtx = withCaller(ctx, { kind: "operator" });
  const interval = options.intervalMs ?? NOTIFICATION_MAIL_INTERVAL_MS;
  let stopped = false;
  let running: Promise<MailRun | undefined> | undefined;
  let ticking: Promise<void> = Promise.resolve();
  let cancel = () => {};
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
  const arm = () => {
    if (stopped) return;
    const now = ctx.clock.now();
    const untilTurn = nextUtcDay(now).getTime() - now.getTime();
    cancel = ctx.clock.schedule(Math.min(interval, untilTurn), () => {
      ticking = runNow().then(arm);
    });
  };
  arm();
  return {
    runNow,
    idle: () => ticking,
    async stop() {
      stopped = true;
      cancel();
      await running;
    },
  };
}
