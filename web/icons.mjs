// SPDX-License-Identifier: GPL-3.0-or-later
// The page's icons, drawn here: a crowned checker piece on the header's green, as PNG (any size) and SVG.
import { deflateSync } from 'node:zlib';

const BACKGROUND = [43, 58, 46];
const RIM = [17, 17, 17];
const BODY_LIGHT = [96, 96, 96];
const BODY_DARK = [20, 20, 20];
const RING = [130, 130, 130];
const CROWN = [226, 185, 59];
const CROWN_EDGE = [110, 84, 16];
/* The crown as on the board's kings (board.js), in a piece of radius 38 at (50, 50). */
const CROWN_POINTS = [[31, 60], [28, 38], [40, 48], [50, 32], [60, 48], [72, 38], [69, 60]];

/* Whether (x, y) is inside the polygon (even-odd rule). */
function inside(points, x, y) {
  let odd = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

/* The colour at (x, y) of the drawing on a 100 x 100 canvas. */
function colourAt(x, y) {
  const d = Math.hypot(x - 50, y - 50);
  if (d > 37) return d > 39 ? BACKGROUND : RIM;
  if (inside(CROWN_POINTS, x, y)) {
    const edge = CROWN_POINTS.some((p, i) => {
      const q = CROWN_POINTS[(i + 1) % CROWN_POINTS.length];
      const t = Math.max(0, Math.min(1, ((x - p[0]) * (q[0] - p[0]) + (y - p[1]) * (q[1] - p[1])) / ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2)));
      return Math.hypot(x - (p[0] + t * (q[0] - p[0])), y - (p[1] + t * (q[1] - p[1]))) < 1.4;
    });
    return edge ? CROWN_EDGE : CROWN;
  }
  if (Math.abs(d - 27) < 1.5) return RING;
  /* The body lit from the upper left. */
  const t = Math.min(1, Math.hypot(x - 38, y - 35) / 55);
  return BODY_LIGHT.map((c, i) => Math.round(c + (BODY_DARK[i] - c) * t));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/* The icon as a PNG of `size` pixels square (4 x 4 samples a pixel). */
export function iconPng(size) {
  const rows = Buffer.alloc(size * (1 + 3 * size));
  for (let y = 0; y < size; y++) {
    rows[y * (1 + 3 * size)] = 0; /* no filter */
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const c = colourAt(((x + (sx + 0.5) / 4) * 100) / size, ((y + (sy + 0.5) / 4) * 100) / size);
          for (let i = 0; i < 3; i++) sum[i] += c[i];
        }
      for (let i = 0; i < 3; i++) rows[y * (1 + 3 * size) + 1 + 3 * x + i] = Math.round(sum[i] / 16);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; /* bits a sample */
  header[9] = 2; /* RGB */
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/* The same drawing as SVG. */
export function iconSvg() {
  const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<defs><radialGradient id="b" cx="38%" cy="35%" r="75%"><stop offset="0" stop-color="${hex(BODY_LIGHT)}"/><stop offset="1" stop-color="${hex(BODY_DARK)}"/></radialGradient></defs>
<rect width="100" height="100" fill="${hex(BACKGROUND)}"/>
<circle cx="50" cy="50" r="38" fill="url(#b)" stroke="${hex(RIM)}" stroke-width="2"/>
<circle cx="50" cy="50" r="27" fill="none" stroke="${hex(RING)}" stroke-width="3"/>
<path d="M${CROWN_POINTS.map((p) => p.join(' ')).join(' L')} Z" fill="${hex(CROWN)}" stroke="${hex(CROWN_EDGE)}" stroke-width="2.5"/>
</svg>
`;
}
