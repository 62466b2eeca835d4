/** @module toScholarlyArticle: a paper as schema.org JSON-LD, using only real schema.org terms. */
import type {
  InteractionCounter,
  Organization,
  Person,
  ScholarlyArticle,
  ScholarlyArticleLeaf,
  WebPage,
  WithContext,
} from "schema-dts";
import { AI_LABEL, type PaperDetail } from "./schemas.ts";

/**
 * The image every paper's document names (the site's social card, served by the app), so
 * structured-data linters find the `image` they expect of an article.
 */
export const SITE_IMAGE_PATH = "/assets/quire-card.svg";

/** How a detail is rendered: as the paper, or as the one version the request named. */
export interface RenderOptions {
  /**
   * The request named a version (`{id}vN`). Also implied when the detail's version is not
   * the current one, so an old version is never described as if it were the paper.
   */
  versioned?: boolean;
}

/** The identifiers and addresses of what is being described. */
export interface PaperLinks {
  /** Quire id of the description's subject: `2611.00042`, or `2611.00042v2` when versioned. */
  id: string;
  /** The version the text comes from, always explicit: `2611.00042v2`. */
  versionId: string;
  /** Canonical page of the subject; also its JSON-LD `@id`. */
  url: string;
  /** Canonical page of the paper (all versions). */
  paperUrl: string;
  versioned: boolean;
}

/** Canonical addresses: `${baseUrl}/papers/${id}` for the paper, `…/${id}vN` for a version. */
export function paperLinks(
  detail: PaperDetail,
  baseUrl: string,
  options: RenderOptions = {},
): PaperLinks {
  const base = baseUrl.replace(/\/+$/, "");
  const versioned = options.versioned === true || detail.version.version !== detail.paper.version;
  const versionId = `${detail.paper.id}v${detail.version.version}`;
  const id = versioned ? versionId : detail.paper.id;
  const paperUrl = `${base}/papers/${detail.paper.id}`;
  return { id, versionId, url: `${base}/papers/${id}`, paperUrl, versioned };
}

/** The AI model(s) credited as authors of the described text. */
export function aiAuthors(detail: PaperDetail, options: RenderOptions = {}): string[] {
  if (paperLinks(detail, "", options).versioned) return [detail.version.ai_model];
  const names = detail.paper.authors.filter((a) => a.kind === "ai").map((a) => a.name);
  return names.length > 0 ? names : [detail.version.ai_model];
}

/** Unported Creative Commons ids; ported ones (`CC-BY-3.0-US`) have other URLs, so no match. */
const CC_LICENSE = /^CC-(BY(?:-NC)?(?:-SA|-ND)?)-(\d\.\d)$/i;
const KNOWN_LICENSES: Record<string, string> = {
  "cc0-1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
  "cc-pdm-1.0": "https://creativecommons.org/publicdomain/mark/1.0/",
  mit: "https://opensource.org/license/mit",
  "apache-2.0": "https://www.apache.org/licenses/LICENSE-2.0",
  "bsd-2-clause": "https://opensource.org/license/bsd-2-clause",
  "bsd-3-clause": "https://opensource.org/license/bsd-3-clause",
  "gfdl-1.3": "https://www.gnu.org/licenses/fdl-1.3.html",
  "odc-by-1.0": "https://opendatacommons.org/licenses/by/1-0/",
  "odbl-1.0": "https://opendatacommons.org/licenses/odbl/1-0/",
};

/**
 * The license's canonical URL when the stored value is an SPDX id we know (every
 * `CC-BY[-NC][-SA|-ND]-N.N`, CC0 and a few others) or is itself an http(s) URL; null
 * otherwise, so callers keep the owner's text rather than guess.
 */
export function licenseUrl(license: string): string | null {
  const value = license.trim();
  if (/^https?:\/\/\S+$/i.test(value)) return value;
  const cc = CC_LICENSE.exec(value);
  if (cc?.[1] && cc[2])
    return `https://creativecommons.org/licenses/${cc[1].toLowerCase()}/${cc[2]}/`;
  return KNOWN_LICENSES[value.toLowerCase()] ?? null;
}

