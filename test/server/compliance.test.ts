/**
 * Spec compliance probes through app.handle: project settings over the API (partial, merged over the default
 * project, every problem listed, version bumps), error bodies for unknown routes, wrong methods and bad bodies.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { defaultProject } from "../../src/core/project";
import { testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
afterEach(async () => {
  await t?.close();
});

describe("project settings", () => {
  test("partial settings merge over the default project; every update bumps project_version", async () => {
    t = testApp();
    const created = await t.call("POST", "/tenants/default/projects", { name: "P", settings: { name: "Only a name" } });
    expect(created.status).toBe(201);
    expect(created.json.project_version).toBe(1);
    expect(created.json.settings.name).toBe("Only a name");
    expect(created.json.settings.classes.map((c: any) => c.id)).toEqual(defaultProject.classes.map((c) => c.id));
    const pid = created.json.project_id;
    const patched = await t.call("PATCH", `/tenants/default/projects/${pid}`, { settings: { export_profiles: [] } });
    expect(patched.status).toBe(200);
    expect(patched.json.project_version).toBe(2);
    expect(patched.json.settings.export_profiles).toEqual([]);
    expect(patched.json.settings.name).toBe(defaultProject.name); // merged over the default, not over the current
    const put = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, { split: { ...defaultProject.split } });
    expect([put.status, put.json.project_version]).toEqual([200, 3]);
    expect((await t.call("PATCH", `/tenants/default/projects/${pid}`, { description: "d" })).json.project_version).toBe(4);
    expect((await t.call("GET", `/tenants/default/projects/${pid}`)).json.project_version).toBe(4);
  });

  test("invalid settings answer 400 listing every problem, and change nothing", async () => {
    t = testApp();
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const bad = await t.call("PATCH", `/tenants/default/projects/${pid}`, { settings: { split: { mode: "nope" }, export_profiles: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.json.problems.map((p: string) => p.split(":")[0]).sort()).toEqual(["export_profiles", "split.mode"]);
    for (const p of bad.json.problems) expect(bad.json.detail).toContain(p);
    const notObject = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, [1]);
    expect(notObject.status).toBe(400);
    expect(typeof notObject.json.detail).toBe("string");
    expect((await t.call("GET", `/tenants/default/projects/${pid}`)).json.project_version).toBe(1);
  });
});
