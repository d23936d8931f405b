// The review page (docs/review.md): sign-in, the list of transactions awaiting review, and the review screen over
// GET/POST /transactions/{id}/review. Every write carries the version it is based on; a 409 reloads the review.
/* global createViewer, confidenceClass */
"use strict";

const $ = (id) => document.getElementById(id);
// Behind a proxy the page lives under a prefix (`/docproc/review/…`): every call goes to that prefix too.
const BASE = location.pathname.replace(/\/review(\/[^/]*)?\/?$/, "");
const at = (path) => BASE + path;
const TOKEN_KEY = "docproc.review.session";
const app = {
  token: sessionStorage.getItem(TOKEN_KEY),
  view: null,
  docId: null,
  fieldId: null,
  busy: false,
  viewer: null,
};

function say(text) {
  $("status").textContent = text || "";
}

async function api(method, url, body) {
  const headers = {};
  if (app.token) headers["x-session-token"] = app.token;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(at(url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = (res.headers.get("content-type") || "").includes("json") ? await res.json() : null;
  if (res.status === 401) {
    showOnly("login");
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

function showOnly(id) {
  for (const s of ["login", "queue", "review"]) $(s).hidden = s !== id;
  $("logout").hidden = !app.token;
}

// ---- sign-in and the list -------------------------------------------------------------------------------------
$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("login-error").textContent = "";
  const body = { username: $("login-user").value.trim(), password: $("login-password").value };
  if ($("login-tenant").value.trim()) body.tenant_id = $("login-tenant").value.trim();
  try {
    const s = await api("POST", "/auth/login", body);
    app.token = s.session_token;
    sessionStorage.setItem(TOKEN_KEY, app.token);
    $("login-password").value = "";
    route();
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
  app.token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  showOnly("login");
});

async function showQueue() {
  $("crumb").textContent = "";
  const list = await api("GET", "/transactions?status=awaiting_input&limit=100&sort_order=asc");
  showOnly("queue");
  const ul = $("queue-list");
  ul.replaceChildren();
  $("queue-empty").hidden = list.items.length > 0;
  for (const t of list.items) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = at(`/review/${encodeURIComponent(t.transaction_id)}`);
    a.textContent = t.source_file_names ? t.source_file_names.join(", ") : t.transaction_id;
    const meta = document.createElement("span");
    meta.className = "meta";
    const instructions = t.review_metadata && t.review_metadata.instructions;
    meta.textContent = [t.created_at && new Date(t.created_at).toLocaleString(), instructions, t.transaction_id]
      .filter(Boolean)
      .join(" · ");
    li.append(a, meta);
    ul.appendChild(li);
  }
}

// ---- the review screen ----------------------------------------------------------------------------------------
const doc = () => app.view.documents.find((d) => d.document_id === app.docId) || app.view.documents[0];
const threshold = () => (app.view.thresholds && app.view.thresholds.field) || 0.6;
const display = (v) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
const scalar = (f) => f.value === null || typeof f.value !== "object";

/** The fields to list: the class's fields in project order, then any other scalar field the document has. */
function fieldList(d) {
  const defined = (app.view.fields[d.classification.class_id] || []).map((f) => f.id);
  const ids = [...defined, ...Object.keys(d.fields).filter((id) => !defined.includes(id))];
  return ids
    .map((id) => [
      id,
      d.fields[id] || {
        name: id,
        value: null,
        confidence: 0,
        bounding_boxes: [],
        review_required: true,
        is_confirmed: null,
      },
    ])
    .filter(([, f]) => scalar(f))
    .map(([id, f]) => [
      id,
      { ...f, name: f.name || (app.view.fields[d.classification.class_id] || []).find((x) => x.id === id)?.name || id },
    ]);
}

function problemsOf(d) {
  const rules = [
    ...((d.validation && d.validation.rule_results) || []),
    ...((app.view.validation && app.view.validation.transaction_rule_results) || []),
  ];
  return rules.filter((r) => r.status !== "success");
}

async function openReview(id) {
  const first = !app.view || app.view.transaction_id !== id;
  app.view = await api("GET", `/transactions/${encodeURIComponent(id)}/review`);
  showOnly("review");
  $("crumb").textContent = app.view.source_file_names.join(", ");
  if (first) await loadPages();
  if (!app.view.documents.some((d) => d.document_id === app.docId))
    app.docId = app.view.documents[0] && app.view.documents[0].document_id;
  renderSide();
  if (first) {
    const list = fieldList(doc());
    // A flagged value first (it is what the reviewer is here for), then an empty one, then the first field.
    const cls = ([, f]) => confidenceClass(f, threshold());
    const start = list.find((e) => cls(e) === "bad") || list.find((e) => cls(e) === "none") || list[0];
    if (start) focusField(start[0]);
  }
}

async function loadPages() {
  app.viewer.clear();
  for (const p of app.view.pages) {
    let url = null;
    try {
      const headers = app.token ? { "x-session-token": app.token } : {};
      const res = await fetch(at(p.image_url), { headers });
      if (res.ok) url = URL.createObjectURL(await res.blob());
    } catch {
      /* drawn from its words */
    }
    app.viewer.addPage(p, url);
  }
  app.viewer.layout();
}

function renderSide() {
  const v = app.view,
    d = doc();
  const info = $("review-info");
  info.replaceChildren();
  const line = (label, value) => {
    const p = document.createElement("div");
    const b = document.createElement("strong");
    b.textContent = `${label}: `;
    p.append(b, value);
    info.appendChild(p);
  };
  line("Status", v.finished ? `${v.status} (review finished)` : v.status);
  if (v.review_metadata && v.review_metadata.instructions) line("Instructions", v.review_metadata.instructions);
  const tabs = $("doc-tabs");
  tabs.replaceChildren();
  tabs.hidden = v.documents.length < 2;
  v.documents.forEach((x, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(x.document_id === d.document_id));
    b.textContent = `${i + 1}. ${x.document_type} (p. ${x.split.page_numbers.join(", ")})`;
    b.addEventListener("click", () => {
      app.docId = x.document_id;
      app.fieldId = null;
      renderSide();
      app.viewer.reveal(null, x.split.page_numbers[0]);
    });
    tabs.appendChild(b);
  });
  const sel = $("doc-class");
  sel.replaceChildren(...v.classes.map((c) => new Option(c.name, c.id, false, c.id === d.classification.class_id)));
  $("class-conf").textContent = d.classification.confirmed
    ? "✓ confirmed"
    : `${Math.round(d.classification.confidence * 100)}%`;
  const probs = $("doc-problems");
  probs.replaceChildren();
  const problems = problemsOf(d);
  for (const r of problems.filter((r) => !r.field_ids || r.field_ids.length === 0)) {
    const li = document.createElement("li");
    li.className = r.status;
    li.textContent = r.message;
    probs.appendChild(li);
  }
  renderFields(d, problems);
  for (const id of ["confirm-doc", "finish", "split-here", "merge-next", "doc-class"]) $(id).disabled = v.finished;
  drawBoxes();
}

function renderFields(d, problems) {
  const form = $("fields");
  form.replaceChildren();
  for (const [id, f] of fieldList(d)) {
    const row = document.createElement("div");
    row.className = `field${id === app.fieldId ? " selected" : ""}`;
    row.dataset.field = id;
    const dot = document.createElement("span");
    dot.className = `dot ${confidenceClass(f, threshold())}`;
    dot.setAttribute("aria-hidden", "true");
    const label = document.createElement("label");
    label.htmlFor = `field-${id}`;
    label.textContent = f.name + " ";
    const conf = document.createElement("span");
    conf.className = f.is_confirmed ? "ok" : "conf";
    conf.textContent = f.is_confirmed
      ? "✓ confirmed"
      : f.value === null
        ? "not found"
        : `confidence ${Math.round(f.confidence * 100)}%`;
    label.appendChild(conf);
    const input = document.createElement("input");
    input.id = `field-${id}`;
    input.value = display(f.value);
    input.dataset.original = input.value;
    input.setAttribute("aria-describedby", `msg-${id}`);
    input.addEventListener("focus", () => selectField(id));
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.ctrlKey && !ev.metaKey) {
        ev.preventDefault();
        commitField(id, input, true);
      }
    });
    row.append(dot, label, input);
    const msgs = problems.filter((r) => (r.field_ids || []).includes(id));
    const msg = document.createElement("div");
    msg.id = `msg-${id}`;
    msg.className = `msg ${msgs.some((r) => r.status === "error") ? "error" : ""}`;
    msg.textContent = msgs.map((r) => r.message).join(" ");
    row.appendChild(msg);
    form.appendChild(row);
  }
}

