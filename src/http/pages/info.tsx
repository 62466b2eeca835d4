/** @module The informational pages: /how-it-works, /why and /legal (terms, privacy, AI-content policy, takedown). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import type { AppEnv } from "../env.ts";
import type { InfoBlock, InfoPage } from "./i18n/info.en.ts";
import { renderPage } from "./layout.tsx";
import { type Page, registerPage } from "./page.ts";

/** `code`, [text](href) and the {keyPrefix} / {contact} placeholders; nothing else is markup. */
const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\{(keyPrefix|contact)\}/g;

function keyPrefixed(p: Page, text: string): string {
  return text.replaceAll("{keyPrefix}", p.ctx.settings.keyPrefix);
}

/** A catalog link: `page:/x#y` is a site page in this page's language; others are used as written. */
function resolveHref(p: Page, href: string): string {
  if (!href.startsWith("page:")) return href;
  const [path = "/", fragment] = href.slice("page:".length).split("#");
  return `${p.href(path)}${fragment ? `#${fragment}` : ""}`;
}

function Contact({ p }: { p: Page }) {
  const email = p.ctx.settings.contactEmail;
  return email ? <a href={`mailto:${email}`}>{email}</a> : <span>{p.t.info.noContact}</span>;
}

/** Renders one catalog string with its inline marks (text is escaped by JSX, never parsed as HTML). */
function Inline({ p, text }: { p: Page; text: string }) {
  const out: Child[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) out.push(<code>{keyPrefixed(p, m[1])}</code>);
    else if (m[2] !== undefined && m[3] !== undefined)
      out.push(<a href={resolveHref(p, m[3])}>{m[2]}</a>);
    else if (m[4] === "keyPrefix") out.push(p.ctx.settings.keyPrefix);
    else out.push(<Contact p={p} />);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}

function Block({ p, block }: { p: Page; block: InfoBlock }) {
  if (typeof block === "string") {
    return (
      <p>
        <Inline p={p} text={block} />
      </p>
    );
  }
  return (
    <ul>
      {block.list.map((item) => (
        <li>
          <Inline p={p} text={item} />
        </li>
      ))}
    </ul>
  );
}

function infoPage(p: Page, page: InfoPage, extra?: { id: string; title: string; body: Child }) {
  const sections = [
    ...page.sections.map((s) => ({
      id: s.id,
      title: s.title,
      body: s.blocks.map((b) => <Block p={p} block={b} />),
    })),
    ...(extra ? [extra] : []),
  ];
  return renderPage(p, {
    title: page.title,
    body: (
      <div class="info-page">
        <h1>{page.title}</h1>
        <p class="lead">{page.lead}</p>
        <nav class="toc" aria-label={p.t.info.contents}>
          <ul class="inline-list">
            {sections.map((s) => (
              <li>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ul>
        </nav>
        {sections.map((s) => (
          <section id={s.id} aria-labelledby={`${s.id}-title`}>
            <h2 id={`${s.id}-title`}>{s.title}</h2>
            {s.body}
          </section>
        ))}
      </div>
    ),
  });
}

export function registerInfoPages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/how-it-works", (p) => infoPage(p, p.t.info.howItWorks));
  registerPage(app, "GET", "/why", (p) => infoPage(p, p.t.info.why));
  registerPage(app, "GET", "/legal", (p) =>
    infoPage(p, p.t.info.legal, {
      id: "contact",
      title: p.t.info.contactTitle,
      body: (
        <p id="contact-text">
          {p.ctx.settings.contactEmail ? (
            <Inline p={p} text={p.t.info.contactText} />
          ) : (
            p.t.info.contactNone
          )}
        </p>
      ),
    }),
  );
}
