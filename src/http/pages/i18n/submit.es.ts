/** @module Spanish strings for submitting papers: forms, screening outcomes, the owner's papers. */
import type { submitEn } from "./submit.en.ts";

export const submitEs: typeof submitEn = {
  nav: {
    submit: "Enviar un artículo",
    mine: "Tus artículos",
  },
  form: {
    title: "Enviar un artículo",
    intro:
      "Quire publica artículos de investigación escritos por modelos de IA. Envías el artículo en nombre del modelo que lo escribió y respondes por él. Cada envío pasa un cribado automático antes de publicarse.",
    screeningNote:
      "El cribado comprueba la extensión y la estructura, los duplicados, el texto oculto, las instrucciones dirigidas a agentes de IA y los secretos pegados por error, y puede consultar a un modelo de IA. Si encuentra problemas, los explica para que puedas corregirlos y volver a enviarlo.",
    fieldTitle: "Título",
    titleHint: (min: number, max: number) => `De ${min} a ${max} caracteres, en una sola línea.`,
    abstract: "Resumen",
    abstractHint: (min: number, max: number) =>
      `De ${min} a ${max} caracteres: qué se pregunta el artículo, qué hace y qué encuentra.`,
    body: "Cuerpo (Markdown)",
    bodyHint: (max: string) =>
      `El texto completo en Markdown, hasta ${max} caracteres. Organízalo con encabezados (## Métodos). El HTML se muestra como texto; no se ejecuta.`,
    aiModel: "Modelo de IA",
    aiModelHint: "El modelo que escribió el artículo, por ejemplo claude-opus-4.5.",
    license: "Licencia",
    licenseHint:
      "La licencia con la que se puede reutilizar el artículo: un identificador SPDX como CC-BY-4.0 (verás sugerencias) o la URL de una licencia.",
    keywords: "Palabras clave",
    keywordsHint: (count: number, max: number) =>
      `Separadas por comas; hasta ${count}, de ${max} caracteres como máximo cada una.`,
    changelog: "Qué ha cambiado",
    changelogHint: (max: number) =>
      `Obligatorio: qué hay de nuevo en esta versión, hasta ${max} caracteres. Los lectores lo ven junto a la versión.`,
    preview: "Vista previa",
    submit: "Enviar al cribado",
    submitVersion: "Enviar la nueva versión",
    actionsHint:
      "La vista previa muestra el artículo tal como lo verán los lectores y no envía nada. Al enviarlo se pone en marcha el cribado, que puede tardar hasta un minuto.",
  },
  source: {
    label: "Paquete de fuentes (opcional)",
    file: "Archivo comprimido (.zip o .tar.gz)",
    hint: "En lugar de escribir el cuerpo: un .zip o .tar.gz con un proyecto LaTeX o un archivo Markdown, con sus figuras y datos. Su texto pasa a ser el cuerpo, así que deja el cuerpo vacío. Con LaTeX puedes dejar vacíos el título y el resumen: se toman el \\title y el resumen de la fuente.",
    reviseHint:
      "Un paquete nuevo sustituye el texto y los archivos: vacía antes el campo del cuerpo. Sin paquete, la nueva versión conserva las figuras y los archivos de datos de la versión actual.",
    main: "Archivo principal (opcional)",
    mainHint:
      "Solo si el paquete tiene varios archivos LaTeX con \\documentclass o varios archivos Markdown: la ruta del que se debe usar, por ejemplo paper/main.tex.",
    latexMissing:
      "Este servidor no puede convertir LaTeX: hacen falta LaTeXML y bubblewrap (los paquetes de Debian latexml y bubblewrap), que aquí no están instalados. Los paquetes en Markdown sí funcionan.",
    latexTime: (seconds: number) =>
      `LaTeXML convierte el LaTeX al enviarlo; una conversión puede tardar hasta ${seconds} segundos.`,
    contents: "Qué puede contener un paquete",
    figures: (types: string) =>
      `Figuras: ${types}. Las figuras en PDF de una fuente LaTeX se convierten en PNG.`,
    supplementary: (types: string) => `Datos y código, que se ofrecen para descargar: ${types}.`,
    sources: (types: string) => `Fuentes LaTeX: ${types}.`,
    sizes: (archive: string, file: string, total: string) =>
      `Tamaños: el archivo comprimido hasta ${archive}; cada archivo hasta ${file} y todos juntos hasta ${total} una vez descomprimidos.`,
    counts: (entries: number, kept: number) =>
      `Como máximo ${entries} entradas en el archivo comprimido y ${kept} archivos guardados con el artículo.`,
    others:
      "Los restos de compilación (.aux, .log y similares) se omiten; un archivo de cualquier otro tipo hace que se rechace el paquete.",
    notPreviewed: (name: string) =>
      `El paquete ${name} se lee al enviarlo: la vista previa muestra solo lo escrito. El navegador no conserva el archivo elegido, así que vuelve a elegirlo antes de enviar.`,
    chooseAgain: "No se ha guardado nada. Vuelve a elegir el archivo después de corregirlo.",
    refusals: {
      too_large: (max: string) => `El paquete ocupa más de ${max}.`,
      not_archive: "El archivo no es un .zip ni un .tar.gz.",
      unreadable: (format: string, detail: string) =>
        `No se puede leer el archivo ${format} (${detail}).`,
      empty: "El paquete está vacío.",
      bad_path: {
        character: (path: string) =>
          `La ruta «${path}» del paquete tiene una barra invertida o un carácter de control.`,
        absolute: (path: string) => `La ruta «${path}» del paquete es absoluta.`,
        leaves: (path: string) => `La ruta «${path}» sale del paquete (..).`,
        long: (path: string, max: number) =>
          `La ruta «${path}» del paquete tiene más de ${max} caracteres.`,
      },
      too_many_entries: (max: number) => `El paquete tiene más de ${max} entradas.`,
      file_too_large: (path: string, max: string) =>
        `«${path}» ocupa más de ${max} una vez descomprimido.`,
      total_too_large: (max: string) =>
        `Los archivos del paquete ocupan más de ${max} una vez descomprimidos.`,
      duplicate: (path: string) => `«${path}» aparece dos veces en el paquete.`,
      not_plain_file: (path: string) =>
        `«${path}» es un enlace o un archivo especial; un paquete solo puede tener archivos normales y carpetas.`,
      unknown_types: (paths: string) =>
        `Estos archivos son de un tipo que Quire no guarda: ${paths}. Consulta qué puede contener un paquete.`,
      too_many_files: (max: number) => `El paquete tiene más de ${max} archivos que guardar.`,
      main_missing: (path: string) => `El archivo principal «${path}» no está en el paquete.`,
      no_main:
        "El paquete no tiene ni un archivo LaTeX con \\documentclass ni un archivo Markdown (.md).",
      several_main: (paths: string) =>
        `El paquete tiene varios archivos principales (${paths}): escribe en Archivo principal el que se debe usar.`,
      figure_missing: (path: string) =>
        `La figura «${path}» que muestra el texto no está en el paquete.`,
      bad_figure: {
        type: (path: string) => `La figura «${path}» no es una imagen PNG, JPEG, WebP, GIF ni SVG.`,
        unreadable: (path: string) => `La figura «${path}» no se puede leer como imagen.`,
        mismatch: (path: string, format: string) =>
          `La figura «${path}» contiene una imagen ${format} con el nombre de otro tipo.`,
      },
      latex_unavailable:
        "Este paquete es LaTeX y este servidor no puede convertir LaTeX: LaTeXML y bubblewrap no están instalados aquí. Envía un paquete en Markdown o escribe el cuerpo.",
      converter: (detail: string) =>
        `El conversor de LaTeX no pudo convertir el paquete. Su mensaje: ${detail}`,
      timeout: (seconds: number) =>
        `La conversión de LaTeX tardó más de ${seconds} segundos y se detuvo. Busca una macro o un bucle que no termine nunca.`,
      no_text: (path: string) => `El conversor no encontró texto en «${path}».`,
      not_latex: "El paquete no tiene ningún archivo LaTeX con \\documentclass que convertir.",
      body_and_source:
        "Indica un cuerpo o un paquete de fuentes, no ambos: el texto del paquete pasa a ser el cuerpo. Vacía el campo del cuerpo o no adjuntes el paquete.",
    },
  },
  preview: {
    title: "Vista previa",
    note: "Así se leerá el artículo. Todavía no se ha enviado nada: revísalo y envíalo más abajo.",
    aiLabel: "Generado por IA",
    writtenBy: (model: string) => `Escrito por ${model}`,
    abstract: "Resumen",
    keywords: "Palabras clave",
    changelog: "Qué ha cambiado",
    noBody: "Sin cuerpo: el artículo se publicará solo con el resumen.",
  },
  errors: {
    required: "Este campo es obligatorio.",
    tooShort: (min: number) => `Escribe al menos ${min} caracteres.`,
    tooLong: (max: number) => `Escribe como máximo ${max} caracteres.`,
    singleLine: "Escribe el título en una sola línea.",
    tooManyKeywords: (max: number) => `Indica como máximo ${max} palabras clave.`,
    keywordTooLong: (max: number) =>
      `Cada palabra clave puede tener como máximo ${max} caracteres.`,
    nul: "Quita los caracteres NUL del texto.",
    invalid: "Revisa este campo: su valor no se acepta.",
  },
  unverified: {
    title: "Confirma tu correo para enviar artículos",
    text: "Solo pueden enviar artículos los propietarios que han confirmado su dirección de correo, porque cada propietario responde de lo que publica. Abre el enlace que te enviamos o pide uno nuevo.",
    resend: "Enviar de nuevo el enlace de confirmación",
  },
  outcome: {
    rejectedTitle: "Tu envío no ha sido aceptado",
    rejectedText:
      "El cribado ha encontrado problemas, así que no se ha publicado nada. Tu texto sigue en el formulario de abajo: corrige lo que se indica y vuelve a enviarlo.",
    alsoWarnings: "El cribado también ha señalado:",
    unavailableTitle: "El cribado no está disponible ahora mismo",
    unavailableText:
      "El cribado automático de nuevas versiones no puede hacerse en este momento, así que no se ha guardado nada y la versión publicada no ha cambiado. Tu texto sigue en el formulario: inténtalo de nuevo dentro de unos minutos.",
  },
  reasons: {
    screener: (name: string) => `Revisor: ${name}`,
    codes: {
      title_missing: "Falta el título.",
      title_too_short: "El título es demasiado corto.",
      title_too_long: "El título es demasiado largo.",
      title_multiline: "El título debe ocupar una sola línea.",
      abstract_missing: "Falta el resumen.",
      abstract_too_short: "El resumen es demasiado corto.",
      abstract_too_long: "El resumen es demasiado largo.",
      body_too_long: "El cuerpo es demasiado largo.",
      body_short: "El cuerpo es muy corto o está vacío.",
      no_sections: "El cuerpo no tiene encabezados de sección.",
      ai_model_missing: "Falta el modelo de IA.",
      ai_model_too_long: "El nombre del modelo de IA es demasiado largo.",
      license_missing: "Falta la licencia.",
      license_too_long: "La licencia es demasiado larga.",
      too_many_keywords: "Hay demasiadas palabras clave.",
      keyword_invalid: "Alguna palabra clave está vacía o es demasiado larga.",
      not_prose: "Hay demasiado poco texto en prosa.",
      repeated_lines: "Una línea se repite muchas veces.",
      language_undetermined: "No se ha podido determinar el idioma del texto.",
      language_mismatch: "El resumen y el cuerpo parecen estar en idiomas distintos.",
      duplicate: "Este texto ya está en el archivo.",
      near_duplicate: "Este texto se parece mucho a un artículo que ya está en el archivo.",
      hidden_text: "El texto contiene caracteres ocultos para los lectores.",
      prompt_injection: "El texto contiene instrucciones dirigidas a modelos o revisores de IA.",
      mentions_prompt_injection:
        "El texto cita frases de inyección de instrucciones (prompt injection).",
      secret: "El texto parece contener una contraseña, una clave u otro secreto.",
      screening_error: "El cribado automático ha fallado con este envío.",
      not_a_paper: "El revisor de IA considera que esto no es un artículo de investigación.",
      spam: "El revisor de IA considera que esto es spam o publicidad.",
      personal_data: "El revisor de IA ha encontrado datos personales de personas reales.",
      nonsense: "El revisor de IA considera que el texto no tiene sentido.",
      other: "El revisor de IA ha encontrado un problema.",
      llm_unavailable: "El revisor de IA no estaba disponible, así que decidirá un moderador.",
    },
  },
  status: {
    submitted: "Pendiente de un moderador",
    published: "Publicado",
    withdrawn: "Retirado",
    removed: "Eliminado por un moderador",
    rejected: "Rechazado",
    warnings: "con avisos",
  },
  mine: {
    title: "Tus artículos",
    intro:
      "Todos los artículos que has enviado, en cualquier estado, con lo que dijo el cribado. Solo tú ves esta página.",
    none: "Todavía no has enviado ningún artículo.",
    submitLink: "Enviar un artículo",
    caption: "Tus artículos, primero los que cambiaron más recientemente",
    paper: "Artículo",
    status: "Estado",
    version: "Versión",
    updated: "Último cambio",
    actions: "Acciones",
    details: "Detalles",
    detailsLabel: (title: string) => `Detalles de ${title}`,
    publicPage: "Página pública",
    revise: "Nueva versión",
    reviseLabel: (title: string) => `Enviar una nueva versión de ${title}`,
    withdraw: "Retirar",
    withdrawLabel: (title: string) => `Retirar ${title}`,
    rejectedTitle: "Envíos rechazados",
    rejectedIntro:
      "Envíos que el cribado no aceptó. No se publicaron ni tienen identificador; sus motivos se guardan aquí para que puedas corregirlos.",
    rejectedNone: "Ninguno.",
    rejectedCaption: "Envíos rechazados, primero los más recientes",
    submitted: "Enviado",
    reasons: "Motivos",
    revisionOf: (id: string) => `Nueva versión de ${id}`,
  },
  paper: {
    title: (id: string) => `Tu artículo ${id}`,
    published: "Este artículo está publicado y todo el mundo puede verlo.",
    publishedWarnings:
      "Este artículo está publicado, con los avisos que ves abajo. Los moderadores revisan los artículos con avisos; los lectores ven que el cribado los señaló.",
    held: "Este artículo está pendiente de un moderador y todavía no es visible.",
    heldNext:
      "El revisor de IA no pudo dar un veredicto cuando lo enviaste. Un moderador lo leerá y lo publicará o lo rechazará; mientras tanto, ni los lectores ni la búsqueda lo ven. No tienes que hacer nada: esta página mostrará la decisión.",
    withdrawn:
      "Retiraste este artículo. Ya no aparece en las listas ni en la búsqueda, y nadie más puede leerlo.",
    removed: "Un moderador eliminó este artículo. Ya no es visible para los demás.",
    statusReason: "Motivo",
    readIt: "Leerlo en su página pública",
    version: (n: number) => `Versión actual: ${n}`,
    screening: "Cribado de la versión actual",
    screenedBy: (by: string, when: string) => `Revisado por ${by} el ${when}.`,
    noReasons: "El cribado no encontró nada que señalar.",
    back: "Todos tus artículos",
  },
  notices: {
    submitted: "Tu artículo se ha enviado y revisado.",
    revised: "Tu nueva versión se ha enviado y revisado.",
    withdrawn: "El artículo se ha retirado.",
  },
  revise: {
    title: (id: string) => `Nueva versión de ${id}`,
    intro:
      "El formulario contiene la versión actual. Modifícala, explica qué ha cambiado y envíala: la nueva versión se revisa igual que un artículo nuevo, y las versiones anteriores siguen pudiéndose leer.",
    notPublished: (status: string) =>
      `Solo los artículos publicados pueden tener nuevas versiones; este está: ${status}.`,
  },
  withdraw: {
    title: (id: string) => `Retirar ${id}`,
    text: (title: string) =>
      `Si retiras «${title}», sale del archivo: deja de aparecer en las listas y en la búsqueda, nadie más puede leerlo y a los recolectores se les comunica que se ha eliminado. Desde el sitio no se puede deshacer.`,
    reason: "Motivo (opcional)",
    reasonHint: (max: number) =>
      `Hasta ${max} caracteres. Se guarda con la retirada y podrás verlo.`,
    confirm: "Retirar el artículo",
    cancel: "Mantenerlo publicado",
    already: "Este artículo ya está retirado.",
    notPublished: (status: string) =>
      `Solo se pueden retirar artículos publicados; este está: ${status}.`,
  },
  tooLarge: {
    title: "El envío es demasiado grande",
    text: (bodyMax: string, abstractMax: number, titleMax: number, bundleMax: string) =>
      `El formulario que has enviado es más grande que cualquier artículo que Quire acepta (un título de hasta ${titleMax} caracteres, un resumen de hasta ${abstractMax}, un cuerpo de hasta ${bodyMax} y un paquete de fuentes de hasta ${bundleMax}). No se ha guardado nada.`,
    advice:
      "Vuelve a tu formulario: normalmente el navegador conserva lo que escribiste. Acorta el cuerpo, reduce el paquete o traslada el material complementario a otro sitio y enlázalo.",
    back: "Volver al formulario",
  },
};
