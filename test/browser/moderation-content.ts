/**
 * @module What the moderation pages show in the every-page checks, made over HTTP the way it
 * arises on a real site: an owner submits papers while the LLM screener (a loopback fake) is
 * down, so two are held, and while it flags them, so two are published with warnings; a
 * moderator approves one, clears one flag, and suspends and reinstates agents, which fills
 * the log. One paper of each kind is left waiting, so the queue is never empty.
 */

import { createAgentOverHttp } from "../../src/testing/browser.ts";
import type { ChatBehaviour, FakeChatServer } from "../../src/testing/chat-server.ts";
import type { PageClient } from "../../src/testing/page-client.ts";

/** The ids the moderation pages are visited with (see `{…}` in pages.ts). */
export interface ModerationIds {
  /** An active agent with a suspension and a reinstatement in its history. */
  agent: string;
  /** A suspended agent (its page offers to reinstate it). */
  "suspended-agent": string;
}

interface Submission {
  title: string;
  abstract: string;
  body: string;
  keywords: string;
}

const SUBMISSIONS = {
  heldWaiting: {
    title: "Queueing delays at rural health posts: a simulation of appointment slots",
    abstract:
      "We simulate a week of appointments at a rural health post and compare fixed slots with a short walk-in window, finding that the window halves the longest waits without idling the nurse.",
    body: "## Setting\n\nA single nurse sees patients from eight villages, some of whom walk for an hour. Fixed appointment slots look fair on paper, but a missed bus empties a slot and a late arrival waits until the end of the day.\n\n## Method\n\nWe simulate arrivals from a mix of booked and unbooked patients, with travel times drawn from a plausible spread, and compare three schedules over a thousand simulated weeks.\n\n## Findings\n\nA walk-in window of forty minutes before lunch halves the longest waits and leaves the nurse idle for less than five minutes a day. The result depends on the share of unbooked patients, which we vary from a tenth to a half.",
    keywords: "health services, scheduling, simulation",
  },
  heldApproved: {
    title: "Counting pollinators by sound: a low-cost microphone survey of orchard hedges",
    abstract:
      "We describe a survey that counts bee visits to orchard hedges from the hum recorded by cheap microphones, and compare its counts with those of observers standing at the same hedges.",
    body: "## Why sound\n\nObservers who count bees at a hedge tire quickly and cannot watch at dawn. A microphone can listen all day, and the wingbeat of a bee has a pitch that few other sounds in an orchard share.\n\n## The survey\n\nTwelve microphones recorded three hedges for a month. A simple band-pass filter and a threshold turned each recording into counts of passing insects per minute.\n\n## Agreement\n\nThe microphone counts rose and fell with the observers' counts on every hedge, though they missed quiet flyers such as hoverflies. We list the settings that mattered and the ones that did not.",
    keywords: "ecology, pollinators, acoustics",
  },
  flaggedWaiting: {
    title: "Coffee prices and the weather in Minas Gerais: a causal account",
    abstract:
      "We relate monthly arabica prices to rainfall in Minas Gerais over two decades and argue that droughts in the flowering season explain most of the large price rises in that period.",
    body: "## Data\n\nWe use monthly prices from a public exchange series and rainfall totals from ten weather stations spread across the coffee districts of the state.\n\n## Analysis\n\nPrice rises of more than a fifth within a quarter followed dry flowering seasons in five of the seven cases we found. We fit a regression of price changes on rainfall with a lag of six to nine months.\n\n## Discussion\n\nThe pattern is suggestive, but currency moves, stock levels and frost in other regions also move prices, and we do not separate them here.",
    keywords: "commodities, climate, prices",
  },
  flaggedCleared: {
    title: "Reading speed on small screens: line length and comprehension in a lab study",
    abstract:
      "Forty readers read the same texts on a phone at three line lengths; we report reading speed and the answers to comprehension questions, which changed little between the lengths.",
    body: "## Question\n\nDesigners shorten lines on phones for comfort, but it is not clear whether readers gain or lose anything by it. We asked forty adult readers to read six short texts each.\n\n## Procedure\n\nEach reader saw two texts at each of three line lengths, in a balanced order, and answered four questions after every text. We recorded the time spent on each screen.\n\n## Results\n\nReading speed rose slightly with longer lines, and comprehension did not change in any way we could measure. Readers said they preferred the middle length.",
    keywords: "reading, typography, usability",
  },
} satisfies Record<string, Submission>;

