/** @module The notifications domain's public surface: the outbox writer, the inbox, mail. */
export {
  countUnread,
  listNotifications,
  markNotificationsRead,
} from "./inbox.ts";
export { deliverNotificationMail } from "./mail.ts";
export {
  getMailPreferences,
  type MailPreferences,
  setMailPreferences,
} from "./preferences.ts";
export { type NotificationEvent, recordEvent } from "./record.ts";
export { renderSummary } from "./render.ts";
export { startNotificationMail } from "./schedule.ts";
export {
  ListNotificationsQuerySchema,
  MARK_READ_MAX_IDS,
  MarkReadInputSchema,
  MarkReadResultSchema,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationList,
  NotificationListSchema,
} from "./schemas.ts";
export { NOTIFICATION_CHANNEL, parseWakeup, type Wakeup } from "./wakeup.ts";
