/** @module detectLanguage: dependency-free language identification (scripts plus stopword frequencies). */

type Script =
  | "latin"
  | "cyrillic"
  | "arabic"
  | "devanagari"
  | "cjk"
  | "hangul"
  | "kana"
  | "greek"
  | "hebrew"
  | "thai"
  | "bengali"
  | "tamil"
  | "telugu"
  | "gujarati"
  | "gurmukhi"
  | "kannada"
  | "malayalam"
  | "sinhala"
  | "georgian"
  | "armenian"
  | "ethiopic"
  | "khmer"
  | "lao"
  | "myanmar";

/** [first, last, script], sorted; only letter-bearing blocks. */
const RANGES: readonly (readonly [number, number, Script])[] = [
  [0x41, 0x5a, "latin"],
  [0x61, 0x7a, "latin"],
  [0xc0, 0xd6, "latin"],
  [0xd8, 0xf6, "latin"],
  [0xf8, 0x24f, "latin"],
  [0x370, 0x3ff, "greek"],
  [0x400, 0x52f, "cyrillic"],
  [0x531, 0x58f, "armenian"],
  [0x591, 0x5f4, "hebrew"],
  [0x610, 0x61a, "arabic"],
  [0x620, 0x65f, "arabic"],
  [0x66e, 0x6d3, "arabic"],
  [0x6d5, 0x6ef, "arabic"],
  [0x6fa, 0x6ff, "arabic"],
  [0x750, 0x77f, "arabic"],
  [0x8a0, 0x8ff, "arabic"],
  [0x900, 0x963, "devanagari"],
  [0x971, 0x97f, "devanagari"],
  [0x980, 0x9e5, "bengali"],
  [0xa00, 0xa65, "gurmukhi"],
  [0xa80, 0xae5, "gujarati"],
  [0xb80, 0xbe5, "tamil"],
  [0xc00, 0xc65, "telugu"],
  [0xc80, 0xce5, "kannada"],
  [0xd00, 0xd65, "malayalam"],
  [0xd80, 0xdff, "sinhala"],
  [0xe01, 0xe4e, "thai"],
  [0xe81, 0xecd, "lao"],
  [0x1000, 0x103f, "myanmar"],
  [0x10a0, 0x10ff, "georgian"],
  [0x1100, 0x11ff, "hangul"],
  [0x1200, 0x139f, "ethiopic"],
  [0x1780, 0x17d3, "khmer"],
  [0x1c80, 0x1c8f, "cyrillic"],
  [0x1c90, 0x1cbf, "georgian"],
  [0x1e00, 0x1eff, "latin"],
  [0x1f00, 0x1fff, "greek"],
  [0x2de0, 0x2dff, "cyrillic"],
  [0x3040, 0x309f, "kana"],
  [0x30a0, 0x30ff, "kana"],
  [0x3130, 0x318f, "hangul"],
  [0x31f0, 0x31ff, "kana"],
  [0x3400, 0x4dbf, "cjk"],
  [0x4e00, 0x9fff, "cjk"],
  [0xa640, 0xa69f, "cyrillic"],
  [0xa720, 0xa7ff, "latin"],
  [0xac00, 0xd7af, "hangul"],
  [0xf900, 0xfaff, "cjk"],
  [0xfb1d, 0xfb4f, "hebrew"],
  [0xfb50, 0xfdff, "arabic"],
  [0xfe70, 0xfefc, "arabic"],
  [0xff21, 0xff3a, "latin"],
  [0xff41, 0xff5a, "latin"],
  [0xff66, 0xff9f, "kana"],
  [0x20000, 0x3134f, "cjk"],
];

function scriptOf(cp: number): Script | undefined {
  let lo = 0;
  let hi = RANGES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = RANGES[mid]!;
    if (cp < r[0]) hi = mid - 1;
    else if (cp > r[1]) lo = mid + 1;
    else return r[2];
  }
  return undefined;
}

/** Scripts used by a single language in practice; no stopword evidence is needed. */
const SCRIPT_LANGUAGE: Partial<Record<Script, string>> = {
  greek: "el",
  hebrew: "he",
  thai: "th",
  bengali: "bn",
  tamil: "ta",
  telugu: "te",
  gujarati: "gu",
  gurmukhi: "pa",
  kannada: "kn",
  malayalam: "ml",
  sinhala: "si",
  georgian: "ka",
  armenian: "hy",
  ethiopic: "am",
  khmer: "km",
  lao: "lo",
  myanmar: "my",
  hangul: "ko",
};