/** Submits a paper through the /submit form and returns its id (held or published). */
async function submitPaper(author: PageClient, paper: Submission): Promise<string> {
  const res = await author.submit("/submit", "/submit", {
    ...paper,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    intent: "submit",
  });
  const id = /\/my\/papers\/([^/?#]+)/.exec(res.location ?? "")?.[1];
  if (res.status !== 303 || !id) {
    throw new Error(`submitting "${paper.title}" failed: ${res.status}\n${res.html.slice(0, 500)}`);
  }
  return id;
}

/** Does a moderator's action through the form on `page`, with a reason; expects the redirect. */
async function moderate(
  moderator: PageClient,
  page: string,
  action: string,
  fields: Record<string, string>,
): Promise<void> {
  const res = await moderator.submit(page, action, fields);
  if (res.status !== 303) throw new Error(`${action} failed: ${res.status}`);
}

/** The screener's behaviour while `run` submits, then a plain pass again. */
async function whileScreener<T>(
  chat: FakeChatServer,
  behaviour: ChatBehaviour,
  run: () => Promise<T>,
): Promise<T> {
  chat.behaviour = behaviour;
  try {
    return await run();
  } finally {
    chat.behaviour = { kind: "verdict", verdict: "pass" };
  }
}

/**
 * Fills the queue, the log and the agents of a served site whose LLM screener is `chat`.
 * `author` is a verified owner other than the pages' owner (whose pages stay as they were).
 */
export async function fillModeration(
  chat: FakeChatServer,
  author: PageClient,
  moderator: PageClient,
): Promise<ModerationIds> {
  const agent = await createAgentOverHttp(author, "Survey bot");
  const suspended = await createAgentOverHttp(author, "Echo bot");

  const down: ChatBehaviour = { kind: "status", status: 503 };
  const [heldWaiting, heldApproved] = await whileScreener(chat, down, async () => [
    await submitPaper(author, SUBMISSIONS.heldWaiting),
    await submitPaper(author, SUBMISSIONS.heldApproved),
  ]);
  const flag: ChatBehaviour = {
    kind: "verdict",
    verdict: "flag",
    reasons: [
      {
        code: "unsupported_claim",
        field: "abstract",
        message:
          "The abstract claims a causal explanation that the analysis, by its own account, does not separate from other causes.",
      },
    ],
  };
  const [flaggedWaiting, flaggedCleared] = await whileScreener(chat, flag, async () => [
    await submitPaper(author, SUBMISSIONS.flaggedWaiting),
    await submitPaper(author, SUBMISSIONS.flaggedCleared),
  ]);
  if (!heldWaiting || !heldApproved || !flaggedWaiting || !flaggedCleared) {
    throw new Error("a submission is missing");
  }

  const paperAction = (id: string, segment: string) => `/moderation/papers/${id}/${segment}`;
  await moderate(moderator, "/moderation", paperAction(heldApproved, "approve"), {
    version: "1",
    reason: "Read it in full: the method is sound and the claims are modest.",
  });
  await moderate(moderator, "/moderation", paperAction(flaggedCleared, "clear-flag"), {
    version: "1",
    reason: "The flagged claim is stated with its limits in the results section.",
  });
  const agentPage = (id: string) => `/moderation/agents?id=${id}`;
  const agentAction = (id: string, verb: string) => `/moderation/agents/${id}/${verb}`;
  await moderate(moderator, agentPage(agent), agentAction(agent, "suspend"), {
    reason: "Posted the same review on twelve papers within a minute.",
  });
  await moderate(moderator, agentPage(agent), agentAction(agent, "reinstate"), {
    reason: "The owner fixed the loop that repeated the review.",
  });
  await moderate(moderator, agentPage(suspended), agentAction(suspended, "suspend"), {
    reason: "Comments that only repeat the paper's abstract.",
  });
  return { agent, "suspended-agent": suspended };
}
