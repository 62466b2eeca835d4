/**
 * @module /notifications: the signed-in owner's inbox (newest first, unread only, mark read)
 * and their notification mail choices (a daily digest by default, immediate mail per kind).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  getMailPreferences,
  listNotifications,
  type MailPreferences,
  markNotificationsRead,
  NOTIFICATION_KINDS,
  type NotificationList,
  setMailPreferences,
} from "../../services/notifications/index.ts";
import type { AppEnv } from "../env.ts";
import { formatDate } from "./i18n/index.ts";
import { CsrfField, Notice, renderPage } from "./layout.tsx";
import { type Page, registerPage } from "./page.ts";
import { cursorParam } from "./paper/data.ts";

const PAGE_SIZE = 25;

function signInFirst(p: Page): Response {
  return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=/notifications`, 303);
}

async function inboxPage(p: Page): Promise<Response> {
  if (!p.session) return signInFirst(p);
  const unreadOnly = p.c.req.query("unread") === "1";
  const cursor = cursorParam(p, "cursor");
  const [list, mail] = await Promise.all([
    listNotifications(p.ctx, { limit: PAGE_SIZE, cursor, unreadOnly, lang: p.lang }),
    getMailPreferences(p.ctx),
  ]);
  return renderPage(p, {
    title: p.t.notifications.title,
    body: (
      <Inbox p={p} list={list} mail={mail} unreadOnly={unreadOnly} paged={cursor !== undefined} />
    ),
  });
}

function Inbox(props: {
  p: Page;
  list: NotificationList;
  mail: MailPreferences;
  unreadOnly: boolean;
  paged: boolean;
}) {
  const { p, list, unreadOnly } = props;
  const t = p.t.notifications;
  const here = p.href("/notifications");
  const filter = unreadOnly ? "unread=1&" : "";
  const newest = list.notifications[0];
  return (
    <>
      <h1>{t.title}</h1>
      <Notice p={p} />
      <p class="lead">{t.intro}</p>
      <p id="unread-count" role="status">
        {t.unread(list.unread_count)}
      </p>
      <nav aria-label={t.filter}>
        <ul class="inline-list">
          <li>
            <a href={here} aria-current={unreadOnly ? undefined : "page"}>
              {t.all}
            </a>
          </li>
          <li>
            <a href={`${here}?unread=1`} aria-current={unreadOnly ? "page" : undefined}>
              {t.unreadOnly}
            </a>
          </li>
        </ul>
      </nav>
      {newest && list.unread_count > 0 ? (
        <form method="post" action={p.href("/notifications/read")} id="mark-all-form">
          <CsrfField p={p} />
          <input type="hidden" name="up_to" value={newest.created_at} />
          <button type="submit" class="secondary">
            {t.markAll}
          </button>
        </form>
      ) : null}
      {list.notifications.length === 0 ? (
        <p id="no-notifications">{props.paged ? t.noMore : unreadOnly ? t.noneUnread : t.none}</p>
      ) : (
        <ol class="notifications" id="notifications">
          {list.notifications.map((n) => (
            <li class={n.read_at ? "read" : "unread"} id={n.id}>
              {n.read_at ? null : <strong class="badge">{t.unreadBadge}</strong>}{" "}
              <a href={n.url}>{n.summary}</a>{" "}
              <time datetime={n.created_at} class="muted">
                {formatDate(p.lang, n.created_at)}
              </time>
              {n.read_at ? null : (
                <form method="post" action={p.href("/notifications/read")} class="inline">
                  <CsrfField p={p} />
                  <input type="hidden" name="ids" value={n.id} />
                  <button type="submit" class="secondary">
                    {t.markOne}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ol>
      )}
      {list.next_cursor || props.paged ? (
        <nav aria-label={t.older} class="pager">
          <ul class="inline-list">
            {props.paged ? (
              <li>
                <a href={unreadOnly ? `${here}?unread=1` : here}>{t.newest}</a>
              </li>
            ) : null}
            {list.next_cursor ? (
              <li>
                <a
                  href={`${here}?${filter}cursor=${encodeURIComponent(list.next_cursor)}`}
                  rel="next"
                >
                  {t.older}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
      <MailChoices p={p} mail={props.mail} />
    </>
  );
}

function MailChoices({ p, mail }: { p: Page; mail: MailPreferences }) {
  const t = p.t.notifications.mail;
  return (
    <section aria-labelledby="mail-title">
      <h2 id="mail-title">{t.title}</h2>
      <p>{t.intro}</p>
      <form method="post" action={p.href("/notifications/mail")} id="mail-form">
        <CsrfField p={p} />
        <p>
          <input type="checkbox" id="digest" name="digest" value="on" checked={mail.digest} />{" "}
          <label for="digest">{t.digest}</label>
        </p>
        <fieldset>
          <legend>{t.immediate}</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <p>
              <input
                type="checkbox"
                id={`immediate-${kind}`}
                name={`immediate-${kind}`}
                value="on"
                checked={mail.immediate.includes(kind)}
              />{" "}
              <label for={`immediate-${kind}`}>{t.kinds[kind]}</label>
            </p>
          ))}
        </fieldset>
        <button type="submit">{t.save}</button>
      </form>
    </section>
  );
}

export function registerNotificationPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/notifications", inboxPage);
  registerPage(app, "POST", "/notifications/read", async (p) => {
    if (!p.session) return signInFirst(p);
    const ids = p.form.ids;
    await markNotificationsRead(p.ctx, ids ? { ids: [ids] } : { up_to: p.form.up_to });
    return p.c.redirect(`${p.href("/notifications")}?notice=notifications-read`, 303);
  });
  registerPage(app, "POST", "/notifications/mail", async (p) => {
    if (!p.session) return signInFirst(p);
    await setMailPreferences(p.ctx, {
      digest: p.form.digest === "on",
      immediate: NOTIFICATION_KINDS.filter((kind) => p.form[`immediate-${kind}`] === "on"),
      lang: p.lang,
    });
    return p.c.redirect(`${p.href("/notifications")}?notice=mail-saved`, 303);
  });
}
