// The web inbox (docs/inbox.md): sign in, upload files to a project, watch the transactions move through their
// steps, open one in review, download its exports. Plain DOM over the REST API with the session token; the token is
// shared with the review page (same origin, same key), so "Review" opens without a second sign-in.
"use strict";

const $ = (id) => document.getElementById(id);
// At / or behind a proxy's prefix (/docproc/): every call goes to that prefix.
const BASE = location.pathname.replace(/\/+$/, "");
const at = (path) => BASE + path;
const TOKEN_KEY = "docproc.review.session";
const ACTIVE = new Set(["created", "queued", "processing"]);
const app = { token: sessionStorage.getItem(TOKEN_KEY), tenant: null, timer: null, open: new Set() };

function say(text) {
  $("status").textContent = text || "";
}

async function api(method, url, body) {
  const headers = {};
  if (app.token) headers["x-session-token"] = app.token;
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(at(url), { method, headers, body: payload });
  const data = (res.headers.get("content-type") || "").includes("json") ? await res.json() : null;
  if (res.status === 401) {
    signedOut();
    const e = new Error("Please sign in.");
    e.status = 401;
    throw e;
  }
  if (!res.ok) {
    const e = new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    e.status = res.status;
    throw e;
  }
  return data;
}

function show(id) {
  for (const s of ["login", "inbox"]) $(s).hidden = s !== id;
  $("logout").hidden = !app.token;
}

function signedOut() {
  app.token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  clearTimeout(app.timer);
  $("who").textContent = "";
  show("login");
  $("login-user").focus();
}

$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("login-error").textContent = "";
  const body = { username: $("login-user").value.trim(), password: $("login-password").value };
  if ($("login-tenant").value.trim()) body.tenant_id = $("login-tenant").value.trim();
  try {
    app.token = (await api("POST", "/auth/login", body)).session_token;
    sessionStorage.setItem(TOKEN_KEY, app.token);
    $("login-password").value = "";
    await start();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
});

$("logout").addEventListener("click", async () => {
  try {
    await api("POST", "/auth/logout");
  } catch {
    /* signed out either way */
  }
  signedOut();
});

async function start() {
  const me = await api("GET", "/auth/me");
  app.tenant = me.tenant_id;
  $("who").textContent = `${me.username || me.client_id || ""} · ${me.tenant_id}`;
  const projects = (await api("GET", `/tenants/${encodeURIComponent(app.tenant)}/projects`)).items;
  const select = $("project");
  select.replaceChildren(...projects.map((p) => new Option(p.name || p.project_id, p.project_id)));
  $("upload").disabled = projects.length === 0;
  if (projects.length === 0) say("This tenant has no project yet: create one with the API (docs/quickstart.md).");
  show("inbox");
  select.focus();
  await refresh();
}

$("upload-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const files = Array.from($("files").files);
  if (files.length === 0) return;
  const project = $("project").value;
  $("upload").disabled = true;
  try {
    say(`Uploading ${files.length} file(s)…`);
    const names = files.map((f) => f.name);
    const created = await api(
      "POST",
      `/tenants/${encodeURIComponent(app.tenant)}/projects/${encodeURIComponent(project)}/transactions`,
      { metadata: { file_names: names } },
    );
    const form = new FormData();
    for (const f of files) form.append("files", f, f.name);
    const up = await api("POST", created.files_url, form);
    if (up.failed_count > 0)
      throw new Error(up.failed_files.map((f) => `${f.filename}: ${f.error || f.reason || "refused"}`).join("; "));
    await api("POST", created.start_url, {});
    $("files").value = "";
    say(`${names.join(", ")}: processing.`);
    await refresh();
  } catch (err) {
    say(`Upload failed: ${err.message}`);
  } finally {
    $("upload").disabled = false;
  }
});

function stepOf(t) {
  const s = t.metadata && t.metadata.step_progress;
  return s && (s.current_step_name || s.current_step);
}

function percentOf(t) {
  const p = t.metadata && t.metadata.progress;
  return p && typeof p.completion_percentage === "number" ? p.completion_percentage : null;
}

