/** @module The Spanish→English research glossary and cognate endings, on their own. */
import { describe, expect, it } from "vitest";
import { applyGlossary, englishCognates } from "./glossary.ts";

describe("applyGlossary", () => {
  it("puts research terms into English before translation, whatever their accents and case", () => {
    expect(applyGlossary("banco de pruebas de seguridad para agentes")).toBe(
      "benchmark de seguridad para agentes",
    );
    expect(applyGlossary("Modelos de Lenguaje pequeños como jueces")).toBe(
      "small language models como jueces",
    );
    expect(applyGlossary("transformadores preentrenados para el reconocimiento de voz")).toBe(
      "transformadores pretrained para el speech recognition",
    );
    expect(applyGlossary("generación aumentada por recuperación")).toBe(
      "retrieval-augmented generation",
    );
  });

  it("knows the field's common terms Apertium mistranslates, the longer term first", () => {
    // Apertium alone: "Artificial vision", "Temporary series", "Rear door", "grafos Of knowledge".
    expect(applyGlossary("visión artificial para series temporales")).toBe(
      "computer vision para time series",
    );
    expect(applyGlossary("ataques de puerta trasera")).toBe("ataques de backdoor");
    expect(applyGlossary("grafos de conocimiento y otros grafos")).toBe(
      "knowledge graphs y otros graph",
    );
    expect(applyGlossary("Poda y cuantización de redes neuronales")).toBe(
      "pruning y quantization de neural networks",
    );
    expect(applyGlossary("varias vistas 2D")).toBe("varias views 2D");
    expect(applyGlossary("jueces igual que los grandes modelos de lenguaje y los grandes")).toBe(
      "jueces igual que los large language models y los large",
    );
  });

  it("matches whole words only and leaves other text, and English, as it is", () => {
    expect(applyGlossary("decodificaciones")).toBe("decodificaciones");
    expect(applyGlossary("curve number method in mountain watersheds")).toBe(
      "curve number method in mountain watersheds",
    );
    expect(applyGlossary("")).toBe("");
  });
});

describe("englishCognates", () => {
  it("gives words the translator passed through their English ending", () => {
    const query = "modelos multimodales que estiman los micronutrientes";
    expect(englishCognates("Models multimodales that estimate the micronutrientes", query)).toBe(
      "Models multimodal that estimate the micronutrients",
    );
  });

  it("leaves translated words, short words and words without a known ending alone", () => {
    expect(englishCognates("the nation of information", "la nación de información")).toBe(
      "the nation of information",
    );
    expect(englishCognates("Quire colusión", "quire colusión")).toBe("Quire colusion");
  });

  it("spells cognates the English way: endings, a Greek start, no accents", () => {
    const query = "reutilizar fotopletismografía subsuperficial neurosimbólica coherencia";
    expect(
      englishCognates(
        "reutilizar fotopletismografía subsuperficial neurosimbólica coherencia",
        query,
      ),
    ).toBe("reutilize photopletismography subsuperficial neurosimbolic coherence");
  });
});
