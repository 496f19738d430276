import { FunctionNode, isFunctionNode, isSimpleBlockNode, TokenNode, WhitespaceNode, type ComponentValue } from '@csstools/css-parser-algorithms';
import { TokenType, type CSSToken } from '@csstools/css-tokenizer';
import { cssString, functionName, identName, isBlank, quoted, splitAt, tokenOf, trimmed } from './css-text';

/** Functions whose strings are URLs the browser fetches. */
const URL_FUNCTIONS = new Set(['-webkit-image-set', 'image-set', 'src', 'url']);
/** Functions that could put a URL together at run time inside one of those, from what no check read. */
const RUN_TIME_VALUES = new Set(['attr', 'env', 'var']);

/** What a declaration's value may reach, and the names of the section's own that are renamed on the page. */
export interface ValueRules {
  /** The stylesheet's URL: a relative URL is resolved against it. */
  base: string;
  /** The only origin a URL may name (`data:` URLs, which fetch nothing, aside). */
  origin: string;
  /** The section's @keyframes names (case counts) and their names on the page. */
  keyframes: ReadonlyMap<string, string>;
  /** The section's @font-face families, lower-cased, and their names on the page. */
  fonts: ReadonlyMap<string, string>;
}

const urlToken = (url: string): CSSToken => [TokenType.URL, `url(${cssString(url)})`, -1, -1, { value: url }];

/**
 * The absolute URL `value` names, if the stylesheet may name it, or why
 * not: only the section's origin, over its own scheme, or `data:`.
 */
function urlProblem(value: string, rules: ValueRules): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value, rules.base);
  } catch {
    return { problem: `url(${cssString(value)}) is no URL` };
  }
  if (url.protocol === 'data:') return { url: url.href };
  if (url.origin !== rules.origin)
    return { problem: `url(${cssString(value.slice(0, 100))}) is on ${url.protocol}//${url.host}, not the section's origin ${rules.origin}` };
  return { url: url.href };
}

/**
 * The value with every URL made absolute and checked, and the section's
 * own keyframes and font families renamed as on the page; or why it is
 * refused. Each URL is written as `url("…")` from the URL checked.
 */
export function checkedValue(property: string, values: readonly ComponentValue[], rules: ValueRules, insideUrl = false): ComponentValue[] | string {
  const out: ComponentValue[] = [];
  for (const value of values) {
    const token = tokenOf(value);
    if (token?.[0] === TokenType.URL) {
      const checked = urlProblem(token[4].value, rules);
      if ('problem' in checked) return checked.problem;
      out.push(new TokenNode(urlToken(checked.url)));
      continue;
    }
    if (isSimpleBlockNode(value) && value.startToken[0] === TokenType.OpenCurly) return `${quoted([value])} is a block inside a value`;
    if (isFunctionNode(value)) {
      const fn = functionName(value);
      if (insideUrl && RUN_TIME_VALUES.has(fn)) return `${fn}() inside ${quoted([value])} could name a URL no check read`;
      if (URL_FUNCTIONS.has(fn)) {
        const checked = urlFunction(value, fn, property, rules);
        if (typeof checked === 'string') return checked;
        out.push(checked);
        continue;
      }
      const inner = checkedValue(property, value.value, rules, insideUrl);
      if (typeof inner === 'string') return inner;
      out.push(new FunctionNode(value.name, value.endToken, inner));
      continue;
    }
    if (isSimpleBlockNode(value)) {
      const inner = checkedValue(property, value.value, rules, insideUrl);
      if (typeof inner === 'string') return inner;
      value.value = inner;
    }
    out.push(value);
  }
  return renamed(property, out, rules);
}

/** `url("…")`, `src("…")` and `image-set("…" 1x, …)`: their strings are URLs. */
function urlFunction(fn: FunctionNode, name: string, property: string, rules: ValueRules): ComponentValue | string {
  const inner: ComponentValue[] = [];
  for (const value of fn.value) {
    const token = tokenOf(value);
    if (token?.[0] === TokenType.String) {
      const checked = urlProblem(token[4].value, rules);
      if ('problem' in checked) return checked.problem;
      inner.push(new TokenNode([TokenType.String, cssString(checked.url), -1, -1, { value: checked.url }]));
      continue;
    }
    if (name !== 'url' && name !== 'src') {
      const nested = checkedValue(property, [value], rules, true);
      if (typeof nested === 'string') return nested;
      inner.push(...nested);
      continue;
    }
    if (!isBlank(value)) return `${quoted([fn])} holds more than a URL`;
  }
  return new FunctionNode(fn.name, fn.endToken, inner);
}

/** `animation(-name)` and `font(-family)` naming the section's own keyframes or fonts: their names on the page. */
function renamed(property: string, values: ComponentValue[], rules: ValueRules): ComponentValue[] {
  const name = property.toLowerCase();
  if ((name === 'animation' || name === 'animation-name') && rules.keyframes.size > 0) {
    return values.map((value) => {
      const token = tokenOf(value);
      const renamedTo = token?.[0] === TokenType.Ident ? rules.keyframes.get(token[4].value) : undefined;
      return renamedTo ? new TokenNode([TokenType.Ident, renamedTo, -1, -1, { value: renamedTo }]) : value;
    });
  }
  if ((name === 'font' || name === 'font-family') && rules.fonts.size > 0) {
    return splitAt(values, TokenType.Comma)
      .map((item) => renamedFamily(item, rules.fonts))
      .flatMap((item, index) => (index === 0 ? item : [commaNode(), ...item]));
  }
  return values;
}

const commaNode = () => new TokenNode([TokenType.Comma, ',', -1, -1, undefined]);

/** A family at the end of a comma-separated item (after `font`'s size, or alone): a string, or words. */
function renamedFamily(item: ComponentValue[], fonts: ReadonlyMap<string, string>): ComponentValue[] {
  const parts = trimmed(item);
  let start = parts.length;
  while (start > 0 && (identName(parts[start - 1]) !== undefined || (isBlank(parts[start - 1]!) && start < parts.length))) start -= 1;
  const last = tokenOf(parts.at(-1));
  if (last?.[0] === TokenType.String) start = parts.length - 1;
  const family = trimmed(parts.slice(start))
    .map((part) => (tokenOf(part)?.[0] === TokenType.String ? (tokenOf(part)![4] as { value: string }).value : identName(part)))
    .filter((word): word is string => word !== undefined)
    .join(' ')
    .toLowerCase();
  const to = fonts.get(family);
  if (!to) return item;
  const head = trimmed(parts.slice(0, start));
  const space = head.length > 0 ? [new WhitespaceNode([[TokenType.Whitespace, ' ', -1, -1, undefined]])] : [];
  return [...head, ...space, new TokenNode([TokenType.String, cssString(to), -1, -1, { value: to }])];
}

/** The family a @font-face's `font-family` descriptor names, lower-cased, or undefined. */
export function familyOf(values: readonly ComponentValue[]): string | undefined {
  const parts = trimmed(values);
  const token = tokenOf(parts[0]);
  if (parts.length === 1 && token?.[0] === TokenType.String) return token[4].value.toLowerCase();
  const words = parts.filter((part) => !isBlank(part)).map(identName);
  return words.every((word) => word !== undefined) && words.length > 0 ? words.join(' ') : undefined;
}
