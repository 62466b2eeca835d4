/** Every page in PAGES, in English, at desktop and phone widths (see every-page.ts). */
import { describeEveryPage } from "./every-page.ts";

describeEveryPage("en");
