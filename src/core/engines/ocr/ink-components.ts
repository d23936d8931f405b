/**
 * Connected components of an ink mask, as bounding boxes: what recover.ts groups into the text lines tesseract's
 * layout left out.
 */

export interface InkBlob {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * 8-connected components of the mask, as bounding boxes in the order of their first pixel (top row, leftmost).
 * One scan with union-find over provisional labels (a new label takes the next number, so a component's smallest
 * label is the one of its first pixel and is made its root); each label's box grows as its pixels are met and the
 * boxes are merged into their roots at the end. Only the labels of the row above are kept.
 */
export function components(mask: Uint8Array, width: number, height: number): InkBlob[] {
  let above = new Int32Array(width + 2);
  let current = new Int32Array(width + 2);
  const sets = new LabelSets();
  for (let y = 0; y < height; y++) {
    const row = y * width;
    // Labels of pixel x sit at x + 1: the columns either side of the image stay 0.
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) {
        current[x + 1] = 0;
        continue;
      }
      // Neighbours already labelled: the three above and the left one. The one straight above touches the other
      // three, so when it is ink they are joined to it already; otherwise the upper right may bridge two sets.
      let label = above[x + 1]!;
      if (label === 0) {
        const upRight = above[x + 2]!;
        const left = current[x]! || above[x]!;
        if (upRight !== 0) {
          label = upRight;
          if (left !== 0) sets.union(left, upRight);
        } else label = left !== 0 ? left : sets.add();
      }
      current[x + 1] = label;
      sets.grow(label, x, y);
    }
    [above, current] = [current, above];
  }
  return sets.boxes();
}

/** Union-find over provisional labels 1, 2, …, with each label's bounding box. */
class LabelSets {
  private parent = new Int32Array(1024);
  private box = new Int32Array(4096);
  private count = 1;

  add(): number {
    if (this.count === this.parent.length) {
      const parent = new Int32Array(this.count * 2);
      parent.set(this.parent);
      this.parent = parent;
      const box = new Int32Array(this.count * 8);
      box.set(this.box);
      this.box = box;
    }
    const label = this.count++;
    this.parent[label] = label;
    const b = label * 4;
    this.box[b] = this.box[b + 1] = 2 ** 31 - 1;
    this.box[b + 2] = this.box[b + 3] = -1;
    return label;
  }

  grow(label: number, x: number, y: number): void {
    const b = label * 4;
    const box = this.box;
    if (x < box[b]!) box[b] = x;
    if (y < box[b + 1]!) box[b + 1] = y;
    if (x > box[b + 2]!) box[b + 2] = x;
    if (y > box[b + 3]!) box[b + 3] = y;
  }

  find(label: number): number {
    const parent = this.parent;
    while (parent[label] !== label) label = parent[label] = parent[parent[label]!]!;
    return label;
  }

  /** The smaller root stays the root. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }

  /** Each set's box, in the order of its root label. */
  boxes(): InkBlob[] {
    const { parent, box } = this;
    // A label's parent is never larger than the label, so one pass in increasing order sees every parent's root first.
    for (let label = 1; label < this.count; label++) {
      const root = (parent[label] = parent[parent[label]!]!);
      if (root === label) continue;
      const r = root * 4;
      const b = label * 4;
      if (box[b]! < box[r]!) box[r] = box[b]!;
      if (box[b + 1]! < box[r + 1]!) box[r + 1] = box[b + 1]!;
      if (box[b + 2]! > box[r + 2]!) box[r + 2] = box[b + 2]!;
      if (box[b + 3]! > box[r + 3]!) box[r + 3] = box[b + 3]!;
    }
    const blobs: InkBlob[] = [];
    for (let label = 1; label < this.count; label++) {
      if (parent[label] !== label) continue;
      const b = label * 4;
      blobs.push({ x1: box[b]!, y1: box[b + 1]!, x2: box[b + 2]!, y2: box[b + 3]! });
    }
    return blobs;
  }
}
