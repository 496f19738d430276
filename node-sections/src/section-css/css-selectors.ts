import { isFunctionNode, isSimpleBlockNode, isWhitespaceNode, type ComponentValue } from '@csstools/css-parser-algorithms';
import { TokenType } from '@csstools/css-tokenizer';
import { sectionOwnsId } from '@portico/contract/page-parts';
import type { SectionId } from '@portico/contract/sections';
import { functionName, identName, isBlank, quoted, splitAt, tokenOf, trimmed } from './css-text';

/**
 * What a section's selector may hold, so that, written after its slot and a
 * descendant combinator, it matches only the slot's elements and reads
 * only their state. Combinators between compounds are safe there: every
 * element they reach from a descendant of the slot (a descendant, a
 * following sibling) is inside the slot. What is not safe is anything that
 * reads an element without that anchor: a complex selector inside `:not()`,
 * `:is()`, `:where()` or `:nth-child(… of S)` (its ancestors may be the
 * page's: `:not(body:has(#contact [value$="9"]) *)`), `:root`, `:scope`,
 * `:host`, the nesting selector `&`, namespaces; and pseudo-elements that
 * are not the element's own box (`::backdrop` covers the viewport).
 * So this is a list of what is allowed, not of what is not.
 */
const PSEUDO_CLASSES = new Set([
  'active',
  'any-link',
  'autofill',
  'checked',
  'default',
  'defined',
  'disabled',
  'empty',
  'enabled',
  'first-child',
  'first-of-type',
  'focus',
  'focus-visible',
  'focus-within',
  'hover',
  'in-range',
  'indeterminate',
  'invalid',
  'last-child',
  'last-of-type',
  'link',
  'only-child',
  'only-of-type',
  'open',
  'optional',
  'out-of-range',
  'placeholder-shown',
  'read-only',
  'read-write',
  'required',
  'target',
  'user-invalid',
  'user-valid',
  'valid',
  'visited',
  // The legacy one-colon pseudo-elements.
  'after',
  'before',
  'first-letter',
  'first-line',
]);
const PSEUDO_ELEMENTS = new Set(['after', 'before', 'file-selector-button', 'first-letter', 'first-line', 'marker', 'placeholder', 'selection']);
/** Functional pseudo-classes whose argument is a list of compound selectors here (no combinator). */
const COMPOUND_LISTS = new Set(['is', 'not', 'where']);
const NTH = new Set(['nth-child', 'nth-last-child', 'nth-last-of-type', 'nth-of-type']);
/** Elements a section's slot never holds: a rule naming them means the page. */
const PAGE_ELEMENTS = new Set(['body', 'head', 'html']);
const COMBINATORS = new Set(['>', '+', '~']);

type Mode = 'top' | 'compound' | 'relative';

/** Why `selector` (one of a list) may not be kept inside `section`'s slot, or undefined. */
export function selectorProblem(selector: readonly ComponentValue[], section: SectionId): string | undefined {
  const parts = trimmed(selector);
  if (parts.length === 0) return 'an empty selector';
  const problem = complexProblem(parts, 'top', section);
  return problem && `the selector ${quoted(parts)} ${problem}`;
}

const delimOf = (value: ComponentValue | undefined) => {
  const token = tokenOf(value);
  return token?.[0] === TokenType.Delim ? token[4].value : undefined;
};

/** A complex selector, read compound by compound. `compound`: one compound only; `relative`: `:has()`'s, which may start with a combinator. */
function complexProblem(values: readonly ComponentValue[], mode: Mode, section: SectionId): string | undefined {
  const parts = values.filter((value) => !isBlank(value) || isWhitespaceNode(value));
  if (parts.length === 0) return 'has an empty selector';
  let compoundStarted = false;
  let seenCompound = false;
  let afterCombinator = false;
  for (let at = 0; at < parts.length; at += 1) {
    const part = parts[at]!;
    const delim = delimOf(part);
    if (isWhitespaceNode(part) || (delim !== undefined && COMBINATORS.has(delim))) {
      if (mode === 'compound') return 'has a combinator inside :is(), :not() or :where(), which can read the page outside the slot';
      if (isWhitespaceNode(part)) {
        compoundStarted = false;
        continue;
      }
      if ((!seenCompound && mode !== 'relative') || afterCombinator) return `has the combinator "${delim}" where a selector is due`;
      compoundStarted = false;
      afterCombinator = true;
      continue;
    }
    const read = simpleProblem(parts, at, compoundStarted, mode, section);
    if (typeof read === 'string') return read;
    at = read;
    compoundStarted = true;
    seenCompound = true;
    afterCombinator = false;
  }
  return afterCombinator ? 'ends with a combinator' : undefined;
}