/** High-frequency function words per language, grouped by the script they are written in. */
const STOPWORDS: Record<"latin" | "cyrillic" | "arabic" | "devanagari", Record<string, string>> = {
  latin: {
    en: "the of and to in a is that for it as was with be by on not this are or from at which but have an they were been has their we our these can than its also such between both into more other may when only each those using used how however about all two through while after here whether would could should within thus during among where who what whose then",
    es: "de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto antes algunos qué unos otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo es son fue ha han puede pueden mediante según cada así dos tiene ser sido será están está fueron hemos",
    fr: "de la le et les des en un du une que est pour qui dans a par plus pas au sur ne se ce il sont ou avec son aux l d qu nous cette ces mais été être comme elle ont leur leurs entre aussi peut ainsi lors sans sous très tout tous deux après avons notre nos dont où même sa ses cet on y était sont",
    de: "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sowie können kann wurde wurden diese dieser dieses wir unsere zwischen zwei ob sowohl jedoch hier dabei welche ihre ihrer wenn",
    pt: "de a o que e do da em um para é com não uma os no se na por mais as dos como mas ao ele das à seu sua ou quando muito nos já também só pelo pela até isso ela entre depois sem mesmo aos seus quem nas esse eles essa num nem suas às numa pelos elas qual nós essas esses pelas este dele esta foi são ser foram pode podem através cada dois nossa nosso sobre estudo",
    it: "di e il la che in a per un è non del della con le si da una i dei gli al lo come più anche ma delle nel alla sono questo questa tra o se nella dal ha suo sua loro degli ad sul essere stato stati può possono quando ogni dalla nelle negli sulla ai dalle cui quale quali mentre dopo senza ancora molto due già dello stesso questi queste inoltre quindi nostro nostra abbiamo",
    nl: "de en van het een in is dat op te zijn voor met die niet aan er om ook als bij door naar uit maar worden wordt kan dan of tot over hij zij deze dit nog wel meer werd werden geen heeft hebben hun onze we wij zo na tussen tegen zoals omdat echter waarbij waarin twee kunnen moet sinds binnen zonder",
    sv: "och i att det som en på är av för med till den har de inte om ett var men vi så kan från eller sig också när hur vid efter under mellan denna detta dessa våra vår vara blev blir bara skulle än sina sitt sin deras man mycket två samt därför dock genom utan där vilka vilket olika",
    da: "og i at det en den til er som på de med af for ikke der var et har vi men om fra kan sig også eller blev bliver efter hvad hvor når kun mellem nogle meget være været disse denne dette vores deres under ved hvis hvordan samt gennem uden mod to både blandt",
    no: "og i det som er på en til av for med at har de ikke den et om var men fra kan vi seg skal også eller ble blir etter hva hvor når bare mellom noen mye være vært disse denne dette våre deres under ved hvis hvordan samt gjennom uten mot to både blant",
    pl: "i w z na się nie do że to jest o a jak od po przez dla są oraz jego ich ten ta te tego tym był była było być może które który która których także również przy czy tak ale lub jako pod już tylko między bardzo został została zostały jednak gdy we ze nad",
    cs: "a v se na je že s z do o to i k jako pro ve by jsou byl byla bylo být které který která jeho jejich tak ale nebo při po od také jen mezi však tím této tento tato toto jsme není může lze podle již ze",
    ro: "de și şi în la a cu o pe un că din nu care se este pentru mai sau ca fi sunt al ale lui prin dar această acest aceste acestei despre către între fost au ei lor una unei unui doar după fără foarte poate pot asupra astfel",
    tr: "ve bir bu da de için ile olarak daha çok gibi en olan kadar sonra ancak ya veya ise değil her ne o ki mi şu olduğu üzere arasında tarafından göre yani hem ama fakat çünkü oldu var yok ayrıca bunun ilk iki",
    id: "yang dan di dari ini dengan untuk dalam pada tidak akan adalah ke itu oleh juga sebagai atau karena bahwa dapat lebih telah ada mereka kami kita tersebut antara secara yaitu serta namun hal saat sudah hanya bagi setelah sangat maka seperti jika bisa belum masih para melalui terhadap",
    fi: "ja on ei että se oli ovat joka kuin myös mutta tai sekä tämä tämän niin jos kun nyt vain jo hän he ne mitä voi ole olla ollut siitä sen joiden jotka jossa sitä näin koska vaan kanssa mukaan välillä aikana tässä lisäksi eri kaksi",
    hu: "a az és hogy nem is egy meg van csak ez de el ki mint már vagy még volt azt ezt kell lesz mert pedig között szerint után alatt vannak lehet amely amelyek amelyet illetve valamint továbbá ennek annak során által ezek azok nagyon két minden sem mind",
    vi: "của và các là trong được cho với có những này một không để người khi đã về từ theo đến cũng như nhiều trên tại hơn sự nhưng nên vào ra còn thì sẽ đó đây nào bằng giữa sau cùng hay hoặc rằng",
    ca: "de la i que el a en els les per un una del amb és es al no dels com més als o però són hi ha han aquest aquesta aquests aquestes també entre sobre seu seva seus seves pel pels fins mitjançant quan on sense així molt dues dos",
  },
  cyrillic: {
    ru: "и в не на что с по это как для из от к при также или который которые которая этого этом был была были быть так но же только его их мы между более может можно после во со о об а то все уже чем если где под над без через этой эти",
    uk: "і й та в у на що з із до для як це від не при також або який яка які якого було був була були бути так але же тільки його їх ми між більш може можна після зі про а то все вже ніж якщо де під над без через цього цій ці",
    bg: "и в на за да се от с че е са по като това който която които към не до при но или също бил била били ще може между след без чрез тази този тези ние те му им го както което",
  },
  arabic: {
    ar: "في من على أن إلى التي الذي هذا هذه عن مع و ما لا كان كانت هو هي بين كما أو إن قد ثم لم عند ذلك تلك حيث وفي وقد ولا",
    fa: "و در به از که این را با است برای می آن یک خود تا بر هم نیز شده شود بود کرد کند های ها ای اما یا پس همه",
    ur: "کے کی میں ہے اور سے کو کا یہ پر نے ہیں بھی کہ تھا تھے گیا کیا ہو وہ اس ان جو",
  },
  devanagari: {
    hi: "के है में की और से को का एक यह पर हैं कि भी लिए इस था थे किया गया होता होती जो कर तो ने साथ द्वारा बीच",
    mr: "आणि आहे या व हे ते आहेत होते केले म्हणून मध्ये साठी तर नाही पण त्या च्या",
    ne: "र छ मा ले पनि गर्न हो भएको छन् गरेको यो त्यो लागि तथा",
  },
};

