// The page viewer of the review page: page images with word targets and field boxes in one SVG per page, zoom and
// rotation, click or drag to pick words. Boxes are in raster pixels (image_transform.rasterized_*), so the SVG's
// viewBox is the raster size and nothing is scaled by hand. Plain browser script, no modules, no dependencies.
/* exported createViewer */
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  return el;
}

/** Confidence class of a field: confirmed or sure → good, below the project's threshold or flagged → bad. */
function confidenceClass(field, threshold) {
  if (field.is_confirmed === true) return "good";
  if (field.value === null || field.value === undefined) return "none";
  if (field.review_required || field.confidence < threshold) return "bad";
  if (field.confidence < 0.85) return "warn";
  return "good";
}

function createViewer(container, opts) {
  const pages = new Map(); // page_number → { page, el, rot, svg, boxes, drag }
  let zoom = 1;
  let extraRotation = 0;
  let fitScale = 1;

  const rotationOf = (p) => ((((p.image_transform.rotation || 0) + extraRotation) % 360) + 360) % 360;

  function layoutPage(entry) {
    const { page, el, rot } = entry;
    const W = page.image_transform.rasterized_width;
    const H = page.image_transform.rasterized_height;
    const s = fitScale * zoom;
    const r = rotationOf(page);
    const turned = r === 90 || r === 270;
    el.style.width = `${Math.round((turned ? H : W) * s)}px`;
    el.style.height = `${Math.round((turned ? W : H) * s)}px`;
    rot.style.width = `${W * s}px`;
    rot.style.height = `${H * s}px`;
    const shift = {
      0: "",
      90: `translate(${H * s}px, 0) `,
      180: `translate(${W * s}px, ${H * s}px) `,
      270: `translate(0, ${W * s}px) `,
    }[r];
    rot.style.transform = `${shift}rotate(${r}deg)`;
  }

  function computeFit() {
    const widest = Math.max(
      1,
      ...[...pages.values()].map(({ page }) => {
        const r = rotationOf(page);
        return r === 90 || r === 270 ? page.image_transform.rasterized_height : page.image_transform.rasterized_width;
      }),
    );
    fitScale = Math.max(0.05, (container.clientWidth - 40) / widest);
  }

  function layout() {
    computeFit();
    for (const entry of pages.values()) layoutPage(entry);
    opts.onZoom(Math.round(zoom * 100));
  }

  /** SVG coordinates (raster pixels) of a pointer event: the CTM includes the CSS rotation and zoom. */
  function toRaster(svg, ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function wirePicking(entry) {
    const { svg, page } = entry;
    let start = null;
    let moved = false;
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      start = { raster: toRaster(svg, ev), x: ev.clientX, y: ev.clientY };
      moved = false;
      svg.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!start) return;
      if (!moved && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 5) return;
      moved = true;
      const p = toRaster(svg, ev);
      const x = Math.min(p.x, start.raster.x),
        y = Math.min(p.y, start.raster.y);
      entry.drag.setAttribute("x", x);
      entry.drag.setAttribute("y", y);
      entry.drag.setAttribute("width", Math.abs(p.x - start.raster.x));
      entry.drag.setAttribute("height", Math.abs(p.y - start.raster.y));
      entry.drag.style.display = "";
    });
    const end = (ev) => {
      if (!start) return;
      const p = toRaster(svg, ev);
      const s = start.raster;
      start = null;
      entry.drag.style.display = "none";
      let picked;
      if (moved) {
        const [x1, y1, x2, y2] = [Math.min(p.x, s.x), Math.min(p.y, s.y), Math.max(p.x, s.x), Math.max(p.y, s.y)];
        picked = page.words.filter((w) => {
          const b = w.bounding_box;
          return b[0] < x2 && b[2] > x1 && b[1] < y2 && b[3] > y1;
        });
      } else {
        picked = page.words
          .filter((w) => {
            const b = w.bounding_box;
            return p.x >= b[0] - 2 && p.x <= b[2] + 2 && p.y >= b[1] - 2 && p.y <= b[3] + 2;
          })
          .slice(0, 1);
      }
      if (picked.length) opts.onPick(page, picked);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", () => {
      start = null;
      entry.drag.style.display = "none";
    });
  }

  function addPage(page, image) {
    const el = document.createElement("div");
    el.className = "page";
    el.dataset.page = page.page_number;
    const label = document.createElement("span");
    label.className = "page-label";
    label.textContent = `Page ${page.page_number} · ${page.source_filename}`;
    const rot = document.createElement("div");
    rot.className = "rot";
    const W = page.image_transform.rasterized_width,
      H = page.image_transform.rasterized_height;
    const svg = svgEl("svg", {
      viewBox: `0 0 ${W} ${H}`,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": `Page ${page.page_number} with field boxes; click a word to fill the selected field`,
    });
    const words = svgEl("g");
    page.words.forEach((w, i) => {
      const b = w.bounding_box;
      const r = svgEl("rect", {
        class: "word",
        x: b[0],
        y: b[1],
        width: b[2] - b[0],
        height: b[3] - b[1],
        "data-word": i,
      });
      const t = svgEl("title");
      t.textContent = w.text;
      r.appendChild(t);
      words.appendChild(r);
    });
    const boxes = svgEl("g");
    const drag = svgEl("rect", { class: "drag" });
    drag.style.display = "none";
    if (image) {
      const img = document.createElement("img");
      img.alt = `Page ${page.page_number}`;
      img.src = image;
      img.draggable = false;
      rot.appendChild(img);
    } else {
      // No image (supplied text or OCR data): the words are drawn where they are.
      for (const w of page.words) {
        const b = w.bounding_box;
        const t = svgEl("text", {
          class: "ptext",
          x: b[0],
          y: b[3] - (b[3] - b[1]) * 0.2,
          "font-size": (b[3] - b[1]) * 0.8,
        });
        t.textContent = w.text;
        svg.appendChild(t);
      }
    }
    svg.append(words, boxes, drag);
    rot.appendChild(svg);
    el.append(label, rot);
    container.appendChild(el);
    const entry = { page, el, rot, svg, boxes, drag };
    pages.set(page.page_number, entry);
    wirePicking(entry);
    layoutPage(entry);
  }

  /** Draws the boxes of `fields` (id → field); the selected one stands out. */
  function drawBoxes(fields, selectedId, threshold) {
    for (const { boxes } of pages.values()) boxes.replaceChildren();
    for (const [id, f] of Object.entries(fields)) {
      for (const b of f.bounding_boxes || []) {
        const entry = pages.get(b.page_index);
        if (!entry) continue;
        const c = b.coordinates;
        const r = svgEl("rect", {
          class: `fbox ${id === selectedId ? "selected" : confidenceClass(f, threshold)}`,
          x: c[0],
          y: c[1],
          width: c[2] - c[0],
          height: c[3] - c[1],
          "data-field": id,
        });
        entry.boxes.appendChild(r);
      }
    }
  }

  /** Scrolls the first box of a field (or the page) into view. */
  function reveal(field, pageNumber) {
    const b = field && field.bounding_boxes && field.bounding_boxes[0];
    const entry = pages.get(b ? b.page_index : pageNumber);
    if (!entry) return;
    const target = b ? entry.boxes.querySelector("rect.selected") : null;
    (target || entry.el).scrollIntoView({ block: "center", inline: "center", behavior: "auto" });
  }

  /** The page most in view (for split corrections). */
  function currentPage() {
    const top = container.getBoundingClientRect().top + container.clientHeight / 3;
    let best = null;
    for (const [n, { el }] of pages) if (el.getBoundingClientRect().top <= top) best = n;
    return best ?? [...pages.keys()][0];
  }

  window.addEventListener("resize", () => layout());
  return {
    addPage,
    clear() {
      pages.clear();
      container.replaceChildren();
    },
    layout,
    drawBoxes,
    reveal,
    currentPage,
    zoomBy(f) {
      zoom = Math.min(6, Math.max(0.25, zoom * f));
      layout();
    },
    fit() {
      zoom = 1;
      layout();
    },
    rotate() {
      extraRotation = (extraRotation + 90) % 360;
      layout();
    },
  };
}
