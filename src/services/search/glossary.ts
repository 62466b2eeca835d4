/**
 * @module A small Spanish→English glossary of research terms that Apertium's general
 * dictionary translates word by word ("banco de pruebas" → "bank of tests", "modelos de
 * lenguaje pequeños" → "models of small language"): applied to a Spanish query before it is
 * translated, so the English papers' own terms reach the index.
 */

/**
 * Spanish term (a pattern over lower-case text without accents; `s?` marks an optional
 * plural) → the English term papers use. Longer terms come first where one contains
 * another. Kept to terms of computing and statistics whose word-by-word translation is wrong;
 * words Apertium translates well stay out. How it was made and measured: docs/adr/0029.
 */
const GLOSSARY: readonly (readonly [string, string])[] = [
  ["modelos? de lenguaje grandes?", "large language models"],
  ["grandes modelos de lenguaje", "large language models"],
  ["modelos? de lenguaje pequenos?", "small language models"],
  ["modelos? de lenguaje", "language models"],
  ["modelos? de vision y lenguaje", "vision-language models"],
  ["modelos? de difusion", "diffusion models"],
  ["aprendizaje automatico", "machine learning"],
  ["aprendizaje profundo", "deep learning"],
  ["aprendizaje por refuerzo", "reinforcement learning"],
  ["aprendizaje autosupervisado", "self-supervised learning"],
  ["aprendizaje contrastivo", "contrastive learning"],
  ["aprendizaje federado", "federated learning"],
  ["aprendizaje continuo", "continual learning"],
  ["aprendizaje con pocos ejemplos", "few-shot learning"],
  ["redes? neuronal(?:es)? de impulsos", "spiking neural networks"],
  ["redes? neuronal(?:es)? de grafos", "graph neural networks"],
  ["redes? neuronal(?:es)?", "neural networks"],
  ["bancos? de pruebas", "benchmark"],
  ["conjuntos? de datos", "dataset"],
  ["ajuste fino", "fine-tuning"],
  ["preentrenad[oa]s?", "pretrained"],
  ["sin entrenamiento", "zero-shot training-free"],
  ["respuestas? a preguntas", "question answering"],
  ["reconocimiento de voz", "speech recognition"],
  ["sintesis de voz", "speech synthesis"],
  ["discurso de odio", "hate speech"],
  ["generacion aumentada (?:por|con) recuperacion", "retrieval-augmented generation"],
  ["vision por (?:computador|computadora|ordenador)", "computer vision"],
  ["procesamiento del lenguaje natural", "natural language processing"],
  ["cadenas? de pensamiento", "chain of thought"],
  ["ingenieria de (?:indicaciones|instrucciones|prompts)", "prompt engineering"],
  ["indicaciones", "prompts prompting"],
  ["indicacion", "prompt"],
  ["alucinacion(?:es)?", "hallucination"],
  ["incrustaciones", "embeddings"],
  ["huellas? digitales?", "fingerprinting"],
  ["marcas? de agua", "watermarking"],
  ["decodificacion", "decoding"],
  ["destilacion", "distillation"],
  ["juegos? de rol", "role-playing"],
  ["interpretan personajes", "role-playing characters"],
  ["ataques? adversari[oa]s?", "adversarial attacks"],
  // Common terms of the field, checked against Apertium's output one by one (docs/adr/0031).
  ["vision artificial", "computer vision"],
  ["aprendizaje no supervisado", "unsupervised learning"],
  ["aprendizaje semisupervisado", "semi-supervised learning"],
  ["aprendizaje multitarea", "multi-task learning"],
  ["metaaprendizaje", "meta-learning"],
  ["seguimiento de objetos", "object tracking"],
  ["nubes? de puntos", "point cloud"],
  ["recuperacion de informacion", "information retrieval"],
  ["sistemas? (?:de recomendacion|recomendador(?:es)?)", "recommender systems"],
  ["resumen(?:es)? automaticos?", "summarization"],
  ["analisis de sentimientos?", "sentiment analysis"],
  ["reconocimiento de entidades nombradas", "named entity recognition"],
  ["ajuste (?:por|con|de) instrucciones", "instruction tuning"],
  ["optimizacion de politicas", "policy optimization"],
  ["politicas?", "policy policies"],
  ["autocodificador(?:es)? variacional(?:es)?", "variational autoencoder"],
  ["autocodificador(?:es)?", "autoencoder"],
  ["redes generativas (?:antagonicas|adversarias)", "generative adversarial networks"],
  ["atencion cruzada", "cross-attention"],
  ["cuantizacion", "quantization"],
  ["poda", "pruning"],
  ["mezclas? de expertos", "mixture of experts"],
  ["leyes de escalado", "scaling laws"],
  ["escalado", "scaling"],
  ["llamadas? a herramientas", "tool calling"],
  ["demostracion (?:automatica )?de teoremas", "theorem proving"],
  ["reparacion (?:automatica )?de programas", "program repair"],
  ["pruebas de software", "software testing"],
  ["inferencia de pertenencia", "membership inference"],
  ["puertas? traseras?", "backdoor"],
  ["robustez adversaria", "adversarial robustness"],
  ["equidad", "fairness"],
  ["explicabilidad", "explainability"],
  ["interpretabilidad mecanicista", "mechanistic interpretability"],
  ["trayectorias?", "trajectory"],
  ["grafos? de conocimiento", "knowledge graphs"],
  ["grafos?", "graph"],
  ["busqueda de arquitecturas? neuronal(?:es)?", "neural architecture search"],
  ["series temporales", "time series"],
  ["pronosticos?", "forecasting"],
  ["histopatologia", "histopathology"],
  ["texto a voz", "text-to-speech"],
  ["reconocimiento (?:automatico )?del habla", "speech recognition"],
  ["modelos? fundacional(?:es)?", "foundation models"],
  ["preentrenamiento", "pretraining"],
  ["aumento de datos", "data augmentation"],
  ["evaluacion comparativa", "benchmarking"],
  ["tablas? de clasificacion", "leaderboard"],
  ["ciberseguridad", "cybersecurity"],
  ["escalabilidad", "scalability"],
  ["computacion en el borde", "edge computing"],
  ["en (?:el )?dispositivo", "on-device"],
  // Single words whose research sense Apertium's tagger or dictionary misses ("varias vistas"
  // → "several seen", "los grandes" → "the big"); from the dev half's misses.
  ["vistas", "views"],
  ["vista", "view"],
  ["grandes?", "large"],
];

