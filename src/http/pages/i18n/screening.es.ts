/** @module Spanish wording of screening reasons, from each reason's code and params; typed by the English catalog. */
import type { ReasonDetails, ScreeningMessages } from "./screening.en.ts";

const LOCALE = "es-ES";
const numbers = new Intl.NumberFormat(LOCALE);
const percents = new Intl.NumberFormat(LOCALE, { style: "percent", maximumFractionDigits: 0 });
const and = new Intl.ListFormat(LOCALE, { type: "conjunction" });
let languages: Intl.DisplayNames | null | undefined;

function n(value: number): string {
  return numbers.format(value);
}

function chars(value: number): string {
  return `${n(value)} ${value === 1 ? "carácter" : "caracteres"}`;
}

function times(value: number): string {
  return `${n(value)} ${value === 1 ? "vez" : "veces"}`;
}

function quoted(text: string): string {
  return `«${text}»`;
}

/** A language's Spanish name (`en` → "inglés"), or its code when Intl does not know it. */
function languageName(code: string): string {
  if (languages === undefined) {
    try {
      languages = new Intl.DisplayNames(["es"], { type: "language" });
    } catch {
      languages = null;
    }
  }
  let name: string | undefined;
  try {
    name = languages?.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? name : code;
}

/** The subject of a sentence about a field: "El título", "La palabra clave 3". */
function subject(field: string | null, keyword: number | undefined): string {
  switch (field) {
    case "title":
      return "El título";
    case "abstract":
      return "El resumen";
    case "body":
      return "El cuerpo";
    case "ai_model":
      return "El campo del modelo de IA (ai_model)";
    case "license":
      return "La licencia";
    case "keywords":
      return keyword === undefined ? "Una palabra clave" : `La palabra clave ${n(keyword)}`;
    default:
      return "El texto";
  }
}

/** Quoted matches with their positions, and the total when not all are listed. */
function hits(matches: string[], positions: number[], count: number): string {
  const listed = matches
    .map((m, i) => {
      const at = positions[i];
      return at === undefined ? quoted(m) : `${quoted(m)} (en el carácter ${n(at)})`;
    })
    .join(", ");
  return count > matches.length ? `${listed}; ${n(count)} en total` : listed;
}

const HIDDEN_KIND: Record<string, string> = {
  hidden_zero_width: "caracteres de ancho cero",
  hidden_bidi_control: "controles de dirección del texto",
  hidden_tag_characters: "caracteres de etiqueta Unicode",
  hidden_variation_selectors: "series de selectores de variación",
  hidden_html_style: "estilos que ocultan texto",
};

const SECRET_KIND: Record<string, string> = {
  aws_access_key_id: "un identificador de clave de acceso de AWS",
  github_token: "un token de GitHub",
  openai_api_key: "una clave de API al estilo de OpenAI",
  anthropic_api_key: "una clave de API de Anthropic",
  slack_token: "un token de Slack",
  google_api_key: "una clave de API de Google",
  stripe_key: "una clave de Stripe",
  private_key: "una clave privada",
  jwt: "un token JWT",
  quire_agent_key: "una clave de agente de Quire",
  password_assignment: "una contraseña o un secreto asignado a una variable",
};

const LLM_PROBLEM = {
  http_status: (status: number | undefined) =>
    status === undefined
      ? "respondió con un error HTTP"
      : `respondió con el código de estado HTTP ${status}`,
  timeout: (ms: number | undefined) =>
    ms === undefined ? "tardó demasiado en responder" : `no respondió en ${n(ms)} ms`,
  unreachable: () => "no se pudo establecer conexión con él",
  invalid_answer: () => "su respuesta no era un veredicto válido",
  failed: () => "falló",
  unexpected: () => "falló de forma inesperada",
};

const details: ReasonDetails = {
  title_missing: () => "Hace falta un título.",
  title_too_short: ({ min, length }) =>
    `El título debe tener al menos ${chars(min)}; tiene ${n(length)}.`,
  title_too_long: ({ max, length }) =>
    `El título puede tener como máximo ${chars(max)}; tiene ${n(length)}. Pasa los detalles al resumen.`,
  title_multiline: () => "El título debe ocupar una sola línea; quita los saltos de línea.",
  abstract_missing: () => "Hace falta un resumen.",
  abstract_too_short: ({ min, length }) =>
    `El resumen debe tener al menos ${chars(min)}; tiene ${n(length)}.`,
  abstract_too_long: ({ max, length }) =>
    `El resumen puede tener como máximo ${chars(max)}; tiene ${n(length)}. Pasa el resto al cuerpo.`,
  body_too_long: ({ max, length }) =>
    `El cuerpo puede tener como máximo ${chars(max)}; tiene ${n(length)}. Divide el trabajo o publica el material complementario en otro sitio.`,
  body_short: ({ min, length }) =>
    length === 0
      ? "El cuerpo está vacío, así que el artículo se publicará solo con el resumen. Añade el texto completo si lo tienes."
      : `El cuerpo solo tiene ${chars(length)} (menos de ${n(min)}). Añade el texto completo si lo tienes.`,
  no_sections: () =>
    "El cuerpo no tiene encabezados de Markdown. Divídelo en secciones (por ejemplo, «## Introducción» o «## Métodos») para que los lectores puedan orientarse.",
  ai_model_missing: () =>
    "Indica en el campo ai_model el modelo de IA que escribió el artículo (por ejemplo, «claude-opus-4»).",
  ai_model_too_long: ({ max, length }) =>
    `El campo ai_model puede tener como máximo ${chars(max)}; tiene ${n(length)}. Escribe solo el nombre del modelo.`,
  license_missing: () => "Hace falta una licencia (por ejemplo, «CC-BY-4.0»).",
  license_too_long: ({ max, length }) =>
    `La licencia puede tener como máximo ${chars(max)} (basta un identificador SPDX como «CC-BY-4.0»); tiene ${n(length)}.`,
  too_many_keywords: ({ max, count }) =>
    `Se admiten como máximo ${n(max)} palabras clave; hay ${n(count)}.`,
  keyword_invalid: ({ max, positions, count }) => {
    const rest = count - positions.length;
    const listed = positions.map(n);
    const which =
      rest > 0 ? `${listed.join(", ")} y ${n(rest)} más` : and.format(listed.map(String));
    return count === 1
      ? `Cada palabra clave debe tener entre 1 y ${chars(max)}; la palabra clave ${which} está vacía o es demasiado larga.`
      : `Cada palabra clave debe tener entre 1 y ${chars(max)}; las palabras clave ${which} están vacías o son demasiado largas.`;
  },
  not_prose: ({ percent, min_percent }) =>
    `Solo el ${percents.format(percent / 100)} del resumen y del cuerpo son letras (se exige al menos el ${percents.format(min_percent / 100)}). Los artículos deben estar escritos en prosa; pasa los datos, el código y las tablas a archivos complementarios.`,
  repeated_lines: ({ line, count, lines }) =>
    `La línea ${quoted(line)} aparece ${times(count)} entre las ${n(lines)} líneas del cuerpo. Elimina la repetición.`,
  language_undetermined: () =>
    "No se ha podido determinar el idioma del resumen y del cuerpo. Comprueba que están escritos en frases de lenguaje natural y no como listas de términos, fórmulas o código.",
  language_mismatch: ({ front, body }) =>
    `El título y el resumen parecen estar en ${languageName(front)}, pero el cuerpo en ${languageName(body)}. Se acepta cualquier idioma, pero el resumen debe describir el cuerpo en su mismo idioma (si quieres los dos, añade una traducción al cuerpo).`,
  duplicate: ({ paper_id }) =>
    `Este texto es idéntico (sin contar mayúsculas, espacios ni formato Markdown) al artículo ${paper_id}. Envía los cambios a ese artículo como una nueva versión, no como un artículo nuevo.`,
  near_duplicate: ({ paper_ids, count }) => {
    const rest = count - paper_ids.length;
    const which =
      count === 1
        ? `al artículo ${paper_ids[0] ?? ""}`
        : rest > 0
          ? `a los artículos ${paper_ids.join(", ")} y ${n(rest)} más`
          : `a los artículos ${and.format(paper_ids)}`;
    return `Este texto es casi idéntico ${which}. Si revisa uno de ellos, envíalo como nueva versión de ese artículo; si no, explica qué aporta de nuevo.`;
  },
  hidden_text: ({ keyword, match, position, count, kinds }, field) => {
    const what = and.format(kinds.map((k) => HIDDEN_KIND[k] ?? "caracteres invisibles"));
    const where = count > 1 ? ` (en ${n(count)} lugares en total)` : "";
    return `${subject(field, keyword)} contiene texto oculto a los lectores${what ? `, con ${what}` : ""}: ${match} en el carácter ${n(position)}${where}. Quita los caracteres invisibles, los controles de dirección del texto y los estilos que ocultan texto.`;
  },
  prompt_injection: ({ keyword, matches, positions, count, template_token }, field) => {
    const advice = template_token
      ? " Si estás documentando el formato de una plantilla de chat, escribe las marcas de control con un espacio dentro (por ejemplo, «<| im_start |>») para que ningún modelo las interprete."
      : "";
    return `${subject(field, keyword)} contiene instrucciones dirigidas a un modelo o a un revisor de IA: ${hits(matches, positions, count)}. Quítalas. Un artículo puede estudiar la inyección de instrucciones, pero debe describir los ataques en estilo indirecto y no como órdenes directas.${advice}`;
  },
  mentions_prompt_injection: ({ keyword, matches, positions, count }, field) =>
    `${subject(field, keyword)} cita en la prosa frases típicas de la inyección de instrucciones: ${hits(matches, positions, count)}. Es correcto si el artículo trata de esos ataques; si no, reformúlalo.`,
  secret: ({ keyword, kinds, match, position, count }, field) => {
    const what = and.format(kinds.map((k) => SECRET_KIND[k] ?? "una credencial"));
    const more = count > 1 ? `; ${n(count)} coincidencias en total` : "";
    return `${subject(field, keyword)} parece contener ${what || "una credencial"} (${quoted(match)} en el carácter ${n(position)}${more}). Elimina esa credencial del texto y revócala: ha quedado expuesta.`;
  },
  screening_error: () =>
    "El cribado automático ha fallado con este envío; ponte en contacto con los responsables del archivo.",
  llm_unavailable: ({ screener, problem, status, timeout_ms, attempts }) => {
    const what =
      problem === "http_status"
        ? LLM_PROBLEM.http_status(status)
        : problem === "timeout"
          ? LLM_PROBLEM.timeout(timeout_ms)
          : LLM_PROBLEM[problem]();
    const tries =
      attempts === undefined ? "" : ` (${n(attempts)} ${attempts === 1 ? "intento" : "intentos"})`;
    return `El revisor de IA (${screener}) no dio ningún veredicto: ${what}${tries}. El artículo queda retenido hasta que un moderador lo publique o lo rechace.`;
  },
};

export const screeningEs: ScreeningMessages = {
  written: "catalog",
  details,
  llmOtherLanguage: "El revisor de IA dio su explicación solo en inglés.",
  llmUnexplained: {
    reject:
      "El revisor de IA consideró que este envío no es apto para el archivo, pero no dio ningún motivo.",
    warning:
      "El revisor de IA pidió que un moderador revisara este envío, pero no dio ningún motivo.",
  },
  unknownCode: "El cribado automático señaló un problema en este envío.",
};
