import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtinDir } from '../paths.js';
import type { LcbTask } from '../task.js';

/**
 * The built-in LiveCodeBench-style suite: one readable Python file a problem under
 * tasks/builtin/lcb/, with `# id:` and `# entry_point:` header lines and three sections marked
 * `# ---- prompt ----`, `# ---- solution ----` and `# ---- test ----` (see the README there).
 * The markers are whole comment lines, so the file stays plain Python and splitting it needs no
 * Python parsing.
 */

const SECTIONS = ['prompt', 'solution', 'test'] as const;
type Section = (typeof SECTIONS)[number];

export function lcbProblemsDir(): string {
  return builtinDir('lcb');
}

let cached: Promise<LcbTask[]> | undefined;

/** Every built-in LCB task (the originals; impossible variants are made by the mutations). */
export function loadBuiltinLcb(): Promise<LcbTask[]> {
  cached ??= readProblems(lcbProblemsDir()).catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached.then((tasks) => tasks.map((t) => ({ ...t })));
}

async function readProblems(dir: string): Promise<LcbTask[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.py')).sort();
  const tasks: LcbTask[] = [];
  const ids = new Map<string, string>();
  for (const file of files) {
    const task = parseProblemFile(file, await readFile(join(dir, file), 'utf8'));
    const other = ids.get(task.id);
    if (other) throw new Error(`tasks/builtin/lcb/${file}: id ${task.id} is already used by ${other}`);
    ids.set(task.id, file);
    tasks.push(task);
  }
  return tasks;
}

/** Splits one problem file into its task. Throws with the file name and what is wrong. */
export function parseProblemFile(file: string, text: string): LcbTask {
  const where = `tasks/builtin/lcb/${file}`;
  const header = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`# ${name}:`));
    const value = line?.slice(`# ${name}:`.length).trim();
    if (!value) throw new Error(`${where}: missing the "# ${name}: ..." header line`);
    return value;
  };
  const sections = new Map<Section, string[]>();
  let current: Section | undefined;
  for (const line of text.split('\n')) {
    const marker = /^# ---- (\w+) ----\s*$/.exec(line);
    if (marker) {
      const name = marker[1] as Section;
      if (!SECTIONS.includes(name)) throw new Error(`${where}: unknown section "${marker[1]}"`);
      if (sections.has(name)) throw new Error(`${where}: section "${name}" appears twice`);
      current = name;
      sections.set(name, []);
      continue;
    }
    if (current) sections.get(current)!.push(line);
  }
  const body = (name: Section) => {
    const lines = sections.get(name);
    if (!lines) throw new Error(`${where}: missing the "# ---- ${name} ----" section`);
    const text = `${lines.join('\n').trim()}\n`;
    if (!text.trim()) throw new Error(`${where}: the ${name} section is empty`);
    return text;
  };
  const entryPoint = header('entry_point');
  if (!/^[A-Za-z_]\w*$/.test(entryPoint)) throw new Error(`${where}: entry_point "${entryPoint}" is not a Python name`);
  const id = header('id');
  const prompt = body('prompt');
  const solution = body('solution');
  const test = body('test');
  if (!test.startsWith('def check(')) throw new Error(`${where}: the test section must start with "def check(candidate):"`);
  return {
    kind: 'lcb',
    id,
    variant: 'original',
    source: 'builtin:lcb',
    prompt,
    entryPoint,
    test,
    originalTest: test,
    solution,
  };
}