const COMPILED = GLOSSARY.map(
  ([spanish, english]) =>
    [new RegExp(`(?<![\\p{L}\\p{N}])(?:${spanish})(?![\\p{L}\\p{N}])`, "gu"), english] as const,
);

/** Lower case without accents, one character for one, so match positions hold in the original. */
function folded(text: string): string {
  let out = "";
  for (const c of text) {
    const f = c.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    out += f.length === c.length ? f : c;
  }
  return out;
}

/**
 * `text` with the glossary's Spanish terms replaced by their English ones (whatever their
 * accents and case), longest entries first; the rest is left to the translator, which
 * passes the English words through.
 */
export function applyGlossary(text: string): string {
  let current = text;
  for (const [pattern, english] of COMPILED) {
    const plain = folded(current);
    let out = "";
    let from = 0;
    for (const m of plain.matchAll(pattern)) {
      out += `${current.slice(from, m.index)}${english}`;
      from = m.index + m[0].length;
    }
    current = out + current.slice(from);
  }
  return current;
}

/** Spanish endings of words English shares by Latin descent, and their English forms. */
const COGNATE_ENDINGS: readonly (readonly [RegExp, string])[] = [
  [/ciones$/u, "tions"],
  [/ción$/u, "tion"],
  [/siones$/u, "sions"],
  [/sión$/u, "sion"],
  [/dades$/u, "ties"],
  [/dad$/u, "ty"],
  [/ientes$/u, "ients"],
  [/ales$/u, "al"],
  [/i[cq]os$|icas$|ico$|ica$/u, "ic"],
  [/ivos$|ivas$|ivo$|iva$/u, "ive"],
  [/osos$|osas$|oso$|osa$/u, "ous"],
  [/mente$/u, "ly"],
  [/ismos?$/u, "ism"],
  [/istas?$/u, "ist"],
  [/encias?$/u, "ence"],
  [/ancias?$/u, "ance"],
  [/entes$/u, "ents"],
  [/ente$/u, "ent"],
  [/izar$/u, "ize"],
  [/arios?$|arias?$/u, "ary"],
  [/uras?$/u, "ure"],
  [/ografías?$/u, "ography"],
];

/** Spanish spellings at the start of a word that English writes otherwise: the Greek "ph" ("foto-"). */
const COGNATE_STARTS: readonly (readonly [RegExp, string])[] = [[/^foto/u, "photo"]];

/** Lower case without diacritics: English spells cognates without Spanish accents. */
function unaccented(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

/**
 * A translation with the words Apertium did not know (it passes them through as typed:
 * "multimodales", "micronutrientes") given their English cognate form where a Spanish
 * ending says what it is ("multimodal", "micronutrients"); other words are left alone.
 */
export function englishCognates(translation: string, query: string): string {
  const typed = new Set(folded(query).match(/\p{L}+/gu) ?? []);
  return translation.replace(/\p{L}+/gu, (word) => {
    const plain = folded(word);
    if (plain.length < 6 || !typed.has(plain)) return word;
    let lower = word.toLowerCase();
    for (const [start, english] of COGNATE_STARTS) lower = lower.replace(start, english);
    const ending = COGNATE_ENDINGS.find(([pattern]) => pattern.test(lower));
    if (ending) lower = lower.replace(ending[0], ending[1]);
    else if (lower === word.toLowerCase()) return word;
    return unaccented(lower);
  });
}