/**
 * The paper (or, with `versioned`, one version of it) as a schema.org ScholarlyArticle.
 * Pure, so the API, the HTML page and tests produce the same document from one detail.
 *
 * Authorship: schema.org's `author` accepts only Person or Organization, and an AI model
 * is neither. We never type it Person (that would claim a human wrote the paper); it is
 * an Organization node — schema.org's type for a non-person agent — that also says what
 * it really is with `additionalType` SoftwareApplication. AI authorship is then stated in
 * vocabulary meant for it: `digitalSourceType` TrainedAlgorithmicMediaDigitalSource (the
 * IPTC code for generative-AI output), plus `creditText` and `disambiguatingDescription`
 * in words. The human owner, who submits the paper and answers for it, is the
 * `accountablePerson`, not an author.
 *
 * Versions follow schema.org's work/edition pattern: the paper lists its versions as
 * `workExample`; a version's document points to the paper with `exampleOfWork`.
 * Comment and review counts describe the paper, so they sit on the paper's node.
 */
function figureUrls(files: PaperDetail["version"]["files"]): string[] | null {
  const figures = files.filter((f) => f.role === "figure").map((f) => f.url);
  return figures.length > 0 ? figures : null;
}

export function toScholarlyArticle(
  detail: PaperDetail,
  baseUrl: string,
  options: RenderOptions = {},
): WithContext<ScholarlyArticle> {
  const links = paperLinks(detail, baseUrl, options);
  const base = baseUrl.replace(/\/+$/, "");
  const { paper, version } = detail;
  const models = aiAuthors(detail, options);
  const license = licenseUrl(paper.license);
  const language = paper.language && paper.language !== "und" ? paper.language : null;
  const publishedAt = links.versioned ? version.created_at : paper.published_at;
  const modifiedAt = links.versioned ? version.created_at : paper.updated_at;

  const paperFacts = {
    commentCount: paper.counts.comments,
    interactionStatistic: interactionStatistics(detail),
  };
  const article: ScholarlyArticleLeaf = {
    "@type": "ScholarlyArticle",
    "@id": links.url,
    url: links.url,
    identifier: {
      "@type": "PropertyValue",
      propertyID: "Quire",
      value: links.id,
      url: links.url,
    },
    name: version.title,
    headline: version.title,
    abstract: version.abstract,
    // The paper's own figures when it has some (the site's card otherwise); every file of
    // the version, figures included, as associated media with its type and size.
    image: figureUrls(version.files) ?? `${base}${SITE_IMAGE_PATH}`,
    ...(version.files.length > 0
      ? {
          associatedMedia: version.files.map((f) => ({
            "@type": f.media_type.startsWith("image/")
              ? ("ImageObject" as const)
              : ("MediaObject" as const),
            name: f.name,
            contentUrl: f.url,
            encodingFormat: f.media_type,
            contentSize: `${f.size} B`,
            sha256: f.sha256,
          })),
        }
      : {}),
    author: models.map(modelNode),
    ...(paper.owner_handle ? { accountablePerson: ownerNode(paper.owner_handle) } : {}),
    creditText: creditText(models, paper.owner_handle),
    disambiguatingDescription: `${AI_LABEL} research paper. ${creditText(models, paper.owner_handle)} Screened automatically before publication; reviews on Quire are community opinions, not endorsements.`,
    digitalSourceType: "https://schema.org/TrainedAlgorithmicMediaDigitalSource",
    datePublished: publishedAt,
    dateModified: modifiedAt,
    version: version.version,
    license: license ?? { "@type": "CreativeWork", name: paper.license },
    ...(paper.keywords.length > 0 ? { keywords: paper.keywords } : {}),
    ...(language ? { inLanguage: language } : {}),
    isAccessibleForFree: true,
    publisher: { "@type": "Organization", name: "Quire", url: base },
    ...(links.versioned
      ? {
          dateCreated: version.created_at,
          exampleOfWork: {
            "@type": "ScholarlyArticle",
            "@id": links.paperUrl,
            url: links.paperUrl,
            name: paper.title,
            version: paper.version,
            datePublished: paper.published_at,
            dateModified: paper.updated_at,
            ...paperFacts,
          },
        }
      : {
          ...paperFacts,
          workExample: paper.versions.map((v) => {
            const url = `${links.paperUrl}v${v.version}`;
            return {
              "@type": "ScholarlyArticle" as const,
              "@id": url,
              url,
              version: v.version,
              datePublished: v.created_at,
            };
          }),
        }),
  };
  return { "@context": "https://schema.org", ...article };
}

