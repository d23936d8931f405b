/**
 * The API explorer: a small self-written page (no CDN, nothing fetched from outside this server). Every operation
 * shows its parameters, its request body schema with an example (pre-filled), and each response with its schema
 * and example, from the OpenAPI document. `{{P}}` in the HTML is the proxy prefix (src/server/proxy.ts), and the
 * script takes the API's base from the document's `servers`, so the page works under a sub-path.
 */
export const EXPLORER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>docproc API explorer</title><link rel="icon" href="data:,">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:12px 20px;display:flex;gap:16px;align-items:center}
header input{flex:1;max-width:380px;padding:6px}main{padding:16px 20px;max-width:1100px}
h2{margin:24px 0 8px}details{background:#fff;border:1px solid #d8dde6;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 10px;font-family:ui-monospace,monospace}
.m{display:inline-block;width:60px;font-weight:700;text-transform:uppercase}.get{color:#1a7f37}.post{color:#0b5cad}.put,.patch{color:#9a6700}.delete{color:#cf222e}
.body{padding:0 12px 12px}label{display:block;margin:6px 0 2px;font-weight:600}input.p,textarea{width:100%;box-sizing:border-box;font-family:ui-monospace,monospace}
textarea{min-height:90px}textarea.secret{min-height:40px;-webkit-text-security:disc}textarea.list{min-height:40px}pre{background:#0d1117;color:#e6edf3;padding:10px;overflow:auto;max-height:420px;border-radius:4px}button{margin-top:8px;padding:6px 14px}
pre:empty{display:none}h4{margin:12px 0 4px}.schema{font:12px/1.5 ui-monospace,monospace;background:#f6f8fa;border:1px solid #d8dde6;border-radius:4px;padding:6px 10px}
.schema ul{margin:0;padding-left:16px;list-style:none}.schema .t{color:#8250df}.schema .r{color:#cf222e}.schema .d{color:#57606a;font-family:system-ui,sans-serif}
.resp{margin:6px 0 10px}.code{font-weight:700;margin-right:6px}pre.ex{background:#f6f8fa;color:#1d2430;border:1px solid #d8dde6;max-height:260px}
</style></head>
<body><header><strong>docproc API</strong><label style="margin:0">X-API-Key <input id="key" type="password" autocomplete="off"></label>
<a href="{{P}}/docs" style="color:#9ecbff">Reference</a><a href="{{P}}/api-docs/openapi.json" style="color:#9ecbff">openapi.json</a><a href="{{P}}/" style="color:#9ecbff">Home</a></header>
<main id="ops">Loading…</main><script src="{{P}}/api-docs/explorer.js"></script></body></html>`;

export const EXPLORER_JS = `"use strict";
const key = document.getElementById("key");
key.value = sessionStorage.getItem("docproc-key") || "";
key.addEventListener("change", () => sessionStorage.setItem("docproc-key", key.value));
const el = (tag, attrs = {}, ...kids) => { const e = document.createElement(tag); Object.assign(e, attrs); kids.forEach(k => e.append(k)); return e; };
// Everything is fetched relative to this script (…/api-docs/explorer.js) and the document's server URL.
const here = document.currentScript.src;
let api = "";
let schemas = {};
async function main() {
  const spec = await (await fetch(new URL("openapi.json", here))).json();
  api = ((spec.servers && spec.servers[0] && spec.servers[0].url) || "/").replace(/\\/$/, "");
  schemas = (spec.components && spec.components.schemas) || {};
  const root = document.getElementById("ops"); root.textContent = "";
  const byTag = {};
  for (const [path, ops] of Object.entries(spec.paths)) for (const [method, op] of Object.entries(ops)) (byTag[op.tags[0]] ||= []).push({ path, method, op });
  for (const [tag, list] of Object.entries(byTag)) {
    root.append(el("h2", { textContent: tag }));
    for (const { path, method, op } of list) root.append(operation(path, method, op));
  }
}
const resolve = (s) => { let n = 0; while (s && s.$ref && n++ < 10) s = schemas[s.$ref.split("/").pop()]; return s || {}; };
function typeOf(s) {
  s = resolve(s);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alt = s.oneOf || s.anyOf;
  if (alt) return alt.map(typeOf).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : s.type || "any";
  if (t === "array") return typeOf(s.items) + "[]";
  return t + (s.format ? " (" + s.format + ")" : "");
}
/** A schema as a nested list: name, type, required, description; objects and arrays of objects unfold. */
function schemaTree(s, depth) {
  s = resolve(s);
  const alt = s.oneOf || s.anyOf;
  if (alt && depth < 4) { const u = el("ul"); alt.forEach((a, i) => { const li = el("li", { textContent: "one of #" + (i + 1) + ": " }); li.append(schemaTree(a, depth + 1)); u.append(li); }); return u; }
  const obj = s.type === "array" ? resolve(s.items) : s;
  const ul = el("ul");
  const props = obj.properties || {};
  const req = new Set(obj.required || []);
  for (const [name, p] of Object.entries(props)) {
    const r = resolve(p);
    const li = el("li", {}, el("b", { textContent: name }), " ", el("span", { className: "t", textContent: typeOf(p) }));
    if (req.has(name)) li.append(" ", el("span", { className: "r", textContent: "required" }));
    const desc = p.description || r.description;
    if (desc) li.append(" ", el("span", { className: "d", textContent: "— " + desc }));
    const inner = r.type === "array" ? resolve(r.items) : r;
    if (inner.properties && depth < 4) li.append(schemaTree(r, depth + 1));
    ul.append(li);
  }
  if (!Object.keys(props).length) ul.append(el("li", {}, el("span", { className: "t", textContent: typeOf(s) }), s.description ? el("span", { className: "d", textContent: " — " + s.description }) : ""));
  return ul;
}
function schemaBox(schema) { const d = el("div", { className: "schema" }); d.append(schemaTree(schema, 0)); return d; }
const pretty = (v) => JSON.stringify(v, null, 2);
function responses(op) {
  const box = el("div");
  box.append(el("h4", { textContent: "Responses" }));
  for (const [code, r] of Object.entries(op.responses || {})) {
    const item = el("div", { className: "resp" });
    item.append(el("span", { className: "code", textContent: code }), r.description || "");
    const json = r.content && r.content["application/json"];
    if (json && json.schema) {
      item.append(schemaBox(json.schema));
      if (json.example !== undefined) { const ex = el("details"); ex.append(el("summary", { textContent: "example" }), el("pre", { className: "ex", textContent: pretty(json.example) })); item.append(ex); }
    } else if (r.content) item.append(" (" + Object.keys(r.content).join(", ") + ")");
    box.append(item);
  }
  return box;
}
function operation(path, method, op) {
  const d = el("details");
  d.append(el("summary", {}, el("span", { className: "m " + method, textContent: method }), path + "  ", el("small", { textContent: op.summary })));
  const body = el("div", { className: "body" });
  const inputs = {};
  for (const p of op.parameters || []) {
    body.append(el("label", { textContent: p.name + " (" + p.in + ")" + (p.description ? " — " + p.description : "") }));
    body.append(inputs[p.name] = el("input", { className: "p" }));
  }
  let text = null, files = null;
  const ct = op.requestBody && Object.keys(op.requestBody.content)[0];
  if (ct === "application/json") {
    const media = op.requestBody.content[ct];
    body.append(el("h4", { textContent: "Request body" }), schemaBox(media.schema));
    body.append(el("label", { textContent: "JSON body (the example; edit before sending)" }));
    body.append(text = el("textarea", { value: media.example !== undefined ? pretty(media.example) : "{}" }));
  } else if (ct === "multipart/form-data") body.append(el("h4", { textContent: "Request body (multipart/form-data)" }), schemaBox(op.requestBody.content[ct].schema));
  const parts = {};
  if (ct === "multipart/form-data") {
    body.append(el("label", { textContent: "files" })); body.append(files = el("input", { type: "file", multiple: true }));
    // The other form fields (upload_tokens, split_policies, passwords, token): one value per line, aligned with files.
    const props = (op.requestBody.content[ct].schema || {}).properties || {};
    for (const [name, p] of Object.entries(props)) {
      if (name === "files") continue;
      const list = p.type === "array";
      body.append(el("label", { textContent: name + (list ? " (one per line, aligned with files)" : "") + (p.description ? " — " + p.description : "") }));
      body.append(parts[name] = el("textarea", { className: name === "passwords" ? "secret" : "list", spellcheck: false }));
      parts[name].dataset.list = list ? "1" : "";
    }
  }
  const out = el("pre", { textContent: "" });
  const send = el("button", { textContent: "Send" });
  send.onclick = async () => {
    let url = api + path.replace(/\\{(\\w+)\\}/g, (_, n) => encodeURIComponent(inputs[n].value));
    const q = new URLSearchParams();
    for (const p of op.parameters || []) if (p.in === "query" && inputs[p.name].value) q.set(p.name, inputs[p.name].value);
    if ([...q].length) url += "?" + q;
    const init = { method: method.toUpperCase(), headers: { "X-API-Key": key.value } };
    if (text) { init.body = text.value; init.headers["content-type"] = "application/json"; }
    if (files) {
      const f = new FormData();
      for (const x of files.files) f.append("files", x);
      for (const [name, t] of Object.entries(parts)) {
        if (!t.value) continue;
        for (const v of t.dataset.list ? t.value.split("\\n") : [t.value]) f.append(name, v);
      }
      init.body = f;
    }
    out.textContent = "…";
    try {
      const r = await fetch(url, init);
      const type = r.headers.get("content-type") || "";
      const payload = type.includes("json") ? JSON.stringify(await r.json(), null, 2) : (await r.text()).slice(0, 5000);
      out.textContent = r.status + " " + r.statusText + "\\n\\n" + payload;
    } catch (e) { out.textContent = String(e); }
  };
  body.append(send, out, responses(op));
  d.append(body);
  return d;
}
main().catch((e) => { document.getElementById("ops").textContent = "Could not load the API description: " + e; });
`;
