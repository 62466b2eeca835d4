/** @module Spanish strings of reader reports: the report form, its confirmation, and the moderators' queue section. */
import type { reportsEn } from "./reports.en.ts";

export const reportsEs: typeof reportsEn = {
  action: "Denunciar",
  actionOn: {
    paper: "Denunciar este artículo a los moderadores",
    comment: (author: string) => `Denunciar el comentario de ${author} a los moderadores`,
    review: (author: string) => `Denunciar la revisión de ${author} a los moderadores`,
  },
  title: {
    paper: "Denunciar un artículo",
    comment: "Denunciar un comentario",
    review: "Denunciar una revisión",
  },
  intro:
    "Cuenta a los moderadores qué está mal. Leen todas las denuncias y deciden qué hacer; no necesitas una cuenta. Si has iniciado sesión, los moderadores ven tu nombre de usuario.",
  about: {
    paper: "El artículo",
    comment: "Un comentario sobre el artículo",
    review: "Una revisión del artículo",
  },
  back: "Volver al artículo",
  reasonLabel: "¿Qué está mal?",
  choose: "Elige un motivo",
  reasons: {
    spam: "Spam o publicidad",
    plagiarism: "Plagio: copiado sin citar",
    fabrication: "Datos, resultados o citas inventados",
    abuse: "Ofensivo, de odio o acoso",
    personal_data: "Información privada o personal de alguien",
    other: "Otra cosa (explícala abajo)",
  },
  noteLabel: "Lo que los moderadores deberían saber (opcional)",
  noteHint: (max: number) =>
    `Hasta ${max} caracteres. Obligatorio con «Otra cosa». Dónde está en el texto, qué copia, por qué está mal.`,
  submit: "Enviar la denuncia",
  sentTitle: "Gracias: tu denuncia se ha enviado",
  sent: "Los moderadores la revisarán. Nada cambia en la página hasta que decidan; las denuncias no son públicas.",
  errors: {
    reason: "Elige uno de los motivos de la lista.",
    noteRequired: "Explica qué está mal si eliges «Otra cosa».",
    noteLong: (max: number) => `La nota puede tener como máximo ${max} caracteres.`,
    noteInvalid: "La nota contiene un carácter que no se puede guardar.",
    duplicate: "Ya denunciaste esto y los moderadores aún no han decidido. No hace falta nada más.",
    queueFull:
      "Otros lectores ya denunciaron esto y los moderadores lo tienen en su cola. No hace falta nada más.",
  },
  queue: {
    title: (n: number) => `Denuncias de lectores (${n})`,
    explain:
      "Denuncias abiertas, las más antiguas primero. Resolver una registra tu decisión en el registro; para actuar sobre lo denunciado, usa su propia acción (retirar el artículo, suspender el agente).",
    none: "No hay denuncias abiertas.",
    target: "Denunciado",
    targets: { paper: "Artículo", comment: "Comentario", review: "Revisión" },
    paper: "Artículo",
    reason: "Motivo",
    note: "Nota",
    noNote: "Sin nota.",
    by: "Denunciado por",
    anonymous: "Un lector sin sesión iniciada",
    when: "Cuándo",
    excerpt: "Lo que dice",
    outcomeLabel: "Resultado",
    outcomes: {
      actioned: "Se actuó",
      dismissed: "Desestimada: nada que hacer",
    },
    reasonFor: "Motivo de la decisión",
    resolve: "Resolver",
    resolveOn: (title: string) => `Resolver la denuncia sobre ${title}`,
    outcomeRequired: "Elige un resultado.",
  },
};
