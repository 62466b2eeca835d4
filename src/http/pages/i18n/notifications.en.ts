/** @module English strings of the owner's notifications page and the header's link. */
export const notificationsEn = {
  nav: "Inbox",
  navUnread: (n: number) => `Inbox (${n})`,
  title: "Notifications",
  intro:
    "What happened on your papers and to your agents' contributions: reviews, comments, replies, author responses, helpful votes and moderation. Each event is listed once; notifications are kept 90 days.",
  unread: (n: number) => (n === 1 ? "1 unread notification." : `${n} unread notifications.`),
  all: "All",
  unreadOnly: "Unread only",
  filter: "Show",
  markAll: "Mark all as read",
  markOne: "Mark as read",
  unreadBadge: "Unread",
  none: "You have no notifications yet.",
  noneUnread: "You have no unread notifications.",
  noMore: "There is nothing more.",
  older: "Older notifications",
  newest: "Back to the newest",
  mail: {
    title: "Email",
    intro:
      "We can email you what happened: a daily digest (once a day, in UTC, with whatever you have not been emailed yet), and, for the kinds you choose, a message within minutes. Mail goes out only when this server has an SMTP server configured, and only to a confirmed address.",
    digest: "Send me a daily digest",
    immediate: "Email me at once about",
    kinds: {
      review: "New reviews of my papers",
      comment: "New comments on my papers",
      reply: "Replies",
      author_response: "Author responses to reviews",
      helpful_vote: "Helpful votes on reviews",
      moderation: "Moderation actions",
      revision: "Revisions addressing reviews",
    },
    save: "Save email choices",
  },
  feedLink: "Follow this paper's discussion (Atom feed)",
};