function drawBoxes() {
  const d = doc();
  app.viewer.drawBoxes(Object.fromEntries(fieldList(d)), app.fieldId, threshold());
}

function selectField(id) {
  app.fieldId = id;
  for (const row of $("fields").children) row.classList.toggle("selected", row.dataset.field === id);
  drawBoxes();
  const f = doc().fields[id];
  if (f && f.bounding_boxes && f.bounding_boxes.length) app.viewer.reveal(f);
}

function focusField(id) {
  const input = $(`field-${id}`);
  if (input) {
    input.focus();
    input.select();
  } else selectField(id);
}

/** One write; the answer is the new view. A stale version reloads the review and says why. */
async function act(body) {
  if (app.busy) return false;
  app.busy = true;
  try {
    app.view = await api("POST", `/transactions/${encodeURIComponent(app.view.transaction_id)}/review`, {
      version: app.view.version,
      ...body,
    });
    renderSide();
    return true;
  } catch (err) {
    if (err.status === 409) {
      say(`${err.message} The review was reloaded.`);
      await openReview(app.view.transaction_id);
    } else say(err.message);
    return false;
  } finally {
    app.busy = false;
  }
}

async function commitField(id, input, advance) {
  const d = doc();
  const f = d.fields[id];
  const changed = input.value !== input.dataset.original;
  const ok = changed
    ? await act({ action: "set_field", document_id: d.document_id, field_id: id, value: input.value })
    : f && f.is_confirmed
      ? true
      : await act({ action: "confirm_field", document_id: d.document_id, field_id: id });
  if (!ok) return;
  say(changed ? `${(f && f.name) || id} set.` : `${(f && f.name) || id} confirmed.`);
  const ids = fieldList(doc()).map(([x]) => x);
  const next = advance ? ids[ids.indexOf(id) + 1] : id;
  focusField(next || id);
}

