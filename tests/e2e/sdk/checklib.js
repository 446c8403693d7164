// Shared by the *.mjs checks (not one itself: the runner runs *.mjs only): the addresses run-sdk-checks.sh started, and PASS/FAIL lines with a
// non-zero exit code when any check failed.
export const gateway = process.env.SWITCHYARD_URL;
export const nodeA = process.env.SIMNODE_A_URL;
export const nodeB = process.env.SIMNODE_B_URL;
if (!gateway || !nodeA || !nodeB) {
  console.error('run through run-sdk-checks.sh: SWITCHYARD_URL, SIMNODE_A_URL and SIMNODE_B_URL are unset');
  process.exit(2);
}

let failures = 0;
export function check(name, ok, detail = '') {
  if (!ok) failures += 1;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}
export async function attempt(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(name, false, `threw ${e?.status ?? ''} ${e?.message ?? e}`);
  }
}
export function finish() {
  process.exitCode = failures ? 1 : 0;
}

export async function setFault(nodeUrl, mode) {
  const r = await fetch(`${nodeUrl}/control/fault`, { method: 'POST', body: JSON.stringify({ mode }) });
  if (!r.ok) throw new Error(`fault ${mode}: HTTP ${r.status}`);
}

// The sum of a /metrics family's samples.
export async function metricSum(name) {
  const text = await (await fetch(`${gateway}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith(name)).reduce((s, l) => s + Number(l.split(' ').pop()), 0);
}