const LABELS = {
  created: "uploading",
  queued: "queued",
  processing: "processing",
  awaiting_input: "needs review",
  completed: "completed",
  failed: "failed",
};

function row(t) {
  const li = document.createElement("li");
  li.dataset.id = t.transaction_id;
  li.dataset.status = t.status;
  const name = document.createElement("span");
  name.className = "name";
  const names = t.metadata && Array.isArray(t.metadata.file_names) ? t.metadata.file_names : null;
  name.textContent = names ? names.join(", ") : t.correlation_id || t.transaction_id;
  const badge = document.createElement("span");
  badge.className = `badge ${t.status}`;
  badge.textContent = LABELS[t.status] || t.status;
  const meta = document.createElement("span");
  meta.className = "meta";
  const step = stepOf(t);
  meta.textContent = [
    new Date(t.created_at).toLocaleString(),
    ACTIVE.has(t.status) && step ? `step: ${step}` : "",
    t.error_message || "",
  ]
    .filter(Boolean)
    .join(" · ");
  li.append(name, badge, meta);
  if (ACTIVE.has(t.status)) {
    const bar = document.createElement("progress");
    bar.max = 100;
    const pct = percentOf(t);
    if (pct !== null) bar.value = pct;
    bar.setAttribute("aria-label", `${name.textContent}: ${LABELS[t.status]}`);
    li.append(bar);
  }
  const actions = document.createElement("div");
  actions.className = "actions";
  if (t.status === "awaiting_input") {
    const a = document.createElement("a");
    a.href = at(`/review/${encodeURIComponent(t.transaction_id)}`);
    a.textContent = "Review";
    actions.append(a);
  }
  if (t.status === "completed") {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = app.open.has(t.transaction_id) ? "Hide downloads" : "Downloads";
    b.setAttribute("aria-expanded", String(app.open.has(t.transaction_id)));
    b.addEventListener("click", () => toggleDownloads(t.transaction_id));
    actions.append(b);
    if (app.open.has(t.transaction_id))
      actions.append(...(app.files.get(t.transaction_id) || []).map(downloadButton(t.transaction_id)));
  }
  if (actions.childElementCount) li.append(actions);
  return li;
}

app.files = new Map();

async function toggleDownloads(id) {
  if (app.open.has(id)) app.open.delete(id);
  else {
    const manifest = await api("GET", `/transactions/${encodeURIComponent(id)}/exports`);
    app.files.set(
      id,
      Object.values(manifest.profiles).flatMap((p) => p.files.map((f) => f.filename)),
    );
    app.open.add(id);
  }
  await refresh();
  const again = document.querySelector(`li[data-id="${id}"] .actions button`);
  if (again) again.focus();
}

function downloadButton(id) {
  return (filename) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = filename;
    b.addEventListener("click", async () => {
      try {
        const res = await fetch(
          at(`/transactions/${encodeURIComponent(id)}/exports/download/${encodeURIComponent(filename)}`),
          { headers: { "x-session-token": app.token } },
        );
        if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
        const a = document.createElement("a");
        a.href = URL.createObjectURL(await res.blob());
        a.download = filename;
        document.body.append(a);
        a.click();
        setTimeout(() => {
          URL.revokeObjectURL(a.href);
          a.remove();
        }, 1000);
        say(`${filename} downloaded.`);
      } catch (err) {
        say(`Download failed: ${err.message}`);
      }
    });
    return b;
  };
}

async function refresh() {
  clearTimeout(app.timer);
  let list;
  try {
    list = await api("GET", "/transactions?limit=25&sort_by=created_at&sort_order=desc");
  } catch (err) {
    if (err.status !== 401) say(err.message);
    return;
  }
  $("empty").hidden = list.items.length > 0;
  $("list").replaceChildren(...list.items.map(row));
  // While something moves, look again soon; the list is small and the server long-polls nothing here.
  if (list.items.some((t) => ACTIVE.has(t.status))) app.timer = setTimeout(refresh, 1500);
}

(async () => {
  if (!app.token) return signedOut();
  try {
    await start();
  } catch (err) {
    if (err.status !== 401) say(err.message);
  }
})();
