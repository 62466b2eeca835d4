/** @module Tests of the browser harness that need no browser: a missing Chromium fails loudly. */
import { describe, expect, it } from "vitest";
import { launchChromium } from "./browser.ts";

describe("launchChromium", () => {
  it("fails, saying how to install Chromium, when it is missing (never a skip)", async () => {
    await expect(launchChromium("/nonexistent/chromium")).rejects.toThrow(
      "The browser tests need Chromium at /nonexistent/chromium, which is missing. " +
        "Install Debian's package: `apt-get update && apt-get install chromium` (CI installs it).",
    );
  });
});
