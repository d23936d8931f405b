// The phone capture page (docs/capture.md). Plain browser JavaScript, no libraries, no external requests.
// The token arrives in the URL fragment (never sent to the server in a URL); the page reports the scan with the
// token in a request body, then uploads the pages with the token in the multipart body.
(function () {
  "use strict";
  var MAX_SIDE = 2000; // longest side of an uploaded photo, in pixels
  var JPEG_QUALITY = 0.85;
  var STORE_KEY = "docproc-capture-token";
  var IMAGE_NAME = /\.(jpe?g|png|webp|gif|bmp|tiff?|heic|heif|avif)$/i;

  var $ = function (id) {
    return document.getElementById(id);
  };
  var state = {
    token: null,
    maxPages: 0,
    deadline: 0,
    items: [],
    sending: false,
    finished: false,
    nextId: 1,
    timer: 0,
  };

  function endpoint(name) {
    return new URL("capture/" + name, location.href.split("#")[0]).href;
  }

  function readToken() {
    var fromHash = "";
    try {
      fromHash = decodeURIComponent(location.hash.replace(/^#/, ""));
    } catch (e) {
      fromHash = "";
    }
    if (fromHash) {
      // Keep it for a reload, and take it out of the address bar (screenshots, shoulder surfing, history).
      try {
        sessionStorage.setItem(STORE_KEY, fromHash);
      } catch (e) {
        /* private mode: reload will need the link */
      }
      history.replaceState(null, "", location.pathname + location.search);
      return fromHash;
    }
    try {
      return sessionStorage.getItem(STORE_KEY);
    } catch (e) {
      return null;
    }
  }

  function show(section) {
    ["loading", "problem", "capture", "done"].forEach(function (id) {
      $(id).hidden = id !== section;
    });
  }

  var STATE_TEXT = {
    unknown: [
      "This link is not valid",
      "The capture code was not recognised. Scan the QR code again, or ask for a new one.",
    ],
    consumed: [
      "This code was already used",
      "The documents for this code were already received. Ask for a new QR code to send more.",
    ],
    expired: ["This code has expired", "The time to send pages with this code is over. Ask for a new QR code."],
    issued: ["This code is not open yet", "Scan the QR code again."],
    network: ["No connection", "The server could not be reached. Check your connection and try again."],
  };

  function fail(kind, detail, canRetry) {
    var t = STATE_TEXT[kind] || ["Something went wrong", detail || "Please try again."];
    $("problem-title").textContent = t[0];
    $("problem-text").textContent = kind in STATE_TEXT && kind !== "network" ? t[1] : detail || t[1];
    $("retry").hidden = !canRetry;
    $("subtitle").hidden = !canRetry; // a dead code has nothing left to photograph
    show("problem");
    stopTimer();
  }

  function message(text, info) {
    var m = $("message");
    m.textContent = text || "";
    m.className = info ? "message info" : "message";
    m.hidden = !text;
  }

  function parse(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  /** Maps an error reply to the page's states: 404 unknown code, 410 used or expired, anything else shown as is. */
  function handleError(status, body) {
    if (status === 404) return fail("unknown");
    if (status === 410 && body && body.state) return fail(body.state);
    var detail = (body && body.detail) || "The server answered " + status + ".";
    if (state.finished || !$("capture").hidden) {
      message(detail);
      return;
    }
    fail("other", detail, true);
  }

  function openSession() {
    show("loading");
    if (!state.token) return fail("unknown");
    fetch(endpoint("session"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: state.token }),
      cache: "no-store",
    })
      .then(function (res) {
        return res.text().then(function (t) {
          return { status: res.status, body: parse(t) };
        });
      })
      .then(function (r) {
        if (r.status !== 200 || !r.body) return handleError(r.status, r.body);
        state.maxPages = r.body.max_pages;
        // Relative time, so a phone with a wrong clock still counts right; the reply's travel time only makes
        // the page end a moment after the server, never before it.
        state.deadline =
          Date.now() + (typeof r.body.expires_in_ms === "number" ? r.body.expires_in_ms : r.body.seconds_left * 1000);
        $("max").textContent = String(state.maxPages);
        show("capture");
        render();
        startTimer();
      })
      .catch(function () {
        fail("network", null, true);
      });
  }

  function pageCount() {
    return state.items.reduce(function (n, it) {
      return n + it.pages;
    }, 0);
  }

  // --- the window countdown ---
  function startTimer() {
    stopTimer();
    tick();
    state.timer = setInterval(tick, 250);
  }
  function stopTimer() {
    if (state.timer) clearInterval(state.timer);
    state.timer = 0;
  }
  function tick() {
    var ms = state.deadline - Date.now();
    var left = Math.max(0, Math.ceil(ms / 1000));
    var el = $("timer");
    el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " left";
    el.className = left <= 60 ? "timer low" : "timer";
    if (ms <= 0 && !state.sending) fail("expired");
  }

  // --- adding pages ---
  function loadImage(file) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(file);
      var img = new Image();
      img.onload = function () {
        URL.revokeObjectURL(url);
        resolve(img);
      };
      img.onerror = function () {
        URL.revokeObjectURL(url);
        reject(new Error("unreadable image"));
      };
      img.src = url;
    });
  }

  /** Draws the photo on a canvas no larger than MAX_SIDE and re-encodes it as JPEG: small, fast uploads. */
  function downscale(file) {
    var decode = window.createImageBitmap
      ? createImageBitmap(file, { imageOrientation: "from-image" }).catch(function () {
          return loadImage(file);
        })
      : loadImage(file);
    return decode.then(function (src) {
      var w = src.naturalWidth || src.width,
        h = src.naturalHeight || src.height;
      var scale = Math.min(1, MAX_SIDE / Math.max(w, h));
      var canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(w * scale));
      canvas.height = Math.max(1, Math.round(h * scale));
      var g = canvas.getContext("2d");
      g.fillStyle = "#fff"; // transparent PNGs become white paper, not black
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.drawImage(src, 0, 0, canvas.width, canvas.height);
      if (src.close) src.close();
      return new Promise(function (resolve, reject) {
        canvas.toBlob(
          function (blob) {
            blob ? resolve(blob) : reject(new Error("could not encode"));
          },
          "image/jpeg",
          JPEG_QUALITY,
        );
      });
    });
  }

  /** Inflates a FlateDecode stream with the browser's own zlib; whatever decodes before an error is kept. */
  function inflate(bytes) {
    if (!window.DecompressionStream) return Promise.resolve("");
    var reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
    var decoder = new TextDecoder("latin1"),
      text = "";
    function pump() {
      return reader.read().then(
        function (r) {
          if (r.done) return text;
          text += decoder.decode(r.value, { stream: true });
          return pump();
        },
        function () {
          return text;
        },
      ); // trailing bytes after the zlib data end the stream with an error
    }
    return pump();
  }

  /** Page objects usually sit in compressed object streams (/Type /ObjStm): those are inflated and searched too. */
  function objectStreamTexts(bytes, text) {
    var re = /\/Type\s*\/ObjStm/g,
      parts = [],
      m;
    while ((m = re.exec(text)) && parts.length < 200) {
      var at = text.indexOf("stream", m.index);
      if (at < 0) break;
      var start = at + 6;
      if (text.charAt(start) === "\r") start++;
      if (text.charAt(start) === "\n") start++;
      var end = text.indexOf("endstream", start);
      if (end < 0) break;
      parts.push(inflate(bytes.subarray(start, end)));
      re.lastIndex = end;
    }
    return Promise.all(parts);
  }

  /** A page count for the counter: the page objects in the file. The server counts exactly and has the last word. */
  function pdfPages(file) {
    return file.arrayBuffer().then(function (buf) {
      var bytes = new Uint8Array(buf);
      var text = new TextDecoder("latin1").decode(bytes);
      var at = text.indexOf("%PDF-");
      if (at < 0 || at > 1024) throw new Error("not a PDF");
      return objectStreamTexts(bytes, text).then(function (inflated) {
        var all = [text].concat(inflated);
        var leaves = all.reduce(function (n, t) {
          return n + (t.match(/\/Type\s*\/Page(?![A-Za-z])/g) || []).length;
        }, 0);
        return Math.max(1, leaves);
      });
    });
  }

  function isPdf(file) {
    return file.type === "application/pdf" || /\.pdf$/i.test(file.name);
  }
  function isImage(file) {
    return /^image\//.test(file.type) || IMAGE_NAME.test(file.name);
  }

  function addFiles(list) {
    var files = Array.prototype.slice.call(list || []);
    var refused = 0,
      unsupported = 0,
      unreadable = 0;
    message("");
    return files
      .reduce(function (chain, file) {
        return chain.then(function () {
          if (pageCount() >= state.maxPages) {
            refused++;
            return;
          }
          if (isPdf(file)) {
            return pdfPages(file).then(
              function (pages) {
                if (pageCount() + pages > state.maxPages) {
                  refused++;
                  return;
                }
                state.items.push({
                  id: state.nextId++,
                  kind: "pdf",
                  blob: file,
                  name: file.name,
                  pages: pages,
                  url: null,
                });
                render();
              },
              function () {
                unreadable++;
              },
            );
          }
          if (!isImage(file)) {
            unsupported++;
            return;
          }
          return downscale(file).then(
            function (blob) {
              state.items.push({
                id: state.nextId++,
                kind: "image",
                blob: blob,
                name: file.name,
                pages: 1,
                url: URL.createObjectURL(blob),
              });
              render();
            },
            function () {
              unreadable++;
            },
          );
        });
      }, Promise.resolve())
      .then(function () {
        var notes = [];
        if (refused)
          notes.push(
            "This code accepts at most " +
              state.maxPages +
              " page" +
              (state.maxPages === 1 ? "" : "s") +
              ": " +
              refused +
              " file" +
              (refused === 1 ? " was" : "s were") +
              " not added.",
          );
        if (unsupported) notes.push("Only photos and PDF files can be sent.");
        if (unreadable)
          notes.push(
            unreadable +
              " file" +
              (unreadable === 1 ? "" : "s") +
              " could not be read on this phone. Try taking the photo with the camera button.",
          );
        message(notes.join(" "));
        render();
      });
  }

  // --- the list: thumbnails, reorder, delete ---
  function move(id, delta) {
    var i = state.items.findIndex(function (it) {
      return it.id === id;
    });
    var j = i + delta;
    if (i < 0 || j < 0 || j >= state.items.length) return;
    var tmp = state.items[i];
    state.items[i] = state.items[j];
    state.items[j] = tmp;
    render();
  }

  function remove(id) {
    var i = state.items.findIndex(function (it) {
      return it.id === id;
    });
    if (i < 0) return;
    if (state.items[i].url) URL.revokeObjectURL(state.items[i].url);
    state.items.splice(i, 1);
    message("");
    render();
  }

  function tool(label, text, onClick, disabled, extra) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "tool" + (extra ? " " + extra : "");
    b.setAttribute("aria-label", label);
    b.textContent = text;
    b.disabled = disabled;
    b.addEventListener("click", onClick);
    return b;
  }

  function render() {
    var list = $("pages");
    list.textContent = "";
    var first = 1;
    state.items.forEach(function (it, index) {
      var li = document.createElement("li");
      li.className = "page";
      li.dataset.kind = it.kind;
      var thumb = document.createElement("div");
      thumb.className = "thumb";
      if (it.url) {
        var img = document.createElement("img");
        img.src = it.url;
        img.alt = "Page " + first;
        thumb.appendChild(img);
      } else {
        var tile = document.createElement("div");
        tile.className = "pdf-tile";
        var pdf = document.createElement("span");
        pdf.className = "pdf";
        pdf.textContent = "PDF";
        var pages = document.createElement("span");
        pages.textContent = it.pages + " page" + (it.pages === 1 ? "" : "s");
        tile.appendChild(pdf);
        tile.appendChild(pages);
        thumb.appendChild(tile);
      }
      var badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = it.pages > 1 ? first + "–" + (first + it.pages - 1) : String(first);
      thumb.appendChild(badge);
      var caption = document.createElement("div");
      caption.className = "caption";
      caption.textContent = it.kind === "pdf" ? it.name : "";
      caption.hidden = it.kind !== "pdf";
      var tools = document.createElement("div");
      tools.className = "tools";
      tools.appendChild(
        tool(
          "Move page " + first + " earlier",
          "◀",
          function () {
            move(it.id, -1);
          },
          index === 0 || state.sending,
        ),
      );
      tools.appendChild(
        tool(
          "Delete page " + first,
          "✕",
          function () {
            remove(it.id);
          },
          state.sending,
          "delete",
        ),
      );
      tools.appendChild(
        tool(
          "Move page " + first + " later",
          "▶",
          function () {
            move(it.id, 1);
          },
          index === state.items.length - 1 || state.sending,
        ),
      );
      li.appendChild(thumb);
      li.appendChild(caption);
      li.appendChild(tools);
      list.appendChild(li);
      first += it.pages;
    });
    var count = pageCount();
    var full = count >= state.maxPages;
    $("count").textContent = String(count);
    $("counter").className = full ? "counter full" : "counter";
    $("meter-fill").style.width = (state.maxPages ? Math.min(100, (100 * count) / state.maxPages) : 0) + "%";
    $("empty").hidden = state.items.length > 0;
    ["camera", "pick"].forEach(function (id) {
      $(id).disabled = full || state.sending;
      $(id + "-label").className =
        $(id + "-label").className.replace(/ ?disabled/g, "") + (full || state.sending ? " disabled" : "");
    });
    var send = $("send");
    send.disabled = count === 0 || state.sending;
    send.textContent = state.sending
      ? "Sending…"
      : count === 0
        ? "Send"
        : "Send " + count + " page" + (count === 1 ? "" : "s");
  }

  // --- sending ---
  function fileName(it, index) {
    var n = String(index + 1).padStart(2, "0");
    if (it.kind === "image") return "page-" + n + ".jpg";
    return "part-" + n + "-" + it.name.replace(/[^\w.\- ]+/g, "_");
  }

  function progress(fraction, text) {
    $("progress").hidden = fraction === null;
    $("progress-fill").style.width = Math.round((fraction || 0) * 100) + "%";
    $("progress-text").textContent = text || "";
  }

  function send() {
    if (state.sending || state.items.length === 0) return;
    state.sending = true;
    message("");
    render();
    var form = new FormData();
    form.append("token", state.token);
    state.items.forEach(function (it, i) {
      form.append("files", it.blob, fileName(it, i));
    });
    var xhr = new XMLHttpRequest();
    xhr.open("POST", endpoint("submit"));
    xhr.setRequestHeader("X-Capture-Token", state.token);
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable)
        progress(e.loaded / e.total, "Uploading… " + Math.round((100 * e.loaded) / e.total) + "%");
    };
    xhr.upload.onload = function () {
      progress(1, "Checking pages…");
    };
    xhr.onload = function () {
      state.sending = false;
      progress(null);
      var body = parse(xhr.responseText);
      if (xhr.status === 200 && body) return finished(body);
      render();
      handleError(xhr.status, body);
    };
    xhr.onerror = function () {
      state.sending = false;
      progress(null);
      render();
      message("The upload did not reach the server. Check your connection and press Send again.");
    };
    progress(0, "Uploading… 0%");
    xhr.send(form);
  }

  function finished(body) {
    state.finished = true;
    stopTimer();
    try {
      sessionStorage.removeItem(STORE_KEY);
    } catch (e) {
      /* nothing stored */
    }
    var pages = body.page_count || pageCount();
    $("done-text").textContent =
      pages + " page" + (pages === 1 ? " was" : "s were") + " sent. You can close this page.";
    $("done-ref").textContent = body.transaction_id || "";
    $("subtitle").hidden = true;
    show("done");
  }

  $("camera").addEventListener("change", function (e) {
    addFiles(e.target.files).then(function () {
      e.target.value = "";
    });
  });
  $("pick").addEventListener("change", function (e) {
    addFiles(e.target.files).then(function () {
      e.target.value = "";
    });
  });
  $("send").addEventListener("click", send);
  $("retry").addEventListener("click", openSession);

  state.token = readToken();
  openSession();
})();