function onPick(page, words) {
  if (!app.view || app.view.finished) return;
  if (!app.fieldId) {
    say("Select a field first, then click the word that belongs in it.");
    return;
  }
  const sorted = [...words].sort((a, b) =>
    a.bounding_box[1] - b.bounding_box[1] > (a.bounding_box[3] - a.bounding_box[1]) / 2
      ? 1
      : b.bounding_box[1] - a.bounding_box[1] > (b.bounding_box[3] - b.bounding_box[1]) / 2
        ? -1
        : a.bounding_box[0] - b.bounding_box[0],
  );
  const text = sorted.map((w) => w.text).join(" ");
  const box = [
    Math.min(...words.map((w) => w.bounding_box[0])),
    Math.min(...words.map((w) => w.bounding_box[1])),
    Math.max(...words.map((w) => w.bounding_box[2])),
    Math.max(...words.map((w) => w.bounding_box[3])),
  ];
  const id = app.fieldId,
    d = doc();
  act({
    action: "set_field",
    document_id: d.document_id,
    field_id: id,
    value: text,
    bounding_boxes: [{ coordinates: box, page_index: page.page_number }],
  }).then((ok) => {
    if (ok) {
      say(`${d.fields[id] ? d.fields[id].name : id}: “${text}” from page ${page.page_number}.`);
      focusField(id);
    }
  });
}

$("doc-class").addEventListener("change", () =>
  act({ action: "set_class", document_id: doc().document_id, class_id: $("doc-class").value }),
);
$("confirm-doc").addEventListener("click", async () => {
  if (await act({ action: "confirm_document", document_id: doc().document_id })) say("Document confirmed.");
});
$("merge-next").addEventListener("click", () => act({ action: "merge_documents", document_id: doc().document_id }));
$("split-here").addEventListener("click", () =>
  act({ action: "split_document", document_id: doc().document_id, at_page: app.viewer.currentPage() }),
);
$("finish").addEventListener("click", finish);

async function finish() {
  if (!app.view || app.view.finished) return;
  say("Finishing…");
  if (await act({ action: "finish" })) say("Review finished: the workflow continues.");
}

$("zoom-in").addEventListener("click", () => app.viewer.zoomBy(1.25));
$("zoom-out").addEventListener("click", () => app.viewer.zoomBy(0.8));
$("zoom-fit").addEventListener("click", () => app.viewer.fit());
$("rotate").addEventListener("click", () => app.viewer.rotate());
document.addEventListener("keydown", (ev) => {
  if ($("review").hidden) return;
  if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
    ev.preventDefault();
    finish();
    return;
  }
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "+" || ev.key === "=") app.viewer.zoomBy(1.25);
  else if (ev.key === "-") app.viewer.zoomBy(0.8);
  else if (ev.key === "r") app.viewer.rotate();
});

async function route() {
  say("");
  const m = /^\/review\/([^/]+)\/?$/.exec(location.pathname.slice(BASE.length));
  try {
    if (m) await openReview(decodeURIComponent(m[1]));
    else await showQueue();
  } catch (err) {
    if (err.status !== 401) say(err.message);
  }
}

$("brand").href = at("/review");
app.viewer = createViewer($("pages"), { onPick, onZoom: (pct) => ($("zoom-level").textContent = `${pct}%`) });
route();