type Group = keyof typeof STOPWORDS;
const GROUPS = Object.keys(STOPWORDS) as Group[];

interface Lexicon {
  languages: string[];
  /** word -> [language index, weight = 1 / number of languages listing the word][] */
  entries: Map<string, [number, number][]>;
}

function buildLexicon(lists: Record<string, string>): Lexicon {
  const languages = Object.keys(lists);
  const owners = new Map<string, number[]>();
  languages.forEach((lang, i) => {
    for (const word of new Set(lists[lang]!.split(" "))) {
      const list = owners.get(word) ?? [];
      list.push(i);
      owners.set(word, list);
    }
  });
  const entries = new Map<string, [number, number][]>();
  for (const [word, langs] of owners) {
    entries.set(
      word,
      langs.map((i) => [i, 1 / langs.length]),
    );
  }
  return { languages, entries };
}

const LEXICONS = Object.fromEntries(GROUPS.map((g) => [g, buildLexicon(STOPWORDS[g])])) as Record<
  Group,
  Lexicon
>;

const MIN_LETTERS = 20;
/** Stopword hits needed, counting only words of 2+ letters: "i", "a", "y" also appear in code and maths. */
const MIN_STOPWORD_HITS = 2;
const MIN_STOPWORD_RATIO: Record<Group, number> = {
  latin: 0.1,
  cyrillic: 0.08,
  arabic: 0.05,
  devanagari: 0.08,
};
/** Enough text to decide; longer inputs only cost time. */
const MAX_ANALYSED_CHARS = 20_000;
const LATEX_MATH = /\$\$[\s\S]{0,2000}?\$\$|\$[^$\n]{0,500}\$|\\[a-zA-Z]+/g;
const URL = /\bhttps?:\/\/\S+/g;

interface Word {
  text: string;
  script: Script;
}

export interface LanguageAnalysis {
  /** ISO 639-1 code, or "und". */
  language: string;
  /** Relative evidence per candidate language, the winner scaled to 1 ("und" gives {}). */
  scores: Record<string, number>;
}