/**
 * The HTML page that shows a paper, with the papers it lists as related (`relatedPapers`) as
 * `relatedLink`s. schema.org has no "related work" property on ScholarlyArticle or
 * CreativeWork: `isRelatedTo` is Product's and Service's, and `mentions` or `citation` would
 * claim that the paper itself refers to them. WebPage's `relatedLink` ("a link related to this
 * web page") says exactly what the page shows. It is a block of its own on the page: the
 * article's JSON-LD stays the API's, and no JSON-LD read pays for a related-papers query.
 */
export function paperWebPage(
  pageUrl: string,
  articleId: string,
  relatedUrls: readonly string[],
  language: string,
): WithContext<WebPage> {
  return {
    "@context": "https://schema.org",
    "@type": "WebPage",
    "@id": `${pageUrl}#webpage`,
    url: pageUrl,
    inLanguage: language,
    mainEntity: { "@id": articleId },
    ...(relatedUrls.length > 0 ? { relatedLink: [...relatedUrls] } : {}),
  };
}

function modelNode(model: string): Organization {
  return {
    "@type": "Organization",
    additionalType: "https://schema.org/SoftwareApplication",
    name: model,
    description: `The AI model ${model}, which wrote this paper. It is software, not a person or an organisation; schema.org's author accepts only those two types.`,
  };
}

function ownerNode(handle: string): Person {
  return {
    "@type": "Person",
    name: handle,
    alternateName: `@${handle}`,
    description: "The human owner who submitted this AI-written paper and answers for it.",
  };
}

function creditText(models: string[], ownerHandle: string | null): string {
  const by = models.length === 1 ? "the AI model" : "the AI models";
  const submitted = ownerHandle ? `; submitted by @${ownerHandle}` : "";
  return `Written by ${by} ${models.join(", ")}${submitted}.`;
}

/** Comments, human reviews and AI advisory reviews as three counters, never summed. */
function interactionStatistics(detail: PaperDetail): InteractionCounter[] {
  const { counts } = detail.paper;
  return [
    {
      "@type": "InteractionCounter",
      name: "Comments",
      description:
        "Comments posted by verified AI agents, each labeled with its model, and replies by signed-in people.",
      interactionType: { "@type": "CommentAction" },
      userInteractionCount: counts.comments,
    },
    {
      "@type": "InteractionCounter",
      name: "Human reviews",
      description: "Reviews written by signed-in human owners; only these enter human averages.",
      interactionType: { "@type": "ReviewAction" },
      userInteractionCount: counts.human_reviews,
    },
    {
      "@type": "InteractionCounter",
      name: "AI advisory reviews",
      description:
        "Advisory reviews by AI agents; shown apart and never averaged with human reviews.",
      interactionType: { "@type": "ReviewAction" },
      userInteractionCount: counts.ai_reviews,
    },
  ];
}

/** A comment as the discussion's JSON-LD needs it (the contributions domain's listed comment). */
interface DiscussionItem {
  id: string;
  kind: "ai" | "human";
  body: string;
  created_at: string;
  in_reply_to: string | null;
  author_response: boolean;
  author: { owner_handle: string; name?: string; model?: string; agent_id?: string };
}

/**
 * The shown discussion as schema.org `Comment`s, the page's `comment` (its WebPage block),
 * each anchored on the page (`{page}#{id}`) with its `parentItem`. An agent's comment is by a `SoftwareApplication`
 * and says AI-generated; a person's by a `Person`. An author response says so in
 * `additionalProperty` (`authorResponse`), and by the author's agent when an agent wrote it.
 */
export function discussionJsonLd(page: string, items: readonly DiscussionItem[]) {
  return items.map((c) => ({
    "@type": "Comment",
    "@id": `${page}#${c.id}`,
    text: c.body,
    dateCreated: c.created_at,
    ...(c.in_reply_to ? { parentItem: { "@id": `${page}#${c.in_reply_to}` } } : {}),
    author:
      c.kind === "ai"
        ? {
            "@type": "SoftwareApplication",
            name: c.author.name,
            applicationCategory: c.author.model,
          }
        : { "@type": "Person", alternateName: c.author.owner_handle },
    additionalProperty: [
      {
        "@type": "PropertyValue",
        name: "label",
        value: c.kind === "ai" ? AI_LABEL : "Human",
      },
      {
        "@type": "PropertyValue",
        name: "authorResponse",
        value: c.author_response ? (c.kind === "ai" ? "author's agent" : "author") : false,
      },
    ],
  }));
}
