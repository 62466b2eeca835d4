/** @module The diff page (`/papers/{id}/diff?from=1&to=2`): what changed between two versions. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Invalid } from "../../services/errors.ts";
import {
  type DiffPart,
  diffPaperVersions,
  type FieldDiff,
  listPaperVersions,
  type PaperVersions,
  type VersionDiff,
} from "../../services/papers/index.ts";
import type { AppEnv } from "../env.ts";
import { formatDate } from "./i18n/index.ts";
import { renderPage } from "./layout.tsx";
import { type Page, registerPage } from "./page.ts";
import { formatCount } from "./reading-parts.tsx";

/** Unchanged stretches of the body longer than this many lines are folded to their ends. */
const CONTEXT_LINES = 3;

export function registerPaperDiffPage(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/papers/:id/diff", (p) => diffPage(p));
}

/** A version number from the query; anything but 1–6 digits is NaN, which the service refuses. */
function versionParam(p: Page, name: string, fallback: number): number {
  const raw = p.c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  return /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
}

async function diffPage(p: Page): Promise<Response> {
  const t = p.t.reading.diff;
  const id = p.c.req.param("id") ?? "";
  const versions = await listPaperVersions(p.ctx, { id });
  const paperId = versions.paper_id;
  const current = versions.current_version;
  const to = versionParam(p, "to", current);
  const from = versionParam(p, "from", Number.isInteger(to) && to > 1 ? to - 1 : 1);
  let diff: VersionDiff | null = null;
  let status = 200;
  let message: string | null = null;
  if (current === 1) {
    message = t.onlyOne;
  } else {
    try {
      diff = await diffPaperVersions(p.ctx, { id: paperId, from, to });
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      status = 400;
      message = t.badVersions;
    }
  }
  const title = versions.versions.at(-1)?.title ?? paperId;
  return renderPage(p, {
    title: `${t.title(paperId)} · ${title}`,
    status,
    alternatePath: diff
      ? `/papers/${paperId}/diff?from=${diff.from.version}&to=${diff.to.version}`
      : `/papers/${paperId}/diff`,
    body: (
      <>
        <p>
          <a href={p.href(`/papers/${paperId}`)}>
            {t.back}: {title}
          </a>
        </p>
        <h1>{diff ? t.heading(diff.from.version, diff.to.version) : t.title(paperId)}</h1>
        {message ? (
          <p class={status === 200 ? "notice" : "warning"} id="diff-message" role="alert">
            {message}
          </p>
        ) : null}
        {current > 1 ? (
          <Chooser p={p} versions={versions} from={diff?.from.version} to={diff?.to.version} />
        ) : null}
        {diff ? <DiffView p={p} diff={diff} /> : null}
      </>
    ),
  });
}

function Chooser({
  p,
  versions,
  from,
  to,
}: {
  p: Page;
  versions: PaperVersions;
  from: number | undefined;
  to: number | undefined;
}) {
  const t = p.t.reading.diff;
  const select = (name: "from" | "to", label: string, chosen: number | undefined) => (
    <div class="field inline-field">
      <label for={`diff-${name}`}>{label}</label>
      <select id={`diff-${name}`} name={name}>
        {versions.versions.map((v) => (
          <option value={String(v.version)} selected={v.version === chosen}>
            {`v${v.version} · ${formatDate(p.lang, v.created_at)}`}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      method="get"
      action={p.href(`/papers/${versions.paper_id}/diff`)}
      class="diff-chooser"
      aria-labelledby="chooser-title"
    >
      <h2 id="chooser-title">{t.chooser}</h2>
      {select("from", t.from, from)}
      {select("to", t.to, to)}
      <button type="submit">{t.show}</button>
    </form>
  );
}

function DiffView({ p, diff }: { p: Page; diff: VersionDiff }) {
  const t = p.t.reading.diff;
  const r = p.t.reading.paper;
  return (
    <>
      <p class="muted" id="diff-legend">
        {t.legend}
      </p>
      <dl class="details">
        {[diff.from, diff.to].map((v) => (
          <div>
            <dt>{`v${v.version} · ${formatDate(p.lang, v.created_at)}`}</dt>
            <dd>
              {r.changelog}: {v.changelog ?? r.noChangelog}
            </dd>
          </div>
        ))}
      </dl>
      {diff.fields.map((field) => (
        <section aria-labelledby={`diff-${field.field}-title`} id={`diff-${field.field}`}>
          <h2 id={`diff-${field.field}-title`}>{t.fieldNames[field.field]}</h2>
          {field.changed ? (
            <FieldChanges p={p} field={field} />
          ) : (
            <p class="muted">{t.unchanged}</p>
          )}
        </section>
      ))}
    </>
  );
}

function FieldChanges({ p, field }: { p: Page; field: FieldDiff }) {
  const t = p.t.reading.diff;
  if (field.field === "keywords") {
    return (
      <ul class="diff-keywords">
        {field.parts.map((part) => (
          <li>
            <Change p={p} part={part} />
          </li>
        ))}
      </ul>
    );
  }
  const parts = field.field === "body" ? foldUnchanged(field.parts) : field.parts;
  return (
    <div class="diff">
      {parts.map((part) =>
        "skipped" in part ? (
          <span class="diff-skip">
            {"\n"}
            {`⋯ ${t.skipped(part.skipped, formatCount(p, part.skipped))} ⋯`}
            {"\n"}
          </span>
        ) : (
          <Change p={p} part={part} />
        ),
      )}
    </div>
  );
}

/** One part: `<del>`/`<ins>` with words a screen reader announces (never colour alone). */
function Change({ p, part }: { p: Page; part: DiffPart }) {
  const t = p.t.reading.diff;
  if (part.op === "same") return <span>{part.text}</span>;
  if (part.op === "removed") {
    return (
      <del>
        <span class="visually-hidden">{t.removedStart}</span>
        {part.text}
        <span class="visually-hidden">{t.removedEnd}</span>
      </del>
    );
  }
  return (
    <ins>
      <span class="visually-hidden">{t.addedStart}</span>
      {part.text}
      <span class="visually-hidden">{t.addedEnd}</span>
    </ins>
  );
}

/** Long unchanged stretches keep a few lines at each end; the middle becomes a count. */
function foldUnchanged(parts: DiffPart[]): (DiffPart | { skipped: number })[] {
  const out: (DiffPart | { skipped: number })[] = [];
  parts.forEach((part, i) => {
    if (part.op !== "same") {
      out.push(part);
      return;
    }
    const lines = part.text.split("\n");
    const keepHead = i === 0 ? 0 : CONTEXT_LINES;
    const keepTail = i === parts.length - 1 ? 0 : CONTEXT_LINES;
    if (lines.length <= keepHead + keepTail + 2) {
      out.push(part);
      return;
    }
    const head = lines.slice(0, keepHead);
    const tail = lines.slice(lines.length - keepTail);
    const skipped = lines.length - head.length - tail.length;
    if (head.length > 0) out.push({ op: "same", text: `${head.join("\n")}\n` });
    out.push({ skipped });
    if (tail.length > 0) out.push({ op: "same", text: tail.join("\n") });
  });
  return out;
}
