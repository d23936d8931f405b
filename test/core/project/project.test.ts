import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../../src/core/errors";
import { defaultProject, loadProjectFile, parseProjectSettings } from "../../../src/core/project";

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DocprocError);
    expect((e as DocprocError).code).toBe("invalid_settings");
    return (e as DocprocError).details!.problems as string[];
  }
  throw new Error("expected invalid_settings");
}

describe("default project", () => {
  test("covers the seven document classes with invoice fields and a notification node after export", () => {
    expect(defaultProject.classes.map((c) => c.id)).toEqual([
      "invoice",
      "credit_note",
      "receipt",
      "purchase_order",
      "contract",
      "letter",
      "other",
    ]);
    const ids = defaultProject.fields.invoice!.map((f) => f.id);
    for (const id of [
      "invoice_number",
      "invoice_date",
      "due_date",
      "vendor_name",
      "vendor_address",
      "vendor_vat_id",
      "customer_name",
      "iban",
      "currency",
      "subtotal_amount",
      "tax_amount",
      "total_amount",
      "purchase_order_number",
      "line_items",
    ]) {
      expect(ids).toContain(id);
    }
    expect(defaultProject.fields.receipt!.map((f) => f.id)).toEqual(ids);
    const lineItems = defaultProject.fields.invoice!.find((f) => f.id === "line_items")!;
    expect(lineItems.columns!.map((c) => c.id)).toEqual(["description", "quantity", "unit_price", "amount"]);
    const steps = defaultProject.workflow.map((s) => s.type);
    expect(steps.indexOf("notification")).toBe(steps.indexOf("export") + 1);
    expect(defaultProject.export_profiles.map((p) => p.id)).toEqual(["json"]);
    expect(defaultProject.split.mode).toBe("intelligent");
  });
});

describe("parseProjectSettings", () => {
  test("lists every problem at once, with paths, schema and cross-reference problems together", () => {
    const problems = problemsOf(() =>
      parseProjectSettings({
        classes: [
          { id: "bad id", name: "" },
          { id: "invoice", name: "Invoice", cue_patterns: ["(unclosed"] },
        ],
        fields: { invoice: [{ id: "x", name: "X", type: "money" }], ghost: [] },
        split: { mode: "sideways" },
        validation_rules: [{ id: "r1", type: "required", field: "nope" }],
        export_profiles: [
          { id: "j", name: "J", output_format: "json" },
          { id: "j", name: "J2", output_format: "json" },
        ],
        workflow: [{ type: "notification", id: "n1", activity: { webhook_url: "not a url" } }],
      }),
    );
    const joined = problems.join("\n");
    expect(joined).toContain("classes.0.id");
    expect(joined).toContain("classes.0.name");
    expect(joined).toContain("classes.1.cue_patterns.0: not a valid regular expression");
    expect(joined).toContain("fields.invoice.0.type");
    expect(joined).toContain('fields.ghost: no class with id "ghost"');
    expect(joined).toContain("split.mode");
    expect(joined).toContain('validation_rules.0: unknown field "nope"');
    expect(joined).toContain('duplicate export profile id "j"');
    expect(joined).toContain("workflow.0.activity.webhook_url");
    expect(problems.length).toBeGreaterThanOrEqual(9);
  });

  test("the error message names the count and every problem on its own line", () => {
    try {
      parseProjectSettings({ classes: [], split: {} });
    } catch (e) {
      expect((e as Error).message).toMatch(/^Invalid project settings \(1 problem\):\n- classes: /);
      return;
    }
    throw new Error("expected a throw");
  });

  test("accepts any number of notification activities anywhere in the workflow", () => {
    const p = parseProjectSettings({
      ...defaultProject,
      workflow: [
        { type: "notification", id: "early", activity: { webhook_url: "https://example.com/a" } },
        { type: "extract" },
        { type: "notification", id: "late", activity: { webhook_url: "https://example.com/b", events: ["failed"] } },
      ],
    });
    const notes = p.workflow.filter((s) => s.type === "notification");
    expect(notes.length).toBe(2);
    expect(notes[1]!.type === "notification" && notes[1]!.activity?.retry_max_attempts).toBe(3);
  });

  test("minimal settings get defaults: split settings, the JSON export profile, thresholds", () => {
    const p = parseProjectSettings({ classes: [{ id: "memo", name: "Memo" }] });
    expect(p.split.mode).toBe("intelligent");
    expect(p.export_profiles.map((e) => e.id)).toEqual(["json"]);
    expect(p.review_thresholds.classification).toBe(0.6);
    expect(
      parseProjectSettings({ classes: [{ id: "memo", name: "Memo" }], export_profiles: [] }).export_profiles,
    ).toEqual([]);
  });

  test("a notification node without an activity is an unconfigured node, valid; the default project's needs only webhook_url", () => {
    const p = parseProjectSettings({ ...defaultProject, workflow: [{ type: "notification", id: "n" }] });
    expect(p.workflow[0]).toMatchObject({ type: "notification", id: "n", enabled: true, activity: null });
    const node = defaultProject.workflow.find((s) => s.type === "notification")!;
    expect(node.enabled).toBe(true);
    const configured = parseProjectSettings({
      ...defaultProject,
      workflow: defaultProject.workflow.map((s) =>
        s.type === "notification" ? { ...s, activity: { webhook_url: "https://hooks.example.com/x" } } : s,
      ),
    });
    const activity = configured.workflow.find((s) => s.type === "notification")!;
    expect(activity).toMatchObject({
      enabled: true,
      activity: { webhook_url: "https://hooks.example.com/x", events: ["reached", "failed"] },
    });
  });

  test("ocr.engine and id are kept (not stripped); a bad engine is reported", () => {
    const p = parseProjectSettings({ ...defaultProject, id: "invoices", ocr: { engine: "wasm" } });
    expect(p.id).toBe("invoices");
    expect(p.ocr.engine).toBe("wasm");
    expect(defaultProject.ocr.engine).toBe("auto");
    expect(problemsOf(() => parseProjectSettings({ ...defaultProject, ocr: { engine: "gpu" } })).join()).toContain(
      "ocr.engine",
    );
  });
});

