/**
 * Every page in PAGES, in Spanish, at desktop and phone widths (see every-page.ts), none of
 * them showing the site's English sentences.
 */
import { describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { describeEveryPage, englishSentences } from "./every-page.ts";

describe("the English sentences the Spanish pages are searched for", () => {
  it("include the site chrome's, and message functions' fixed parts", () => {
    const english = englishSentences();
    expect(english).toContain(en.layout.skip);
    expect(english).toContain(en.layout.footer);
    expect(english).toContain(
      "characters. A phrase of several words is easy to remember and hard to guess.",
    );
    expect(english.length).toBeGreaterThan(50);
  });
});

describeEveryPage("es");
