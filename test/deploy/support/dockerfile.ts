/** One instruction of a Dockerfile, continuation lines joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.trimEnd().endsWith('\\')) {
      pending += `${line.trimEnd().slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (full) logical.push(full);
  }

  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest)!;
      stages.push({
        image: image.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? ''),
        name,
        instructions: [],
      });
    } else if (upper === 'ARG' && stages.length === 0) {
      const [name, value = ''] = rest.split('=');
      args[name] = value;
    } else {
      if (stages.length === 0) throw new Error(`${upper} before the first FROM`);
      stages[stages.length - 1].instructions.push({ keyword: upper, args: rest });
    }
  }
  return { args, stages };
}

/** An exec-form argument list (`["a", "b"]`), as Docker reads it: JSON. */
export function execForm(args: string): string[] {
  const value = JSON.parse(args) as unknown;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new Error(`not an exec-form list: ${args}`);
  }
  return value;
}

/**
 * Whether .dockerignore keeps a path out of the build context: the last
 * matching pattern decides, `!` re-includes, and a pattern that matches a
 * directory covers everything under it.
 */
export function isIgnored(patterns: readonly string[], path: string): boolean {
  const rules = patterns
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
      return { negated, regex: globToRegex(pattern) };
    });
  const segments = path.split('/');
  let ignored = false;
  for (const { negated, regex } of rules) {
    for (let depth = 1; depth <= segments.length; depth += 1) {
      if (regex.test(segments.slice(0, depth).join('/'))) {
        ignored = !negated;
        break;
      }
    }
  }
  return ignored;
}

function globToRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (pattern.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