describe("ocr.languages", () => {
  test("unset by default (each page's language chosen from its words), keeps tesseract codes in order, rejects anything else by path", () => {
    expect(defaultProject.ocr.languages).toBeUndefined();
    expect(parseProjectSettings({ ...defaultProject, ocr: { languages: ["deu", "eng", "chi_sim"] } }).ocr).toEqual({
      engine: "auto",
      languages: ["deu", "eng", "chi_sim"],
    });
    const problems = problemsOf(() =>
      parseProjectSettings({ ...defaultProject, ocr: { languages: ["de", "eng; rm -rf /"] } }),
    ).join("\n");
    expect(problems).toContain("ocr.languages.0");
    expect(problems).toContain("ocr.languages.1");
    expect(problemsOf(() => parseProjectSettings({ ...defaultProject, ocr: { languages: [] } })).join()).toContain(
      "ocr.languages",
    );
  });
});

describe("loadProjectFile", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-project-"));

  test("reads YAML merged over the default project", async () => {
    const file = path.join(dir, "p.yaml");
    writeFileSync(file, "name: Expenses\nreview_thresholds:\n  classification: 0.9\n");
    const p = await loadProjectFile(file);
    expect(p.name).toBe("Expenses");
    expect(p.review_thresholds.classification).toBe(0.9);
    expect(p.review_thresholds.field).toBe(0.6);
    expect(p.classes.length).toBe(7);
  });

  test("reads JSON and replaces the class list wholesale", async () => {
    const file = path.join(dir, "p.json");
    writeFileSync(
      file,
      JSON.stringify({
        classes: [{ id: "memo", name: "Memo", cue_words: ["memo"] }],
        fields: {},
        validation_rules: [],
      }),
    );
    const p = await loadProjectFile(file);
    expect(p.classes.map((c) => c.id)).toEqual(["memo"]);
  });

  test("a broken or missing file is invalid_settings, not a crash", async () => {
    const file = path.join(dir, "broken.json");
    writeFileSync(file, "{ nope");
    await expect(loadProjectFile(file)).rejects.toMatchObject({ code: "invalid_settings" });
    await expect(loadProjectFile(path.join(dir, "missing.yaml"))).rejects.toMatchObject({ code: "invalid_settings" });
    writeFileSync(path.join(dir, "list.yaml"), "- a\n- b\n");
    await expect(loadProjectFile(path.join(dir, "list.yaml"))).rejects.toMatchObject({ code: "invalid_settings" });
  });
});
