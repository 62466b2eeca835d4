/**
 * @module The arXiv category taxonomy as data: groups, archives, categories and aliases, each
 * with its English name as arXiv gives it and a Spanish name of ours.
 *
 * Source: arXiv's own definitions, `arxiv/taxonomy/definitions.py` in arXiv/arxiv-base
 * (commit 53735714229cf5f6ec7e24d5a05deb2e605566b3), which is what
 * https://arxiv.org/category_taxonomy shows: the active categories (`is_active`), without the
 * defunct archives (`cmp-lg`, `alg-geom`, … now subsumed by categories) and the `test` group.
 * The English names are arXiv's, to the letter; the Spanish ones are ours.
 *
 * Three levels, as arXiv has them:
 * - a **category** (`cs.CL`, `hep-th`) is what a paper is filed under;
 * - its **archive** is the code before the dot, or the whole code when there is no dot
 *   (`hep-th`, `quant-ph`, `gr-qc` are archives of one category each);
 * - each archive belongs to one **group**. Seven groups hold a single archive of the same
 *   code (`cs`, `econ`, `eess`, `math`, `q-bio`, `q-fin`, `stat`); the Physics group holds
 *   thirteen (`astro-ph`, `cond-mat`, `gr-qc`, `hep-*`, `math-ph`, `nlin`, `nucl-*`,
 *   `physics`, `quant-ph`).
 *
 * An **alias** is a second code arXiv gives the same category (its `CATEGORY_ALIASES`): the
 * right-hand code is canonical, as on arXiv, so `cs.SY` is stored as `eess.SY` and `math.IT`
 * as `cs.IT`.
 */

/** Group codes are ours (arXiv's are `grp_cs`, …): the group's archive, `physics` for Physics. */
export const GROUPS = {
  cs: { en: "Computer Science", es: "Ciencias de la computación" },
  econ: { en: "Economics", es: "Economía" },
  eess: {
    en: "Electrical Engineering and Systems Science",
    es: "Ingeniería eléctrica y ciencia de sistemas",
  },
  math: { en: "Mathematics", es: "Matemáticas" },
  physics: { en: "Physics", es: "Física" },
  "q-bio": { en: "Quantitative Biology", es: "Biología cuantitativa" },
  "q-fin": { en: "Quantitative Finance", es: "Finanzas cuantitativas" },
  stat: { en: "Statistics", es: "Estadística" },
} as const satisfies Record<string, { en: string; es: string }>;

type Group = keyof typeof GROUPS;

/** Every current archive, with its group; an archive of one category has that category's name. */
export const ARCHIVES = {
  cs: { group: "cs", en: "Computer Science", es: "Ciencias de la computación" },
  econ: { group: "econ", en: "Economics", es: "Economía" },
  eess: {
    group: "eess",
    en: "Electrical Engineering and Systems Science",
    es: "Ingeniería eléctrica y ciencia de sistemas",
  },
  math: { group: "math", en: "Mathematics", es: "Matemáticas" },
  "astro-ph": { group: "physics", en: "Astrophysics", es: "Astrofísica" },
  "cond-mat": { group: "physics", en: "Condensed Matter", es: "Materia condensada" },
  "gr-qc": {
    group: "physics",
    en: "General Relativity and Quantum Cosmology",
    es: "Relatividad general y cosmología cuántica",
  },
  "hep-ex": {
    group: "physics",
    en: "High Energy Physics - Experiment",
    es: "Física de altas energías: experimento",
  },
  "hep-lat": {
    group: "physics",
    en: "High Energy Physics - Lattice",
    es: "Física de altas energías: retículo",
  },
  "hep-ph": {
    group: "physics",
    en: "High Energy Physics - Phenomenology",
    es: "Física de altas energías: fenomenología",
  },
  "hep-th": {
    group: "physics",
    en: "High Energy Physics - Theory",
    es: "Física de altas energías: teoría",
  },
  "math-ph": { group: "physics", en: "Mathematical Physics", es: "Física matemática" },
  nlin: { group: "physics", en: "Nonlinear Sciences", es: "Ciencias no lineales" },
  "nucl-ex": { group: "physics", en: "Nuclear Experiment", es: "Física nuclear experimental" },
  "nucl-th": { group: "physics", en: "Nuclear Theory", es: "Física nuclear teórica" },
  physics: { group: "physics", en: "Physics", es: "Física" },
  "quant-ph": { group: "physics", en: "Quantum Physics", es: "Física cuántica" },
  "q-bio": { group: "q-bio", en: "Quantitative Biology", es: "Biología cuantitativa" },
  "q-fin": { group: "q-fin", en: "Quantitative Finance", es: "Finanzas cuantitativas" },
  stat: { group: "stat", en: "Statistics", es: "Estadística" },
} as const satisfies Record<string, { group: Group; en: string; es: string }>;

