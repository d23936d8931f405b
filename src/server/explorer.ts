/** The API explorer: a small self-written page (no CDN, nothing fetched from outside this server). */
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
</style></head>
<body><header><strong>docproc API</strong><label style="margin:0">X-API-Key <input id="key" type="password" autocomplete="off"></label>
<a href="/docs" style="color:#9ecbff">Reference</a><a href="/api-docs/openapi.json" style="color:#9ecbff">openapi.json</a></header>
<main id="ops">Loading…</main><script src="/api-docs/explorer.js"></script></body></html>`;

export const EXPLORER_JS = `"use strict";
const key = document.getElementById("key");
key.value = sessionStorage.getItem("docproc-key") || "";
key.addEventListener("change", () => sessionStorage.setItem("docproc-key", key.value));
const el = (tag, attrs = {}, ...kids) => { const e = document.createElement(tag); Object.assign(e, attrs); kids.forEach(k => e.append(k)); return e; };
async function main() {
  const spec = await (await fetch("/api-docs/openapi.json")).json();
  const root = document.getElementById("ops"); root.textContent = "";
  const byTag = {};
  for (const [path, ops] of Object.entries(spec.paths)) for (const [method, op] of Object.entries(ops)) (byTag[op.tags[0]] ||= []).push({ path, method, op });
  for (const [tag, list] of Object.entries(byTag)) {
    root.append(el("h2", { textContent: tag }));
    for (const { path, method, op } of list) root.append(operation(path, method, op));
  }
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
  if (ct === "application/json") { body.append(el("label", { textContent: "JSON body" })); body.append(text = el("textarea", { value: "{}" })); }
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
    let url = path.replace(/\\{(\\w+)\\}/g, (_, n) => encodeURIComponent(inputs[n].value));
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
  body.append(send, out);
  d.append(body);
  return d;
}
main().catch((e) => { document.getElementById("ops").textContent = "Could not load the API description: " + e; });
`;