/**
 * Like detectLanguage, but also returns the relative score of every candidate, so callers can
 * tell a clear difference (Spanish vs English) from a near tie (Spanish vs Portuguese).
 */
export function analyzeLanguage(text: string): LanguageAnalysis {
  const cleaned = text
    .slice(0, MAX_ANALYSED_CHARS)
    .normalize("NFKC")
    .replace(URL, " ")
    .replace(LATEX_MATH, " ")
    .toLowerCase()
    .replace(/\u0307/g, "");
  const counts = new Map<Script, number>();
  const words: Word[] = [];
  let asciiLetters = 0;
  let start = -1;
  let startScript: Script | undefined;
  for (let i = 0; i <= cleaned.length; i++) {
    let cp = i < cleaned.length ? cleaned.charCodeAt(i) : 0x20;
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      cp = cleaned.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
    }
    let script: Script | undefined;
    if (cp >= 0x61 && cp <= 0x7a) {
      script = "latin";
      asciiLetters++;
    } else if (cp >= 0x80) {
      script = scriptOf(cp);
      if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
    }
    if (script || (cp >= 0x300 && cp <= 0x36f)) {
      if (start < 0) {
        start = i;
        startScript = script;
      }
    } else if (start >= 0) {
      if (startScript && startScript in STOPWORDS) {
        words.push({ text: cleaned.slice(start, i), script: startScript });
      }
      start = -1;
    }
    i += width - 1;
  }
  counts.set("latin", (counts.get("latin") ?? 0) + asciiLetters);
  const ideographic = (counts.get("cjk") ?? 0) + (counts.get("kana") ?? 0);
  const weighted = new Map<Script | "ideographic", number>();
  for (const [script, n] of counts) {
    if (script === "cjk" || script === "kana") continue;
    weighted.set(script, script === "hangul" ? 2 * n : n);
  }
  if (ideographic > 0) weighted.set("ideographic", 2 * ideographic);

  let dominant: Script | "ideographic" | undefined;
  let best = 0;
  let total = 0;
  for (const [script, n] of weighted) {
    total += n;
    if (n > best) {
      best = n;
      dominant = script;
    }
  }
  if (dominant === undefined || total < MIN_LETTERS) return { language: "und", scores: {} };
  if (dominant === "ideographic") {
    const kana = counts.get("kana") ?? 0;
    return kana >= 0.1 * ideographic
      ? { language: "ja", scores: { ja: 1 } }
      : { language: "zh", scores: { zh: 1 } };
  }
  const single = SCRIPT_LANGUAGE[dominant];
  if (single) return { language: single, scores: { [single]: 1 } };
  if (!(GROUPS as string[]).includes(dominant)) return { language: "und", scores: {} };
  return byStopwords(words, dominant as Group);
}

function byStopwords(words: Word[], group: Group): LanguageAnalysis {
  const lexicon = LEXICONS[group];
  const scores = new Float64Array(lexicon.languages.length);
  const hits = new Uint32Array(lexicon.languages.length);
  let tokens = 0;
  for (const word of words) {
    if (word.script !== group) continue;
    tokens++;
    const entry = lexicon.entries.get(word.text);
    if (!entry) continue;
    const counts = word.text.length > 1;
    for (const [i, w] of entry) {
      scores[i]! += w;
      if (counts) hits[i]!++;
    }
  }
  let top = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[top]!) top = i;
  const topHits = hits[top]!;
  if (tokens === 0 || topHits < MIN_STOPWORD_HITS || topHits / tokens < MIN_STOPWORD_RATIO[group]) {
    return { language: "und", scores: {} };
  }
  const relative: Record<string, number> = {};
  lexicon.languages.forEach((lang, i) => {
    if (scores[i]! > 0) relative[lang] = scores[i]! / scores[top]!;
  });
  return { language: lexicon.languages[top]!, scores: relative };
}

/**
 * Returns an ISO 639-1 code ("en", "es", "fr", "de", "pt", "it", "nl", ...) or "und" when the
 * text has too little natural language to tell. Script detection decides single-script
 * languages (zh, ja, ko, el, he, th, hi-family, ...); Latin, Cyrillic, Arabic and Devanagari
 * text is decided by stopword frequency, and "und" also covers prose-free input such as
 * keyword lists, formulas or code, which is why it doubles as a weak quality signal.
 * Only the first 60,000 characters are examined, which keeps the cost bounded.
 */
export function detectLanguage(text: string): string {
  return analyzeLanguage(text).language;
}
