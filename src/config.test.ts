import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has working defaults for a zero-setup start", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATA_DIR).toBe("./data");
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.BASE_URL).toBe("http://localhost:3000");
    expect(c.KEY_PREFIX).toBe("quire");
    expect(c.TRUST_PROXY).toEqual([]);
    expect(c.SEED_SAMPLES).toBe(true);
    expect(c.REDIS_TIMEOUT_MS).toBe(200);
    expect(c.RATE_LIMIT_IPV6_PREFIX).toBe(64);
    expect(c.SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(c.METRICS_PORT).toBeUndefined();
    expect(c.METRICS_TOKEN).toBeUndefined();
    expect(c.PGLITE_SHARED_BUFFERS_MB).toBeUndefined();
    expect(c.PRUNE_INTERVAL_SECONDS).toBe(600);
  });

  it("reads the prune interval, 0 turning the periodic prune off", () => {
    expect(loadConfig({ PRUNE_INTERVAL_SECONDS: "0" }).PRUNE_INTERVAL_SECONDS).toBe(0);
    expect(loadConfig({ PRUNE_INTERVAL_SECONDS: "3600" }).PRUNE_INTERVAL_SECONDS).toBe(3600);
  });

  it("reads the operations variables", () => {
    const c = loadConfig({
      METRICS_PORT: "9464",
      METRICS_HOST: "127.0.0.1",
      METRICS_TOKEN: "0123456789abcdef-token",
      SHUTDOWN_TIMEOUT_MS: "30000",
      LOG_LEVEL: "warn",
    });
    expect(c).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_HOST: "127.0.0.1",
      METRICS_TOKEN: "0123456789abcdef-token",
      SHUTDOWN_TIMEOUT_MS: 30_000,
      LOG_LEVEL: "warn",
    });
  });

  it("reads every documented variable", () => {
    const c = loadConfig({
      PORT: "8080",
      BASE_URL: "https://quire.example.org/",
      DATA_DIR: "/var/lib/quire",
      DATABASE_URL: "postgres://quire@db:5432/quire",
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_TIMEOUT_MS: "1500",
      EMBEDDINGS_URL: "http://127.0.0.1:11434/v1",
      EMBEDDINGS_MODEL: "nomic-embed-text",
      SCREENER_URL: "http://127.0.0.1:8000/v1",
      SCREENER_MODEL: "qwen",
      SCREENER_API_KEY: "sk-local",
      SCREENER_TIMEOUT_MS: "45000",
      TRUST_PROXY: "127.0.0.1, 10.0.0.0/8, ::1",
      SMTP_URL: "smtp://mail:25",
      KEY_PREFIX: "myarchive",
      CONTACT_EMAIL: "abuse@example.org",
      PGLITE_SHARED_BUFFERS_MB: "32",
      RATE_LIMIT_IPV6_PREFIX: "56",
    });
    expect(c.RATE_LIMIT_IPV6_PREFIX).toBe(56);
    expect(c.PGLITE_SHARED_BUFFERS_MB).toBe(32);
    expect(c.CONTACT_EMAIL).toBe("abuse@example.org");
    expect(c.PORT).toBe(8080);
    expect(c.BASE_URL).toBe("https://quire.example.org");
    expect(c.TRUST_PROXY).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
    expect(c.KEY_PREFIX).toBe("myarchive");
    expect(c.REDIS_TIMEOUT_MS).toBe(1500);
    expect(c.SCREENER_API_KEY).toBe("sk-local");
    expect(c.SCREENER_TIMEOUT_MS).toBe(45000);
  });

  it("treats empty strings as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["DATABASE_READ_URL", "mysql://x"],
    ["REDIS_URL", "http://cache:6379"],
    ["REDIS_TIMEOUT_MS", "5"],
    ["REDIS_TIMEOUT_MS", "1.5"],
    ["SCREENER_TIMEOUT_MS", "10"],
    ["BASE_URL", "not a url"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "example.org"],
    ["KEY_PREFIX", "Bad Prefix"],
    ["LOG_LEVEL", "loud"],
    ["CONTACT_EMAIL", "not an address"],
    ["METRICS_PORT", "65536"],
    ["METRICS_PORT", "3000"],
    ["METRICS_TOKEN", "short"],
    ["METRICS_TOKEN", "has a space in it ok"],
    ["SHUTDOWN_TIMEOUT_MS", "-1"],
    ["SHUTDOWN_TIMEOUT_MS", "soon"],
    ["PGLITE_SHARED_BUFFERS_MB", "0"],
    ["PGLITE_SHARED_BUFFERS_MB", "2048"],
    ["PGLITE_SHARED_BUFFERS_MB", "32MB"],
    ["PRUNE_INTERVAL_SECONDS", "-1"],
    ["PRUNE_INTERVAL_SECONDS", "10m"],
    ["RATE_LIMIT_IPV6_PREFIX", "16"],
    ["RATE_LIMIT_IPV6_PREFIX", "129"],
    ["RATE_LIMIT_IPV6_PREFIX", "64.5"],
  ])("names %s when its value %j is bad", (variable, value) => {
    try {
      loadConfig({ [variable]: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(variable);
    }
  });

  it("lists every bad variable at once, and requires models with their URLs", () => {
    try {
      loadConfig({ PORT: "x", EMBEDDINGS_URL: "http://e/v1", SCREENER_URL: "http://s/v1" });
      expect.unreachable();
    } catch (error) {
      const names = (error as ConfigError).problems.map((p) => p.variable);
      expect(names).toContain("PORT");
    }
    try {
      loadConfig({ EMBEDDINGS_URL: "http://e/v1", SCREENER_URL: "http://s/v1" });
      expect.unreachable();
    } catch (error) {
      const names = (error as ConfigError).problems.map((p) => p.variable);
      expect(names).toEqual(["EMBEDDINGS_MODEL", "SCREENER_MODEL"]);
    }
  });

  it("takes a read replica with PostgreSQL, and refuses one for the embedded engine", () => {
    const c = loadConfig({
      DATABASE_URL: "postgres://quire@db:5432/quire",
      DATABASE_READ_URL: "postgres://quire@replica:5432/quire",
    });
    expect(c.DATABASE_READ_URL).toBe("postgres://quire@replica:5432/quire");
    expect(loadConfig({}).DATABASE_READ_URL).toBeUndefined();
    try {
      loadConfig({ DATABASE_READ_URL: "postgres://quire@replica:5432/quire" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        {
          variable: "DATABASE_READ_URL",
          message:
            "needs DATABASE_URL: read replicas are for PostgreSQL; the embedded engine has none",
        },
      ]);
    }
  });
});
