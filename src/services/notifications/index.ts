/** @module The notifications domain's public surface: the outbox writer, the inbox, mail. */
export {
  countUnread,
  listNotifications,
  markNotificationsRead,
} from "./inbox.ts";
export { deliverNotificationMail, type MailRun } from "./mail.ts";
export {
  getMailPreferences,
  type MailPreferences,
  setMailPreferences,
} from "./preferences.ts";
export { type NotificationEvent, recordEvent } from "./record.ts";
export { type NotificationLang, renderSummary } from "./render.ts";
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
export { startNotificationMail } from "./schedule.ts";
