import {
  isCommentNode,
  isFunctionNode,
  isSimpleBlockNode,
  isTokenNode,
  isWhitespaceNode,
  type ComponentValue,
  type FunctionNode,
  type SimpleBlockNode,
} from '@csstools/css-parser-algorithms';
import { TokenType, type CSSToken } from '@csstools/css-tokenizer';

/**
 * CSS text written back from the tokens a spec tokenizer read, so that a
 * browser reads the same tokens again: what was checked is what is applied.
 * The source's own text is reused for each token except where it could run
 * into what follows it: a comment or a string left open at the end (written
 * closed), a block or function left open (closed), a comment's contents
 * (written empty: `/**\/` still parts two tokens, as the comment did).
 */
export function cssText(values: readonly ComponentValue[]): string {
  return values.map(valueText).join('');
}

function valueText(value: ComponentValue): string {
  if (isWhitespaceNode(value)) return ' ';
  if (isCommentNode(value)) return '/**/';
  if (isFunctionNode(value)) return `${value.name[1]}${cssText(value.value)})`;
  if (isSimpleBlockNode(value)) return blockText(value);
  if (isTokenNode(value)) return tokenText(value.value);
  return '';
}

function blockText(block: SimpleBlockNode): string {
  const open = block.startToken[0];
  const close = open === TokenType.OpenCurly ? '}' : open === TokenType.OpenSquare ? ']' : ')';
  return `${block.startToken[1]}${cssText(block.value)}${close}`;
}

function tokenText(token: CSSToken): string {
  switch (token[0]) {
    case TokenType.String:
      return cssString(token[4].value);
    case TokenType.URL:
      return `url(${cssString(token[4].value)})`;
    case TokenType.Comment:
      return '/**/';
    default:
      return token[1];
  }
}

/** A CSS string of `value`: every quote, backslash and line break escaped, so it ends where it is meant to. */
export function cssString(value: string): string {
  return `"${value.replace(/[\\"\n\r\f]/g, (character) => (character === '\\' || character === '"' ? `\\${character}` : `\\${character.charCodeAt(0).toString(16)} `))}"`;
}

/**
 * Why these values cannot be written back as they were read, or undefined:
 * a string or `url()` the tokenizer found broken (a browser drops the
 * declaration around it; we drop the rule), a backslash that escapes
 * nothing (`\` before a line break) or ends the stylesheet (it would escape
 * what is written after it).
 */
export function unwritable(values: readonly ComponentValue[]): string | undefined {
  for (const value of values) {
    if (isFunctionNode(value) || isSimpleBlockNode(value)) {
      if (isFunctionNode(value) && value.name[1].endsWith('\\')) return 'a backslash at the end of the stylesheet';
      const inner = unwritable(value.value);
      if (inner) return inner;
      continue;
    }
    if (!isTokenNode(value)) continue;
    const [type, raw] = value.value;
    if (type === TokenType.BadString) return 'a string broken by a line break';
    if (type === TokenType.BadURL) return 'a url() that is not closed or holds a quote, a space or a bracket';
    if (type === TokenType.Delim && raw === '\\') return 'a backslash that escapes nothing';
    if (type !== TokenType.String && type !== TokenType.URL && raw.endsWith('\\')) return 'a backslash at the end of the stylesheet';
  }
  return undefined;
}

/** The values without whitespace and comments at either end. */
export function trimmed(values: readonly ComponentValue[]): ComponentValue[] {
  let start = 0;
  let end = values.length;
  while (start < end && isBlank(values[start]!)) start += 1;
  while (end > start && isBlank(values[end - 1]!)) end -= 1;
  return values.slice(start, end);
}

export const isBlank = (value: ComponentValue) => isWhitespaceNode(value) || isCommentNode(value);

/** Splits at each top-level token of `type` (a comma, a semicolon). */
export function splitAt(values: readonly ComponentValue[], type: TokenType): ComponentValue[][] {
  const parts: ComponentValue[][] = [[]];
  for (const value of values) {
    if (isTokenNode(value) && value.value[0] === type) parts.push([]);
    else parts.at(-1)!.push(value);
  }
  return parts;
}

/** The token of a plain token node, or undefined. */
export const tokenOf = (value: ComponentValue | undefined): CSSToken | undefined => (value && isTokenNode(value) ? value.value : undefined);

/** An identifier's unescaped, lower-cased name, or undefined when `value` is no identifier. */
export function identName(value: ComponentValue | undefined): string | undefined {
  const token = tokenOf(value);
  return token?.[0] === TokenType.Ident ? token[4].value.toLowerCase() : undefined;
}

/** A function's unescaped, lower-cased name. */
export const functionName = (fn: FunctionNode) => fn.getName().toLowerCase();

/** How a refused part of a stylesheet is named in a reason: its text, shortened. */
export function quoted(values: readonly ComponentValue[]): string {
  const text = cssText(trimmed(values)).replace(/\s+/g, ' ');
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}
