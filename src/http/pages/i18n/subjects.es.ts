/**
 * @module Spanish strings of subjects on the site, typed by the English ones. Subject and group
 * names themselves come from services/subjects.
 */
import type { subjectsEn } from "./subjects.en.ts";

const papers = (n: number, shown: string) => `${shown} ${n === 1 ? "artículo" : "artículos"}`;

export const subjectsEs: typeof subjectsEn = {
  label: (name: string, code: string) => `${name} (${code})`,
  papers,
  picker: {
    legend: "Materias",
    hint: (crossLists: number) =>
      `Opcional. Dónde aparece el artículo: una materia principal y hasta ${crossLists} materias secundarias, de las categorías de arXiv.`,
    reviseHint:
      "Las materias son del artículo, no de una versión. Déjalas todas vacías para conservar las que tiene.",
    primary: "Materia principal",
    cross: (n: number) => `Materia secundaria ${n}`,
    none: "Ninguna",
  },
  errors: {
    unknown: "Elige una materia de la lista.",
    repeated: "Esta materia está elegida dos veces: elige cada materia una sola vez.",
    tooMany: (max: number) => `Elige como mucho ${max} materias.`,
    primaryFirst: "Elige la materia principal antes que las secundarias.",
    required: "Elige al menos la materia principal.",
  },
  paper: {
    title: "Materias",
    primary: "principal",
    change: "Cambiar las materias",
  },
  index: {
    title: "Materias",
    intro:
      "Los artículos se archivan en las categorías de arXiv, agrupadas como las agrupa arXiv. Cada materia tiene su página y su canal Atom.",
    groupsNav: "Grupos",
    categories: (group: string) => `Categorías de ${group}`,
  },
  page: {
    kinds: { group: "Grupo de materias", archive: "Archivo", category: "Categoría" },
    partOf: "Forma parte de",
    categories: "Sus categorías",
    newThisWeek: "Nuevos esta semana",
    noneThisWeek: "No hay artículos nuevos en los últimos siete días.",
    all: "Todos los artículos, los más recientes primero",
    empty: "Todavía ningún artículo tiene esta materia.",
    noMore: "No hay más artículos.",
    feed: "Seguir esta materia (canal Atom)",
    allSubjects: "Todas las materias",
  },
  facets: {
    title: "Materias",
    groups: "Grupos",
    categories: "Categorías con más artículos",
    all: "Todas las materias",
    current: "(mostrada)",
    searchTitle: "Materias de estos resultados",
    searchNote: "Cada enlace lleva a la página de la materia.",
    followSearch: "Seguir esta búsqueda (canal Atom)",
  },
  filters: {
    legend: "Filtrar la lista",
    sort: "Orden",
    sorts: {
      newest: "Los más recientes",
      updated: "Actualizados hace poco",
      discussed: "Los más comentados",
    },
    since: "Publicados desde",
    until: "Publicados hasta",
    dateHint: "Una fecha como 2026-11-02; ambos extremos incluidos.",
    apply: "Mostrar",
    none: "Ningún artículo coincide con estos filtros.",
    clear: "Quitar los filtros",
    subjectTitle: (label: string) => `Artículos de ${label}`,
    badSubject:
      "Eso no es un código de materia, un archivo ni un grupo. Se muestran todos los artículos.",
    badDates:
      "Las fechas se escriben como 2026-11-02, y «desde» no puede ser posterior a «hasta». Se muestran todos los artículos.",
    badSort: "La lista no conoce ese orden. Se muestran todos los artículos.",
  },
  suggestion: {
    line: (label: string) =>
      `Aún sin materia. El cribado sugiere ${label}, la materia que comparten los artículos más cercanos; revise el artículo para archivarlo en ella.`,
  },
  moderation: {
    title: (id: string) => `Materias de ${id}`,
    intro:
      "Los moderadores pueden archivar un artículo en otras materias. El cambio se ve al momento en todas las listas, canales y recolecciones, y queda en el registro de moderación con tu motivo.",
    now: "Archivado ahora en",
    none: "Sin materias",
    suggested: (label: string) =>
      `El cribado sugiere ${label}: la materia que comparten los artículos más cercanos. Es solo una sugerencia; el selector parte de ella.`,
    pickerHint: (crossLists: number) =>
      `Una materia principal y hasta ${crossLists} materias secundarias, de las categorías de arXiv.`,
    reason: "Motivo del cambio",
    submit: "Cambiar las materias",
    done: "Las materias han cambiado; el registro de moderación guarda el cambio.",
    unchanged: "El artículo ya tenía estas materias; no se ha registrado nada.",
  },
};
