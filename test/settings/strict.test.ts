/**
 * Mistakes said out loud: a misspelt key in a project file, or a misspelt DOCPROC_* variable, stops the command with
 * every such key listed at once and the closest known name; settings stored by docproc itself still load.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { defaultProject, mergeOverDefault, parseProjectSettings, ProjectSettingsSchema } from "../../src/core/project";
import { unknownKeys } from "../../src/core/unknown-keys";
import { EnvSchema, loadEnvSettings, unknownVariables } from "../../src/settings/env";
import { SETTINGS_VARIABLES } from "../../src/settings/env-names";
import { REPO, runCli } from "../cli/helpers";

const dir = mkdtempSync(path.join(tmpdir(), "docproc-strict-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PDF = path.join(REPO, "fixtures/inbox/born-digital-invoice.pdf");

test("a project file with typos at several depths fails with exit 4, every key named with its did-you-mean", async () => {
  const file = path.join(dir, "typo.yaml");
  writeFileSync(
    file,
    [
      "review_threshold:",
      "  field: 0.7",
      "classes:",
      "  - { id: invoice, name: Invoice, cue_word: [invoice] }",
      "fields:",
      "  invoice:",
      "    - { id: total, name: Total, type: amount, hints: { lables: [Total] } }",
      "export_profiles:",
      "  - { id: c, name: csv, output_format: csv, options: { delimitr: ';' } }",
      "validation_rules: []",
      "workflow:",
      "  - { type: review, whenn: always }",
    ].join("\n"),
  );
  const r = await runCli(["process", PDF, "--project", file, "--out", path.join(dir, "out")]);
  expect(r.code).toBe(4);
  for (const line of [
    'review_threshold: unknown key "review_threshold". Did you mean "review_thresholds"?',
    'classes.0.cue_word: unknown key "cue_word". Did you mean "cue_words"?',
    'fields.invoice.0.hints.lables: unknown key "lables". Did you mean "labels"?',
    'export_profiles.0.options.delimitr: unknown key "delimitr". Did you mean "delimiter"?',
    'workflow.0.whenn: unknown key "whenn". Did you mean "when"?',
  ])
    expect(r.stderr).toContain(line);
  expect(existsSync(path.join(dir, "out"))).toBe(false);
});

test("a key under a schema that is strict already is reported once, with the guess", () => {
  const workflow = [
    { type: "export" },
    { type: "notification", id: "h", activity: { webhook_url: "https://x.example/h", hmac_secrt: "s" } },
  ];
  expect(() => parseProjectSettings(mergeOverDefault({ workflow }), { strict: true })).toThrow(
    'Invalid project settings (1 problem):\n- workflow.1.activity.hmac_secrt: unknown key "hmac_secrt". Did you mean "hmac_secret"?',
  );
});

test("the walk: open objects accept any key, a plain union is held to its closest option, records and tuples are walked", () => {
  const schema = z.object({
    open: z.looseObject({ a: z.number() }),
    either: z.union([z.object({ x: z.number() }), z.object({ y: z.number(), z: z.number() })]),
    byName: z.record(z.string(), z.object({ size: z.number() })),
    pair: z.tuple([z.object({ p: z.number() }), z.string()]).optional(),
  });
  expect(
    unknownKeys(schema, {
      open: { a: 1, extra: 2 },
      either: { y: 1, zz: 2 },
      byName: { a: { sise: 1 } },
      pair: [{ q: 1 }, "s"],
    }),
  ).toEqual([
    'either.zz: unknown key "zz". Did you mean "z"?',
    'byName.a.sise: unknown key "sise". Did you mean "size"?',
    'pair.0.q: unknown key "q". Did you mean "p"?',
  ]);
});

test("a key far from every known one is still an error, without a guess", () => {
  expect(unknownKeys(ProjectSettingsSchema, { name: "x", zzzz: 1 })).toEqual(['zzzz: unknown key "zzzz".']);
});

test("stored settings load as before: parsing without strict ignores keys of other versions", () => {
  const stored = { ...JSON.parse(JSON.stringify(defaultProject)), retired_setting: true };
  expect(parseProjectSettings(stored).name).toBe(defaultProject.name);
  expect(() => parseProjectSettings(stored, { strict: true })).toThrow(
    'retired_setting: unknown key "retired_setting"',
  );
  // What docproc writes itself is strictly valid: the default project as parsed.
  expect(unknownKeys(ProjectSettingsSchema, JSON.parse(JSON.stringify(defaultProject)))).toEqual([]);
});

test("an unknown DOCPROC_ variable is an error naming the closest one; other variables and _PASSWORD ones are left alone", async () => {
  expect(
    unknownVariables({
      DOCPROC_PUBLC_URL: "http://x",
      DOCPROC_PORT: "1",
      HOME: "/root",
      DOCPROC_MAIL_PASSWORD: "s",
      DOCPROC_IMAP_PASSWORD: "s",
    }),
  ).toEqual(['DOCPROC_PUBLC_URL is not a docproc setting. Did you mean "DOCPROC_PUBLIC_URL"?']);
  expect(() => loadEnvSettings({ DOCPROC_PORTT: "1", DOCPROC_MAX_FILES: "x" })).toThrow(
    /DOCPROC_MAX_FILES must be a number.*DOCPROC_PORTT is not a docproc setting\. Did you mean "DOCPROC_PORT"\?/,
  );
  const r = await runCli(["process", PDF, "--out", path.join(dir, "env-out")], {
    env: { DOCPROC_WEBHOOK_ALLOWW: "*" },
  });
  expect(r.code).toBe(4);
  expect(r.stderr).toContain('DOCPROC_WEBHOOK_ALLOWW is not a docproc setting. Did you mean "DOCPROC_WEBHOOK_ALLOW"?');
});

test("memory learn --project FILE creates the file when it does not exist, and the file then loads strictly", async () => {
  for (const name of ["vendors.yaml", "vendors.json"]) {
    const project = path.join(dir, name);
    const r = await runCli([
      "memory",
      "learn",
      path.join(REPO, "fixtures/eval/acme-1001.txt"),
      "--expected",
      path.join(REPO, "fixtures/eval/acme-1001.json"),
      "--project",
      project,
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`created ${project}`);
    expect(existsSync(`${project}.bak`)).toBe(false);
    expect(readFileSync(project, "utf8")).toContain("memory");
    const list = await runCli(["memory", "list", "--project", project, "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).items).toHaveLength(1);
  }
}, 120_000);

test("the light list of variable names (checked at every start) is EnvSchema's", () => {
  expect([...SETTINGS_VARIABLES] as string[]).toEqual(Object.keys(EnvSchema.shape));
});

test("every DOCPROC_* name the code, bench, scripts or CI mention is known, so setting it never stops a command", async () => {
  const names = new Set<string>();
  for (const dir of ["src", "bench", "scripts", ".ci"]) {
    // dot: false keeps out bench/.cache (GBs of generated bench PDFs on a developer's machine).
    for (const file of new Bun.Glob("**/*").scanSync({ cwd: path.join(REPO, dir), dot: false })) {
      for (const m of readFileSync(path.join(REPO, dir, file), "utf8").matchAll(/DOCPROC_[A-Z0-9_]*[A-Z0-9]/g))
        names.add(m[0]);
    }
  }
  for (const m of readFileSync(path.join(REPO, "package.json"), "utf8").matchAll(/DOCPROC_[A-Z0-9_]*[A-Z0-9]/g))
    names.add(m[0]);
  expect(names.size).toBeGreaterThan(30);
  expect(unknownVariables(Object.fromEntries([...names].map((n) => [n, "1"])))).toEqual([]);
});