/** Reads the simple selector at `at`; resolves the index of its last part, or why it is refused. */
function simpleProblem(parts: readonly ComponentValue[], at: number, compoundStarted: boolean, mode: Mode, section: SectionId): number | string {
  const part = parts[at]!;
  const token = tokenOf(part);
  const type = identName(part);
  if (type !== undefined) {
    if (compoundStarted) return `names the element "${type}" inside a compound`;
    if (PAGE_ELEMENTS.has(type)) return `names <${type}>, which is the page's, not the section's`;
    return at;
  }
  const delim = delimOf(part);
  if (delim === '*') return compoundStarted ? 'has "*" inside a compound' : at;
  if (delim === '.') return identName(parts[at + 1]) !== undefined ? at + 1 : 'has a "." without a class name';
  if (delim === '&') return 'uses the nesting selector "&", which is not kept';
  if (delim === '|') return 'names a namespace, which is not kept';
  if (token?.[0] === TokenType.Hash)
    return sectionOwnsId(section, token[4].value)
      ? at
      : `names the id "${token[4].value}", which is not the ${section} section's own (its ids start with "${section}-")`;
  if (isSimpleBlockNode(part) && part.startToken[0] === TokenType.OpenSquare) return attributeProblem(part.value) ?? at;
  if (token?.[0] === TokenType.Colon) return pseudoProblem(parts, at, mode, section);
  return `holds ${quoted([part])}, which is not a selector kept inside a section's slot`;
}

function pseudoProblem(parts: readonly ComponentValue[], at: number, mode: Mode, section: SectionId): number | string {
  const next = parts[at + 1];
  if (tokenOf(next)?.[0] === TokenType.Colon) {
    const name = identName(parts[at + 2]);
    if (name !== undefined && PSEUDO_ELEMENTS.has(name)) return at + 2;
    return `has the pseudo-element ${quoted(parts.slice(at, at + 3))}, which is not kept (only ${[...PSEUDO_ELEMENTS].map((element) => `::${element}`).join(', ')})`;
  }
  const name = identName(next);
  if (name !== undefined) {
    if (PSEUDO_CLASSES.has(name)) return at + 1;
    return `has :${name}, which ${['root', 'scope', 'host'].includes(name) ? 'means the page, not the section' : 'is not kept'}`;
  }
  if (next && isFunctionNode(next)) {
    const fn = functionName(next);
    const items = splitAt(next.value, TokenType.Comma);
    if (COMPOUND_LISTS.has(fn)) {
      for (const item of items) {
        const inner = trimmed(item);
        if (inner.length === 0) return `has an empty item in :${fn}()`;
        const problem = complexProblem(inner, 'compound', section);
        if (problem) return problem;
      }
      return at + 1;
    }
    if (fn === 'has') {
      if (mode === 'relative') return 'has :has() inside :has()';
      for (const item of items) {
        const problem = complexProblem(trimmed(item), 'relative', section);
        if (problem) return problem;
      }
      return at + 1;
    }
    if (NTH.has(fn)) return nthProblem(next.value) ?? at + 1;
    if (fn === 'lang' || fn === 'dir')
      return next.value.every((value) => isBlank(value) || [TokenType.Ident, TokenType.String, TokenType.Comma].includes(tokenOf(value)?.[0] as TokenType))
        ? at + 1
        : `has an unexpected :${fn}()`;
    return `has :${fn}(), which is not kept`;
  }
  return 'has a ":" that starts no pseudo-class';
}

/** `An+B` only: `of S` would match S (a complex selector) against siblings and their ancestors. */
function nthProblem(values: readonly ComponentValue[]): string | undefined {
  for (const value of values) {
    if (isBlank(value)) continue;
    const token = tokenOf(value);
    if (identName(value) === 'of') return 'has :nth-child(… of S), which is not kept';
    if (!token || ![TokenType.Ident, TokenType.Number, TokenType.Dimension, TokenType.Delim].includes(token[0])) return 'has an :nth-*() that is not An+B';
    if (token[0] === TokenType.Delim && !['+', '-'].includes(token[4].value)) return 'has an :nth-*() that is not An+B';
  }
  return undefined;
}

/** `[name]`, `[name=value]`, `[name~=value i]` and the like; no namespace. */
function attributeProblem(values: readonly ComponentValue[]): string | undefined {
  const parts = values.filter((value) => !isBlank(value));
  const bad = `has the attribute selector ${quoted([...values])}, which is not one kept`;
  if (identName(parts[0]) === undefined) return bad;
  if (parts.length === 1) return undefined;
  let at = 1;
  const first = delimOf(parts[at]);
  if (first === '=') at += 1;
  else if (first !== undefined && '~|^$*'.includes(first) && delimOf(parts[at + 1]) === '=' && adjacent(values, parts[at]!, parts[at + 1]!)) at += 2;
  else return bad;
  const value = tokenOf(parts[at]);
  if (!value || (value[0] !== TokenType.Ident && value[0] !== TokenType.String)) return bad;
  at += 1;
  if (at === parts.length) return undefined;
  const flag = identName(parts[at]);
  return at === parts.length - 1 && (flag === 'i' || flag === 's') ? undefined : bad;
}

/** Whether `b` follows `a` in `values` with nothing between (`~=` is one matcher, `~ =` none). */
const adjacent = (values: readonly ComponentValue[], a: ComponentValue, b: ComponentValue) => values.indexOf(b) === values.indexOf(a) + 1;
