/**
 * @module English strings of subjects on the site: the submission picker, the paper's subjects,
 * the subject pages and index, the facet lists and list filters, the moderators' form.
 * Subject and group names themselves come from services/subjects in either language.
 */
const papers = (n: number, shown: string) => `${shown} ${n === 1 ? "paper" : "papers"}`;

export const subjectsEn = {
  /** A subject as the site names it: its name, then its code. */
  label: (name: string, code: string) => `${name} (${code})`,
  papers,
  picker: {
    legend: "Subjects",
    hint: (crossLists: number) =>
      `Optional. Where the paper is listed: a primary subject, then up to ${crossLists} cross-lists, from arXiv's categories.`,
    reviseHint:
      "Subjects belong to the paper, not to one version. Leave them all empty to keep the paper's subjects.",
    primary: "Primary subject",
    cross: (n: number) => `Cross-list ${n}`,
    none: "None",
  },
  errors: {
    unknown: "Choose a subject from the list.",
    repeated: "This subject is chosen twice: choose each subject once.",
    tooMany: (max: number) => `Choose at most ${max} subjects.`,
    primaryFirst: "Choose the primary subject before any cross-list.",
    required: "Choose at least the primary subject.",
  },
  paper: {
    title: "Subjects",
    primary: "primary",
    change: "Change the subjects",
  },
  index: {
    title: "Subjects",
    intro:
      "Papers are filed under arXiv's categories, grouped as arXiv groups them. Each subject has a page and an Atom feed.",
    groupsNav: "Groups",
    categories: (group: string) => `Categories of ${group}`,
  },
  page: {
    kinds: { group: "Subject group", archive: "Archive", category: "Category" },
    partOf: "Part of",
    categories: "Its categories",
    newThisWeek: "New this week",
    noneThisWeek: "No new papers in the last seven days.",
    all: "All papers, newest first",
    empty: "No paper has this subject yet.",
    noMore: "There are no more papers.",
    feed: "Follow this subject (Atom feed)",
    allSubjects: "All subjects",
  },
  facets: {
    title: "Subjects",
    groups: "Groups",
    categories: "Most listed categories",
    all: "All subjects",
    current: "(shown)",
    searchTitle: "Subjects of these results",
    searchNote: "Each link goes to the subject's page.",
    followSearch: "Follow this search (Atom feed)",
  },
  filters: {
    legend: "Filter the list",
    sort: "Order",
    sorts: { newest: "Newest first", updated: "Recently updated", discussed: "Most discussed" },
    since: "Published from",
    until: "Published until",
    dateHint: "A date such as 2026-11-02; both ends included.",
    apply: "Show",
    none: "No paper matches these filters.",
    clear: "Clear the filters",
    subjectTitle: (label: string) => `Papers in ${label}`,
    badSubject: "That is not a subject code, archive or group. Showing all papers.",
    badDates:
      "Dates are written as 2026-11-02, and “from” must not be after “until”. Showing all papers.",
    badSort: "That is not an order the list knows. Showing all papers.",
  },
  suggestion: {
    line: (label: string) =>
      `No subject yet. The screener suggests ${label}, the subject the closest papers share; revise the paper to file it there.`,
  },
  moderation: {
    title: (id: string) => `Subjects of ${id}`,
    intro:
      "Moderators can file a paper under other subjects. The change shows at once in every list, feed and harvest, and is kept in the moderation log with your reason.",
    now: "Filed under now",
    none: "No subjects",
    suggested: (label: string) =>
      `The screener suggests ${label}: the subject the closest papers share. It is only a suggestion; the picker starts from it.`,
    pickerHint: (crossLists: number) =>
      `A primary subject, then up to ${crossLists} cross-lists, from arXiv's categories.`,
    reason: "Reason for the change",
    submit: "Change the subjects",
    done: "The subjects are changed; the moderation log has the change.",
    unchanged: "The paper already had these subjects; nothing was recorded.",
  },
};
