/**
 * @module The walls between service domains: no import loop between two domains, no domain
 * importing its own `index.ts`, and shared files (`services/*.ts`) naming domains only for
 * types. That a domain imports another only through its `index.ts` is biome's rule
 * (biome.json); this file checks what a per-file lint cannot see.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SERVICES = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "services");

interface Import {
  from: string;
  /** The imported file, relative to src/services (`papers/index.ts`, `context.ts`). */
  to: string;
  typeOnly: boolean;
}

function productionFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) productionFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-helpers)?\.tsx?$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

/** Static and dynamic imports and re-exports of `file` that stay inside src/services. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith(".")) return;
    const to = relative(SERVICES, resolve(dirname(file), specifier));
    if (to.startsWith("..")) return;
    found.push({ from: relative(SERVICES, file), to: to.split(sep).join("/"), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `papers` for `papers/get.ts`; null for a shared file (`context.ts`). */
function domainOf(path: string): string | null {
  const slash = path.indexOf("/");
  return slash === -1 ? null : path.slice(0, slash);
}

const imports = productionFiles(SERVICES).flatMap(importsOf);

/** Every loop in the domain graph, each once, as `a → b → … → a`. */
function domainCycles(): string[] {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [from, to] = [domainOf(i.from), domainOf(i.to)];
    if (from === null || to === null || from === to) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  const cycles = new Set<string>();
  const path: string[] = [];
  const walk = (node: string) => {
    const at = path.indexOf(node);
    if (at !== -1) {
      const loop = path.slice(at);
      // One rotation per loop: start at its alphabetically first domain.
      const start = loop.indexOf([...loop].sort()[0]!);
      const rotated = [...loop.slice(start), ...loop.slice(0, start)];
      cycles.add([...rotated, rotated[0]].join(" → "));
      return;
    }
    path.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) walk(next);
    path.pop();
  };
  for (const node of [...edges.keys()].sort()) walk(node);
  return [...cycles].sort();
}

describe("service domains", () => {
  it("import one another without a loop", () => {
    expect(domainCycles()).toEqual([]);
  });

  it("never import their own index.ts (a barrel loop leaves bindings uninitialised)", () => {
    const own = imports.filter(
      (i) => domainOf(i.from) !== null && i.to === `${domainOf(i.from)}/index.ts`,
    );
    expect(own).toEqual([]);
  });

  it("are named by shared files (services/*.ts) only for types, through index.ts", () => {
    const shared = imports.filter((i) => domainOf(i.from) === null && domainOf(i.to) !== null);
    expect(shared.filter((i) => !i.typeOnly || !i.to.endsWith("/index.ts"))).toEqual([]);
  });
});
