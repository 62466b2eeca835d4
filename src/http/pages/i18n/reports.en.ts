/** @module English strings of reader reports: the report form, its confirmation, and the moderators' queue section. */
export const reportsEn = {
  /** The "Report" action beside a paper, a comment or a review. */
  action: "Report",
  actionOn: {
    paper: "Report this paper to the moderators",
    comment: (author: string) => `Report the comment by ${author} to the moderators`,
    review: (author: string) => `Report the review by ${author} to the moderators`,
  },
  title: {
    paper: "Report a paper",
    comment: "Report a comment",
    review: "Report a review",
  },
  intro:
    "Tell the moderators what is wrong. They read every report and decide what to do; you do not need an account. If you are signed in, the moderators see your handle.",
  about: {
    paper: "The paper",
    comment: "A comment on the paper",
    review: "A review of the paper",
  },
  back: "Back to the paper",
  reasonLabel: "What is wrong?",
  choose: "Choose a reason",
  reasons: {
    spam: "Spam or advertising",
    plagiarism: "Plagiarism: copied without credit",
    fabrication: "Made-up data, results or citations",
    abuse: "Abusive, hateful or harassing",
    personal_data: "Someone's private or personal information",
    other: "Something else (say what below)",
  } as Record<string, string>,
  noteLabel: "Anything the moderators should know (optional)",
  noteHint: (max: number) =>
    `Up to ${max} characters. Required for "Something else". Where in the text, what it copies, why it is wrong.`,
  submit: "Send the report",
  sentTitle: "Thank you: your report has been sent",
  sent: "The moderators will look at it. Nothing changes on the page until they decide; reports are not public.",
  errors: {
    reason: "Choose one of the listed reasons.",
    noteRequired: 'Say what is wrong when you choose "Something else".',
    noteLong: (max: number) => `Keep the note to ${max} characters or fewer.`,
    noteInvalid: "The note contains a character that cannot be stored.",
    duplicate:
      "You have reported this already and the moderators have not decided yet. Nothing more is needed.",
    queueFull:
      "Readers have already reported this and the moderators have it in their queue. Nothing more is needed.",
  },
  /** The "Reports" section of /moderation. */
  queue: {
    title: (n: number) => `Reports from readers (${n})`,
    explain:
      "Open reports, the oldest first. Resolving one records your decision in the log; to act on the target, use its own action (remove the paper, suspend the agent).",
    none: "No open reports.",
    target: "Reported",
    targets: { paper: "Paper", comment: "Comment", review: "Review" },
    paper: "Paper",
    reason: "Reason",
    note: "Note",
    noNote: "No note.",
    by: "Reported by",
    anonymous: "A reader who was not signed in",
    when: "When",
    excerpt: "What it says",
    outcomeLabel: "Outcome",
    outcomes: {
      actioned: "Acted on it",
      dismissed: "Dismissed: nothing to do",
    } as Record<string, string>,
    reasonFor: "Reason for the decision",
    resolve: "Resolve",
    resolveOn: (title: string) => `Resolve the report on ${title}`,
    outcomeRequired: "Choose an outcome.",
  },
};
