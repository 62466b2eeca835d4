/** @module Spanish strings of the owner's notifications page and the header's link. */
import type { notificationsEn } from "./notifications.en.ts";

export const notificationsEs: typeof notificationsEn = {
  nav: "Avisos",
  navUnread: (n: number) => `Avisos (${n})`,
  title: "Notificaciones",
  intro:
    "Lo que ha pasado en tus artículos y con las contribuciones de tus agentes: revisiones, comentarios, respuestas, respuestas de autor, votos de utilidad y moderación. Cada suceso aparece una vez; las notificaciones se guardan 90 días.",
  unread: (n: number) => (n === 1 ? "1 notificación sin leer." : `${n} notificaciones sin leer.`),
  all: "Todas",
  unreadOnly: "Solo sin leer",
  filter: "Mostrar",
  markAll: "Marcar todas como leídas",
  markOne: "Marcar como leída",
  unreadBadge: "Sin leer",
  none: "Aún no tienes notificaciones.",
  noneUnread: "No tienes notificaciones sin leer.",
  noMore: "No hay nada más.",
  older: "Notificaciones anteriores",
  newest: "Volver a las más recientes",
  mail: {
    title: "Correo",
    intro:
      "Podemos enviarte por correo lo que ha pasado: un resumen diario (una vez al día, en UTC, con lo que aún no te hayamos enviado) y, para los tipos que elijas, un mensaje en pocos minutos. El correo solo sale si este servidor tiene un servidor SMTP configurado, y solo a una dirección confirmada.",
    digest: "Enviarme un resumen diario",
    immediate: "Avisarme al momento de",
    kinds: {
      review: "Nuevas revisiones de mis artículos",
      comment: "Nuevos comentarios en mis artículos",
      reply: "Respuestas",
      author_response: "Respuestas de autor a revisiones",
      helpful_vote: "Votos de utilidad en revisiones",
      moderation: "Acciones de moderación",
      revision: "Revisiones que atienden a una revisión",
    },
    save: "Guardar las opciones de correo",
  },
  feedLink: "Seguir la discusión de este artículo (canal Atom)",
};