type Archive = keyof typeof ARCHIVES;

/** A code whose archive is known: `archive.SUFFIX`, or an archive that is its own category. */
type CodeIn<A extends string> = `${A}.${string}` | A;

/**
 * The canonical categories, `[code, English name, Spanish name]`, in arXiv's order (by group,
 * then code). The type check refuses a code whose archive is not in ARCHIVES.
 */
export const CATEGORIES = [
  ["cs.AI", "Artificial Intelligence", "Inteligencia artificial"],
  ["cs.AR", "Hardware Architecture", "Arquitectura de hardware"],
  ["cs.CC", "Computational Complexity", "Complejidad computacional"],
  [
    "cs.CE",
    "Computational Engineering, Finance, and Science",
    "Ingeniería, finanzas y ciencia computacionales",
  ],
  ["cs.CG", "Computational Geometry", "Geometría computacional"],
  ["cs.CL", "Computation and Language", "Computación y lenguaje"],
  ["cs.CR", "Cryptography and Security", "Criptografía y seguridad"],
  [
    "cs.CV",
    "Computer Vision and Pattern Recognition",
    "Visión por computador y reconocimiento de patrones",
  ],
  ["cs.CY", "Computers and Society", "Computadores y sociedad"],
  ["cs.DB", "Databases", "Bases de datos"],
  [
    "cs.DC",
    "Distributed, Parallel, and Cluster Computing",
    "Computación distribuida, paralela y en clústeres",
  ],
  ["cs.DL", "Digital Libraries", "Bibliotecas digitales"],
  ["cs.DM", "Discrete Mathematics", "Matemática discreta"],
  ["cs.DS", "Data Structures and Algorithms", "Estructuras de datos y algoritmos"],
  ["cs.ET", "Emerging Technologies", "Tecnologías emergentes"],
  ["cs.FL", "Formal Languages and Automata Theory", "Lenguajes formales y teoría de autómatas"],
  ["cs.GL", "General Literature", "Literatura general"],
  ["cs.GR", "Graphics", "Gráficos por computador"],
  ["cs.GT", "Computer Science and Game Theory", "Ciencias de la computación y teoría de juegos"],
  ["cs.HC", "Human-Computer Interaction", "Interacción persona-computador"],
  ["cs.IR", "Information Retrieval", "Recuperación de información"],
  ["cs.IT", "Information Theory", "Teoría de la información"],
  ["cs.LG", "Machine Learning", "Aprendizaje automático"],
  ["cs.LO", "Logic in Computer Science", "Lógica en ciencias de la computación"],
  ["cs.MA", "Multiagent Systems", "Sistemas multiagente"],
  ["cs.MM", "Multimedia", "Multimedia"],
  ["cs.MS", "Mathematical Software", "Software matemático"],
  ["cs.NE", "Neural and Evolutionary Computing", "Computación neuronal y evolutiva"],
  ["cs.NI", "Networking and Internet Architecture", "Redes y arquitectura de Internet"],
  ["cs.OH", "Other Computer Science", "Otros temas de ciencias de la computación"],
  ["cs.OS", "Operating Systems", "Sistemas operativos"],
  ["cs.PF", "Performance", "Rendimiento"],
  ["cs.PL", "Programming Languages", "Lenguajes de programación"],
  ["cs.RO", "Robotics", "Robótica"],
  ["cs.SC", "Symbolic Computation", "Computación simbólica"],
  ["cs.SD", "Sound", "Sonido"],
  ["cs.SE", "Software Engineering", "Ingeniería de software"],
  ["cs.SI", "Social and Information Networks", "Redes sociales y de información"],

  ["econ.EM", "Econometrics", "Econometría"],
  ["econ.GN", "General Economics", "Economía general"],
  ["econ.TH", "Theoretical Economics", "Economía teórica"],

  ["eess.AS", "Audio and Speech Processing", "Procesamiento de audio y habla"],
  ["eess.IV", "Image and Video Processing", "Procesamiento de imagen y vídeo"],
  ["eess.SP", "Signal Processing", "Procesamiento de señales"],
  ["eess.SY", "Systems and Control", "Sistemas y control"],

  ["math.AC", "Commutative Algebra", "Álgebra conmutativa"],
  ["math.AG", "Algebraic Geometry", "Geometría algebraica"],
  ["math.AP", "Analysis of PDEs", "Análisis de ecuaciones en derivadas parciales"],
  ["math.AT", "Algebraic Topology", "Topología algebraica"],
  [
    "math.CA",
    "Classical Analysis and ODEs",
    "Análisis clásico y ecuaciones diferenciales ordinarias",
  ],
  ["math.CO", "Combinatorics", "Combinatoria"],
  ["math.CT", "Category Theory", "Teoría de categorías"],
  ["math.CV", "Complex Variables", "Variable compleja"],
  ["math.DG", "Differential Geometry", "Geometría diferencial"],
  ["math.DS", "Dynamical Systems", "Sistemas dinámicos"],
  ["math.FA", "Functional Analysis", "Análisis funcional"],
  ["math.GM", "General Mathematics", "Matemáticas generales"],
  ["math.GN", "General Topology", "Topología general"],
  ["math.GR", "Group Theory", "Teoría de grupos"],
  ["math.GT", "Geometric Topology", "Topología geométrica"],
  ["math.HO", "History and Overview", "Historia y panorama general"],
  ["math.KT", "K-Theory and Homology", "Teoría K y homología"],
  ["math.LO", "Logic", "Lógica"],
  ["math.MG", "Metric Geometry", "Geometría métrica"],
  ["math.NA", "Numerical Analysis", "Análisis numérico"],
  ["math.NT", "Number Theory", "Teoría de números"],
  ["math.OA", "Operator Algebras", "Álgebras de operadores"],
  ["math.OC", "Optimization and Control", "Optimización y control"],
  ["math.PR", "Probability", "Probabilidad"],
  ["math.QA", "Quantum Algebra", "Álgebra cuántica"],
  ["math.RA", "Rings and Algebras", "Anillos y álgebras"],
  ["math.RT", "Representation Theory", "Teoría de representaciones"],
  ["math.SG", "Symplectic Geometry", "Geometría simpléctica"],
  ["math.SP", "Spectral Theory", "Teoría espectral"],
  ["math.ST", "Statistics Theory", "Teoría estadística"],

  [
    "astro-ph.CO",
    "Cosmology and Nongalactic Astrophysics",
    "Cosmología y astrofísica no galáctica",
  ],
  ["astro-ph.EP", "Earth and Planetary Astrophysics", "Astrofísica terrestre y planetaria"],
  ["astro-ph.GA", "Astrophysics of Galaxies", "Astrofísica de galaxias"],
  [
    "astro-ph.HE",
    "High Energy Astrophysical Phenomena",
    "Fenómenos astrofísicos de altas energías",
  ],
  [
    "astro-ph.IM",
    "Instrumentation and Methods for Astrophysics",
    "Instrumentación y métodos para la astrofísica",
  ],
  ["astro-ph.SR", "Solar and Stellar Astrophysics", "Astrofísica solar y estelar"],
  [
    "cond-mat.dis-nn",
    "Disordered Systems and Neural Networks",
    "Sistemas desordenados y redes neuronales",
  ],
  [
    "cond-mat.mes-hall",
    "Mesoscale and Nanoscale Physics",
    "Física de la mesoescala y la nanoescala",
  ],
  ["cond-mat.mtrl-sci", "Materials Science", "Ciencia de materiales"],
  ["cond-mat.other", "Other Condensed Matter", "Otros temas de materia condensada"],
  ["cond-mat.quant-gas", "Quantum Gases", "Gases cuánticos"],
  ["cond-mat.soft", "Soft Condensed Matter", "Materia condensada blanda"],
  ["cond-mat.stat-mech", "Statistical Mechanics", "Mecánica estadística"],
  ["cond-mat.str-el", "Strongly Correlated Electrons", "Electrones fuertemente correlacionados"],
  ["cond-mat.supr-con", "Superconductivity", "Superconductividad"],
  [
    "gr-qc",
    "General Relativity and Quantum Cosmology",
    "Relatividad general y cosmología cuántica",
  ],
  ["hep-ex", "High Energy Physics - Experiment", "Física de altas energías: experimento"],
  ["hep-lat", "High Energy Physics - Lattice", "Física de altas energías: retículo"],
  ["hep-ph", "High Energy Physics - Phenomenology", "Física de altas energías: fenomenología"],
  ["hep-th", "High Energy Physics - Theory", "Física de altas energías: teoría"],
  ["math-ph", "Mathematical Physics", "Física matemática"],
  ["nlin.AO", "Adaptation and Self-Organizing Systems", "Adaptación y sistemas autoorganizados"],
  ["nlin.CD", "Chaotic Dynamics", "Dinámica caótica"],
  ["nlin.CG", "Cellular Automata and Lattice Gases", "Autómatas celulares y gases reticulares"],
  ["nlin.PS", "Pattern Formation and Solitons", "Formación de patrones y solitones"],
  [
    "nlin.SI",
    "Exactly Solvable and Integrable Systems",
    "Sistemas exactamente resolubles e integrables",
  ],
  ["nucl-ex", "Nuclear Experiment", "Física nuclear experimental"],
  ["nucl-th", "Nuclear Theory", "Física nuclear teórica"],
  ["physics.acc-ph", "Accelerator Physics", "Física de aceleradores"],
  ["physics.ao-ph", "Atmospheric and Oceanic Physics", "Física atmosférica y oceánica"],
  ["physics.app-ph", "Applied Physics", "Física aplicada"],
  ["physics.atm-clus", "Atomic and Molecular Clusters", "Agregados atómicos y moleculares"],
  ["physics.atom-ph", "Atomic Physics", "Física atómica"],
  ["physics.bio-ph", "Biological Physics", "Física biológica"],
  ["physics.chem-ph", "Chemical Physics", "Física química"],
  ["physics.class-ph", "Classical Physics", "Física clásica"],
  ["physics.comp-ph", "Computational Physics", "Física computacional"],
  [
    "physics.data-an",
    "Data Analysis, Statistics and Probability",
    "Análisis de datos, estadística y probabilidad",
  ],
  ["physics.ed-ph", "Physics Education", "Enseñanza de la física"],
  ["physics.flu-dyn", "Fluid Dynamics", "Dinámica de fluidos"],
  ["physics.gen-ph", "General Physics", "Física general"],
  ["physics.geo-ph", "Geophysics", "Geofísica"],
  ["physics.hist-ph", "History and Philosophy of Physics", "Historia y filosofía de la física"],
  ["physics.ins-det", "Instrumentation and Detectors", "Instrumentación y detectores"],
  ["physics.med-ph", "Medical Physics", "Física médica"],
  ["physics.optics", "Optics", "Óptica"],
  ["physics.plasm-ph", "Plasma Physics", "Física de plasmas"],
  ["physics.pop-ph", "Popular Physics", "Divulgación de la física"],
  ["physics.soc-ph", "Physics and Society", "Física y sociedad"],
  ["physics.space-ph", "Space Physics", "Física espacial"],
  ["quant-ph", "Quantum Physics", "Física cuántica"],

  ["q-bio.BM", "Biomolecules", "Biomoléculas"],
  ["q-bio.CB", "Cell Behavior", "Comportamiento celular"],
  ["q-bio.GN", "Genomics", "Genómica"],
  ["q-bio.MN", "Molecular Networks", "Redes moleculares"],
  ["q-bio.NC", "Neurons and Cognition", "Neuronas y cognición"],
  ["q-bio.OT", "Other Quantitative Biology", "Otros temas de biología cuantitativa"],
  ["q-bio.PE", "Populations and Evolution", "Poblaciones y evolución"],
  ["q-bio.QM", "Quantitative Methods", "Métodos cuantitativos"],
  ["q-bio.SC", "Subcellular Processes", "Procesos subcelulares"],
  ["q-bio.TO", "Tissues and Organs", "Tejidos y órganos"],

  ["q-fin.CP", "Computational Finance", "Finanzas computacionales"],
  ["q-fin.GN", "General Finance", "Finanzas generales"],
  ["q-fin.MF", "Mathematical Finance", "Finanzas matemáticas"],
  ["q-fin.PM", "Portfolio Management", "Gestión de carteras"],
  ["q-fin.PR", "Pricing of Securities", "Valoración de activos financieros"],
  ["q-fin.RM", "Risk Management", "Gestión de riesgos"],
  ["q-fin.ST", "Statistical Finance", "Finanzas estadísticas"],
  ["q-fin.TR", "Trading and Market Microstructure", "Negociación y microestructura de mercado"],

  ["stat.AP", "Applications", "Aplicaciones"],
  ["stat.CO", "Computation", "Computación"],
  ["stat.ME", "Methodology", "Metodología"],
  ["stat.ML", "Machine Learning", "Aprendizaje automático"],
  ["stat.OT", "Other Statistics", "Otros temas de estadística"],
] as const satisfies readonly (readonly [CodeIn<Archive>, string, string])[];

type Category = (typeof CATEGORIES)[number][0];

/**
 * arXiv's `CATEGORY_ALIASES`: alias → canonical code. Each alias sits in another archive than
 * its canonical code (`cs.SY` in cs, `eess.SY` in eess), which is how a filter on that archive
 * finds the canonical category too.
 */
export const ALIASES = {
  "cs.NA": "math.NA",
  "cs.SY": "eess.SY",
  "math.IT": "cs.IT",
  "math.MP": "math-ph",
  "q-fin.EC": "econ.GN",
  "stat.TH": "math.ST",
} as const satisfies Record<`${Archive}.${string}`, Category>;
