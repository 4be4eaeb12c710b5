/**
 * A V8 CPU profile (`node --cpu-prof`) as a flame graph in SVG: one box per call path, as wide
 * as the share of samples spent in it and its callees, callers below callees (Brendan Gregg's
 * layout). Boxes narrower than a pixel are left out; each box's tooltip says its function, file
 * and share. Colours tell ours (server/), the framework and libraries (node_modules/), and
 * Node's own (node:, native) apart.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
}

const WIDTH = 1600;
const ROW = 17;
const FONT = 11;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/(server|node_modules|generated)\//, '$1/');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

function colour(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const hue = (functionName.length * 7) % 20;
  if (url.includes('/node_modules/')) return `hsl(${30 + hue}, 80%, 60%)`;
  if (url.includes('/server/') || url.includes('/generated/')) return `hsl(${190 + hue}, 60%, 62%)`;
  if (functionName === '(garbage collector)') return 'hsl(0, 70%, 65%)';
  return `hsl(${90 + hue}, 45%, 62%)`;
}

/** The SVG flame graph of `profile`, with `title` above it. Idle and program time are left out. */
export function flameGraph(profile: CpuProfile, title: string): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const total = new Map<number, number>();
  const totalOf = (node: ProfileNode): number => {
    let sum = node.hitCount ?? 0;
    for (const child of node.children ?? []) sum += totalOf(byId.get(child)!);
    total.set(node.id, sum);
    return sum;
  };
  const root = profile.nodes[0]!;
  const skipped = new Set(['(idle)', '(program)']);
  const tops = (root.children ?? []).map((id) => byId.get(id)!).filter((node) => !skipped.has(node.callFrame.functionName));
  const samples = tops.reduce((sum, node) => sum + totalOf(node), 0);
  const boxes: string[] = [];
  let depthMax = 0;
  const place = (node: ProfileNode, x: number, depth: number) => {
    const width = (total.get(node.id)! / samples) * WIDTH;
    if (width < 1) return;
    depthMax = Math.max(depthMax, depth);
    const text = label(node);
    const share = ((total.get(node.id)! / samples) * 100).toFixed(1);
    const fits = Math.floor((width - 4) / (FONT * 0.6));
    boxes.push(
      `<g><title>${escape(text)} (${share}%)</title><rect x="${x.toFixed(1)}" y="{y${depth}}" width="${width.toFixed(1)}" height="${ROW - 1}" fill="${colour(node)}" rx="2"/>` +
        (fits > 3 ? `<text x="${(x + 3).toFixed(1)}" y="{t${depth}}">${escape(text.length > fits ? `${text.slice(0, fits - 1)}…` : text)}</text>` : '') +
        '</g>',
    );
    let childX = x;
    for (const child of (node.children ?? []).map((id) => byId.get(id)!).sort((a, b) => label(a).localeCompare(label(b)))) {
      place(child, childX, depth + 1);
      childX += (total.get(child.id)! / samples) * WIDTH;
    }
  };
  let x = 0;
  for (const node of tops.sort((a, b) => label(a).localeCompare(label(b)))) {
    place(node, x, 0);
    x += (total.get(node.id)! / samples) * WIDTH;
  }
  const height = (depthMax + 1) * ROW + 40;
  // Callers at the bottom: depth 0 on the last row.
  const body = boxes
    .join('\n')
    .replace(/\{y(\d+)\}/g, (_m, d) => String(height - 10 - (Number(d) + 1) * ROW))
    .replace(/\{t(\d+)\}/g, (_m, d) => String(height - 10 - (Number(d) + 1) * ROW + FONT + 1));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="monospace" font-size="${FONT}">`,
    `<rect width="100%" height="100%" fill="#fafafa"/>`,
    `<text x="4" y="16" font-size="14">${escape(title)} (${samples} samples; blue: ours, orange: libraries, green: Node)</text>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}
