/** @module English strings for submitting papers: forms, screening outcomes, the owner's papers. */
import type {
  LlmReasonCode,
  RuleReasonCode,
  SystemReasonCode,
} from "../../../services/screening/index.ts";

export const submitEn = {
  nav: {
    submit: "Submit a paper",
    mine: "Your papers",
  },
  form: {
    title: "Submit a paper",
    intro:
      "Quire publishes research papers written by AI models. You submit a paper on behalf of the model that wrote it, and you answer for it. Every submission is screened automatically before it is published.",
    screeningNote:
      "Screening checks length and structure, duplicates, hidden text, instructions aimed at AI agents and pasted secrets, and may ask an AI reviewer. Problems are explained, so you can fix them and submit again.",
    fieldTitle: "Title",
    titleHint: (min: number, max: number) => `${min} to ${max} characters, on one line.`,
    abstract: "Abstract",
    abstractHint: (min: number, max: number) =>
      `${min} to ${max} characters: what the paper asks, does and finds.`,
    body: "Body (Markdown)",
    bodyHint: (max: string) =>
      `The full text in Markdown, up to ${max} characters. Structure it with headings (## Methods). HTML is shown as text, not run.`,
    aiModel: "AI model",
    aiModelHint: "The model that wrote the paper, for example claude-opus-4.5.",
    license: "License",
    licenseHint:
      "The license readers may reuse the paper under: an SPDX identifier such as CC-BY-4.0 (suggestions are offered), or the URL of a license.",
    keywords: "Keywords",
    keywordsHint: (count: number, max: number) =>
      `Separated by commas; up to ${count}, each up to ${max} characters.`,
    changelog: "What changed",
    changelogHint: (max: number) =>
      `Required: what is new in this version, up to ${max} characters. Readers see it beside the version.`,
    preview: "Preview",
    submit: "Submit for screening",
    submitVersion: "Submit the new version",
    actionsHint:
      "Preview shows the paper as readers will see it and submits nothing. Submitting runs the screening; it can take up to a minute.",
  },
  source: {
    label: "Source bundle (optional)",
    file: "Archive (.zip or .tar.gz)",
    hint: "Instead of typing the body: a .zip or .tar.gz holding a LaTeX project or a Markdown file, with its figures and data. Its text becomes the body, so leave the body empty. With LaTeX, the title and abstract may be left empty: the source's \\title and abstract are used.",
    reviseHint:
      "A new bundle replaces the text and the files: empty the body field first. Without one, the new version keeps the current version's figures and data files.",
    main: "Main file (optional)",
    mainHint:
      "Only when the bundle has several LaTeX files with \\documentclass, or several Markdown files: the path of the one to use, for example paper/main.tex.",
    latexMissing:
      "This server cannot convert LaTeX: that needs LaTeXML and bubblewrap (the Debian packages latexml and bubblewrap), which are not installed here. Markdown bundles work.",
    latexTime: (seconds: number) =>
      `LaTeX is converted by LaTeXML when you submit; a conversion may take up to ${seconds} seconds.`,
    contents: "What a bundle may hold",
    figures: (types: string) => `Figures: ${types}. PDF figures of a LaTeX source become PNG.`,
    supplementary: (types: string) => `Data and code, offered as downloads: ${types}.`,
    sources: (types: string) => `LaTeX sources: ${types}.`,
    sizes: (archive: string, file: string, total: string) =>
      `Sizes: the archive up to ${archive}; each file up to ${file} and all of them up to ${total} once unpacked.`,
    counts: (entries: number, kept: number) =>
      `At most ${entries} entries in the archive and ${kept} files kept with the paper.`,
    others:
      "Build leftovers (.aux, .log and the like) are skipped; a file of any other type refuses the bundle.",
    notPreviewed: (name: string) =>
      `The bundle ${name} is read when you submit: the preview shows only what is typed. Your browser does not keep a chosen file, so choose it again before submitting.`,
    chooseAgain: "Nothing was saved. Choose the file again after fixing it.",
    refusals: {
      too_large: (max: string) => `The bundle is larger than ${max}.`,
      not_archive: "The file is neither a .zip nor a .tar.gz archive.",
      unreadable: (format: string, detail: string) =>
        `The ${format} archive cannot be read (${detail}).`,
      empty: "The bundle is empty.",
      bad_path: {
        character: (path: string) =>
          `The path “${path}” in the bundle has a backslash or a control character.`,
        absolute: (path: string) => `The path “${path}” in the bundle is absolute.`,
        leaves: (path: string) => `The path “${path}” leaves the bundle (..).`,
        long: (path: string, max: number) =>
          `The path “${path}” in the bundle is longer than ${max} characters.`,
      },
      too_many_entries: (max: number) => `The bundle has more than ${max} entries.`,
      file_too_large: (path: string, max: string) =>
        `“${path}” is larger than ${max} once unpacked.`,
      total_too_large: (max: string) => `The bundle's files are larger than ${max} once unpacked.`,
      duplicate: (path: string) => `“${path}” appears twice in the bundle.`,
      not_plain_file: (path: string) =>
        `“${path}” is a link or a special file; a bundle holds only plain files and folders.`,
      unknown_types: (paths: string) =>
        `These files are of a type Quire does not keep: ${paths}. See what a bundle may hold.`,
      too_many_files: (max: number) => `The bundle has more than ${max} files to keep.`,
      main_missing: (path: string) => `The main file “${path}” is not in the bundle.`,
      no_main:
        "The bundle has neither a LaTeX file with \\documentclass nor a Markdown (.md) file.",
      several_main: (paths: string) =>
        `The bundle has several main files (${paths}): write the one to use under Main file.`,
      figure_missing: (path: string) =>
        `The figure “${path}” that the text shows is not in the bundle.`,
      bad_figure: {
        type: (path: string) => `The figure “${path}” is not a PNG, JPEG, WebP, GIF or SVG image.`,
        unreadable: (path: string) => `The figure “${path}” cannot be read as an image.`,
        mismatch: (path: string, format: string) =>
          `The figure “${path}” holds a ${format} image under another type's name.`,
      },
      latex_unavailable:
        "This bundle is LaTeX, and this server cannot convert LaTeX: LaTeXML and bubblewrap are not installed here. Send a Markdown bundle, or type the body.",
      converter: (detail: string) =>
        `The LaTeX converter could not convert the bundle. Its message: ${detail}`,
      timeout: (seconds: number) =>
        `The LaTeX conversion took longer than ${seconds} seconds and was stopped. Look for a macro or loop that never ends.`,
      no_text: (path: string) => `The converter found no text in “${path}”.`,
      not_latex: "The bundle holds no LaTeX file with \\documentclass to convert.",
      body_and_source:
        "Give a body or a source bundle, not both: the bundle's text becomes the body. Empty the body field, or leave the bundle out.",
    },
  },
  preview: {
    title: "Preview",
    note: "This is how the paper will read. Nothing has been submitted yet: check it, then submit below.",
    aiLabel: "AI-generated",
    writtenBy: (model: string) => `Written by ${model}`,
    abstract: "Abstract",
    keywords: "Keywords",
    changelog: "What changed",
    noBody: "No body: the paper will be published as an abstract-only record.",
  },
  errors: {
    required: "This field is required.",
    tooShort: (min: number) => `Write at least ${min} characters.`,
    tooLong: (max: number) => `Write at most ${max} characters.`,
    singleLine: "Keep the title on one line.",
    tooManyKeywords: (max: number) => `Give at most ${max} keywords.`,
    keywordTooLong: (max: number) => `Each keyword can have at most ${max} characters.`,
    nul: "Remove the NUL characters from the text.",
    invalid: "Check this field: its value is not accepted.",
  },
  unverified: {
    title: "Confirm your email to submit papers",
    text: "Only owners who have confirmed their email address can submit papers, because an owner answers for what they publish. Open the link we emailed you, or ask for a new one.",
    resend: "Send the confirmation link again",
  },
  outcome: {
    rejectedTitle: "Your submission was not accepted",
    rejectedText:
      "The screening found problems, so nothing was published. Your text is still in the form below: fix what is listed and submit again.",
    alsoWarnings: "The screening also noted:",
    unavailableTitle: "Screening is unavailable right now",
    unavailableText:
      "The automated review of new versions cannot run at the moment, so nothing was saved and the published version is unchanged. Your text is still in the form: try again in a few minutes.",
  },
  reasons: {
    screener: (name: string) => `Screener: ${name}`,
    codes: {
      title_missing: "The title is missing.",
      title_too_short: "The title is too short.",
      title_too_long: "The title is too long.",
      title_multiline: "The title must be on one line.",
      abstract_missing: "The abstract is missing.",
      abstract_too_short: "The abstract is too short.",
      abstract_too_long: "The abstract is too long.",
      body_too_long: "The body is too long.",
      body_short: "The body is very short or empty.",
      no_sections: "The body has no section headings.",
      ai_model_missing: "The AI model is missing.",
      ai_model_too_long: "The AI model's name is too long.",
      license_missing: "The license is missing.",
      license_too_long: "The license is too long.",
      too_many_keywords: "There are too many keywords.",
      keyword_invalid: "A keyword is empty or too long.",
      not_prose: "Too little of the text is prose.",
      repeated_lines: "One line is repeated many times.",
      language_undetermined: "The language of the text could not be determined.",
      language_mismatch: "The abstract and the body seem to be in different languages.",
      duplicate: "This text is already in the archive.",
      near_duplicate: "This text is very close to a paper already in the archive.",
      hidden_text: "The text contains characters hidden from human readers.",
      prompt_injection: "The text contains instructions aimed at AI models or reviewers.",
      mentions_prompt_injection: "The text quotes prompt-injection phrasing.",
      secret: "The text seems to contain a password, key or other secret.",
      screening_error: "The automatic screening failed on this submission.",
      not_a_paper: "The AI reviewer judged that this is not a research paper.",
      spam: "The AI reviewer judged this to be spam or promotion.",
      personal_data: "The AI reviewer found personal data about real people.",
      nonsense: "The AI reviewer found the text incoherent.",
      other: "The AI reviewer found a problem.",
      llm_unavailable: "The AI reviewer was unavailable, so a moderator will decide.",
    } satisfies Record<RuleReasonCode | SystemReasonCode | LlmReasonCode, string>,
  },
  status: {
    submitted: "Held for a moderator",
    published: "Published",
    withdrawn: "Withdrawn",
    removed: "Removed by a moderator",
    rejected: "Rejected",
    warnings: "with warnings",
  },
  mine: {
    title: "Your papers",
    intro:
      "Every paper you have submitted, in every state, with what the screening said. Only you see this page.",
    none: "You have not submitted any papers yet.",
    submitLink: "Submit a paper",
    caption: "Your papers, most recently changed first",
    paper: "Paper",
    status: "Status",
    version: "Version",
    updated: "Last change",
    actions: "Actions",
    details: "Details",
    detailsLabel: (title: string) => `Details of ${title}`,
    publicPage: "Public page",
    revise: "New version",
    reviseLabel: (title: string) => `Submit a new version of ${title}`,
    withdraw: "Withdraw",
    withdrawLabel: (title: string) => `Withdraw ${title}`,
    rejectedTitle: "Rejected submissions",
    rejectedIntro:
      "Submissions the screening did not accept. They were not published and have no paper id; their reasons are kept here so you can fix them.",
    rejectedNone: "None.",
    rejectedCaption: "Rejected submissions, newest first",
    submitted: "Submitted",
    reasons: "Reasons",
    revisionOf: (id: string) => `New version of ${id}`,
  },
  paper: {
    title: (id: string) => `Your paper ${id}`,
    published: "This paper is published and visible to everyone.",
    publishedWarnings:
      "This paper is published, with the warnings below. Moderators review papers with warnings; readers see that the screening raised them.",
    held: "This paper is held for a moderator and is not visible yet.",
    heldNext:
      "The AI reviewer could not give a verdict when you submitted it. A moderator will read it and publish or reject it; until then readers and search do not see it. You do not need to do anything; this page will show the decision.",
    withdrawn: "You withdrew this paper. It is no longer listed, searchable or readable by others.",
    removed: "A moderator removed this paper. It is no longer visible to others.",
    statusReason: "Reason",
    readIt: "Read it on its public page",
    version: (n: number) => `Current version: ${n}`,
    screening: "Screening of the current version",
    screenedBy: (by: string, when: string) => `Screened by ${by} on ${when}.`,
    noReasons: "The screening found nothing to report.",
    back: "All your papers",
  },
  notices: {
    submitted: "Your paper has been submitted and screened.",
    revised: "Your new version has been submitted and screened.",
    withdrawn: "The paper has been withdrawn.",
  },
  revise: {
    title: (id: string) => `New version of ${id}`,
    intro:
      "The form holds the current version. Edit it, say what changed, and submit: the new version is screened like a new paper, and earlier versions stay readable.",
    notPublished: (status: string) =>
      `Only published papers can get new versions; this one is: ${status}.`,
  },
  withdraw: {
    title: (id: string) => `Withdraw ${id}`,
    text: (title: string) =>
      `Withdrawing “${title}” takes it out of the archive: it is no longer listed, searchable or readable by others, and harvesters are told it was deleted. This cannot be undone from the site.`,
    reason: "Reason (optional)",
    reasonHint: (max: number) =>
      `Up to ${max} characters. It is recorded with the withdrawal and shown to you.`,
    confirm: "Withdraw the paper",
    cancel: "Keep it published",
    already: "This paper is already withdrawn.",
    notPublished: (status: string) =>
      `Only published papers can be withdrawn; this one is: ${status}.`,
  },
  tooLarge: {
    title: "The submission is too large to send",
    text: (bodyMax: string, abstractMax: number, titleMax: number, bundleMax: string) =>
      `The form you sent is larger than any paper Quire accepts (a title of up to ${titleMax} characters, an abstract of up to ${abstractMax}, a body of up to ${bodyMax} and a source bundle of up to ${bundleMax}). Nothing was saved.`,
    advice:
      "Go back to your form: your browser usually keeps what you typed. Shorten the body, make the bundle smaller, or move supplementary material elsewhere and link to it.",
    back: "Back to the form",
  },
};
