import { isSimpleBlockNode, isTokenNode, type ComponentValue, type SimpleBlockNode } from '@csstools/css-parser-algorithms';
import { tokenize, TokenType } from '@csstools/css-tokenizer';
import { ISLAND_ATTRIBUTE } from '@portico/contract/page-parts';
import type { SectionId } from '@portico/contract/sections';
import { componentValues } from './component-values';
import { selectorProblem } from './css-selectors';
import { cssString, cssText, identName, isBlank, quoted, splitAt, tokenOf, trimmed, unwritable } from './css-text';
import { checkedValue, familyOf, type ValueRules } from './css-values';

export interface StylesheetScope {
  /** Whose stylesheet it is: its rules apply inside that section's slot only. */
  section: SectionId;
  /** Where the stylesheet is published: its relative URLs are resolved against it. */
  url: string;
  /** The section's origin (its manifest's): the only one its URLs may name. */
  origin: string;
}

export interface ScopedStylesheet {
  /** The rules kept, each inside the section's slot, written from what was checked. */
  css: string;
  /** Each rule left out, and why, in words: a publish refuses the build for any. */
  problems: string[];
}

/** The selector of a section's slot on the page: the container the host renders it in, an attribute no section's HTML may carry. */
const slotSelector = (section: SectionId) => `[${ISLAND_ATTRIBUTE}="${section}"]`;

/** Grouping rules kept, their rules read as the stylesheet's own. */
const GROUPS = new Set(['container', 'media', 'starting-style', 'supports']);

type Rule = { at?: string; prelude: ComponentValue[]; block?: SimpleBlockNode };

interface Scope {
  section: SectionId;
  prefix: string;
  names: string;
  values: ValueRules & { keyframes: Map<string, string>; fonts: Map<string, string> };
  problems: string[];
}

/**
 * A section's stylesheet as the page may apply it: read by a tokenizer and
 * parser that follow CSS Syntax (@csstools', which the CSS tokenizer tests
 * browsers pass hold it to), every selector kept only if it can match
 * nothing but the slot's elements and read nothing but their state
 * (css-selectors.ts), then written inside `:where(<slot>)` with no
 * specificity added; `@import` never kept (a file no publish checked, that
 * may change after it); every URL checked to be on the section's origin and
 * written absolute; `@keyframes`, `@font-face` families and `@layer` names,
 * which are the page's and not the rule's, renamed after the section, so
 * one section cannot restyle another's animations or make another's text
 * fetch its fonts. Anything else (`@property`, `@namespace`, `@page`,
 * `@scope`, nested rules) is left out with its reason. The text written
 * is made from the tokens checked (css-text.ts), so a browser reads what
 * was checked.
 */
export function scopeSectionStylesheet(source: string, scope: StylesheetScope): ScopedStylesheet {
  const values = componentValues(tokenize({ css: source }));
  const rules = rulesOf(values, true);
  const state: Scope = {
    section: scope.section,
    prefix: `:where(${slotSelector(scope.section)}) `,
    names: `${scope.section}--`,
    values: { base: scope.url, origin: scope.origin, keyframes: new Map(), fonts: new Map() },
    problems: [],
  };
  collectNames(rules, state);
  const css = rules
    .map((rule) => ruleText(rule, state))
    .filter(Boolean)
    .join('\n');
  return { css, problems: state.problems };
}

/** Rules, at-rules and qualified rules, as CSS Syntax consumes a list of them. */
function rulesOf(values: readonly ComponentValue[], topLevel: boolean): Rule[] {
  const rules: Rule[] = [];
  let current: Rule | undefined;
  for (const value of values) {
    const token = tokenOf(value);
    if (!current) {
      if (isBlank(value)) continue;
      if (topLevel && (token?.[0] === TokenType.CDO || token?.[0] === TokenType.CDC)) continue;
      current = token?.[0] === TokenType.AtKeyword ? { at: token[4].value.toLowerCase(), prelude: [] } : { prelude: [] };
      if (current.at !== undefined) continue;
    }
    if (current.at !== undefined && token?.[0] === TokenType.Semicolon) {
      rules.push(current);
      current = undefined;
    } else if (isSimpleBlockNode(value) && value.startToken[0] === TokenType.OpenCurly) {
      current.block = value;
      rules.push(current);
      current = undefined;
    } else current.prelude.push(value);
  }
  // An at-rule the stylesheet ends in is kept (CSS Syntax's), a qualified rule without its block is not.
  if (current?.at !== undefined) rules.push(current);
  return rules;
}

/** The section's @keyframes and @font-face names, wherever they are declared, with their names on the page. */
function collectNames(rules: readonly Rule[], state: Scope): void {
  for (const rule of rules) {
    if (rule.at === 'keyframes' || rule.at === '-webkit-keyframes') {
      const name = tokenOf(trimmed(rule.prelude)[0]);
      if (name?.[0] === TokenType.Ident) state.values.keyframes.set(name[4].value, `${state.names}${name[1]}`);
    } else if (rule.at === 'font-face' && rule.block) {
      for (const [property, value] of declarationsOf(rule.block)) {
        const family = property === 'font-family' ? familyOf(value) : undefined;
        if (family) state.values.fonts.set(family, `${state.names}${family}`);
      }
    } else if (rule.at !== undefined && GROUPS.has(rule.at) && rule.block) collectNames(rulesOf(rule.block.value, false), state);
  }
}

/** A block's declarations as `[property, value]`; nested rules are not (`ruleText` refuses a block that holds one). */
function declarationsOf(block: SimpleBlockNode): [string, ComponentValue[]][] {
  return splitAt(block.value, TokenType.Semicolon).flatMap((item) => {
    const parts = trimmed(item);
    const colon = parts.findIndex((part) => tokenOf(part)?.[0] === TokenType.Colon);
    const property = identName(parts[0]);
    return property !== undefined && colon > 0 && parts.slice(1, colon).every(isBlank)
      ? [[property, trimmed(parts.slice(colon + 1))] as [string, ComponentValue[]]]
      : [];
  });
}

/** Why a block of declarations is not kept whole, or undefined: a nested rule or at-rule, or something that is no declaration. */
function blockProblem(block: SimpleBlockNode): string | undefined {
  for (const item of splitAt(block.value, TokenType.Semicolon)) {
    const parts = trimmed(item);
    if (parts.length === 0) continue;
    if (tokenOf(parts[0])?.[0] === TokenType.AtKeyword || parts.some((part) => isSimpleBlockNode(part) && part.startToken[0] === TokenType.OpenCurly))
      return `holds a nested rule (${quoted(parts)}), which is not kept: write it as a rule of its own`;
    const colon = parts.findIndex((part) => tokenOf(part)?.[0] === TokenType.Colon);
    if (identName(parts[0]) === undefined || colon < 1 || !parts.slice(1, colon).every(isBlank)) return `holds ${quoted(parts)}, which is no declaration`;
  }
  return undefined;
}

/** The declarations written back, each value checked; or why the block is refused. */
function declarationsText(block: SimpleBlockNode, state: Scope, where: string, fontFace = false): string | undefined {
  const problem = blockProblem(block) ?? unwritable(block.value);
  if (problem) return refuse(state, `${where} ${problem}`);
  const written: string[] = [];
  for (const [property, value] of declarationsOf(block)) {
    if (fontFace && property === 'font-family') {
      const family = familyOf(value);
      if (family) {
        written.push(`font-family:${cssString(state.values.fonts.get(family)!)}`);
        continue;
      }
    }
    const checked = checkedValue(property, value, state.values);
    if (typeof checked === 'string') return refuse(state, `${where}: ${checked}`);
    written.push(`${property}:${cssText(trimmed(checked))}`);
  }
  return `{${written.join(';')}}`;
}

const refuse = (state: Scope, problem: string): undefined => {
  state.problems.push(problem);
  return undefined;
};

/** A rule written for the page, or '' when it is left out (its reason noted). */
function ruleText(rule: Rule, state: Scope): string {
  if (rule.at === undefined) return styleRuleText(rule, state);
  const at = rule.at;
  const where = `@${at} ${cssText(trimmed(rule.prelude)).slice(0, 100)}`.trim();
  if (at === 'charset') return '';
  if (at === 'import')
    return refuse(state, `${where} is refused: an imported stylesheet is fetched by the browser unchecked, and can change after the publish`) ?? '';
  if (!rule.block) return at === 'layer' ? layerText(rule, state) : (refuse(state, `${where} is not kept`) ?? '');
  const preludeProblem =
    unwritable(rule.prelude) ?? (rule.prelude.some((part) => isSimpleBlockNode(part) && part.startToken[0] === TokenType.OpenCurly) ? 'a block' : undefined);
  if (preludeProblem) return refuse(state, `${where} holds ${preludeProblem}`) ?? '';
  if (GROUPS.has(at) || at === 'layer') {
    const prelude = at === 'layer' ? layerNames(rule.prelude, state) : cssText(trimmed(rule.prelude));
    if (prelude === undefined) return '';
    const inner = rulesOf(rule.block.value, false)
      .map((nested) => ruleText(nested, state))
      .filter(Boolean);
    return `@${at} ${prelude}{${inner.join('\n')}}`;
  }
  if (at === 'font-face') {
    const body = declarationsText(rule.block, state, '@font-face', true);
    return body === undefined ? '' : `@font-face${body}`;
  }
  if (at === 'keyframes' || at === '-webkit-keyframes') return keyframesText(rule, state);
  return (
    refuse(
      state,
      `${where} is not kept: it reaches beyond the section's slot, or is not one of @media, @supports, @container, @layer, @starting-style, @keyframes and @font-face`,
    ) ?? ''
  );
}

function styleRuleText(rule: Rule, state: Scope): string {
  if (!rule.block) return '';
  const selectors = splitAt(rule.prelude, TokenType.Comma);
  const problem = unwritable(rule.prelude) ?? selectors.map((selector) => selectorProblem(selector, state.section)).find(Boolean);
  if (problem) return refuse(state, problem) ?? '';
  const body = declarationsText(rule.block, state, `the rule ${quoted(rule.prelude)}`);
  if (body === undefined) return '';
  return `${selectors.map((selector) => `${state.prefix}${cssText(trimmed(selector))}`).join(',')}${body}`;
}

/** `@layer a, b.c;`: each name the section's own on the page. */
function layerText(rule: Rule, state: Scope): string {
  const names = layerNames(rule.prelude, state);
  return names === undefined ? '' : `@layer ${names};`;
}

function layerNames(prelude: readonly ComponentValue[], state: Scope): string | undefined {
  const names = splitAt(prelude, TokenType.Comma).map(trimmed);
  if (names.length === 1 && names[0]!.length === 0) return '';
  const written: string[] = [];
  for (const name of names) {
    const parts = name.map((part) => tokenOf(part));
    const dotted = parts.every((token, index) => (index % 2 === 0 ? token?.[0] === TokenType.Ident : token?.[0] === TokenType.Delim && token[4].value === '.'));
    if (!dotted || name.length % 2 === 0) return refuse(state, `@layer ${quoted(prelude)} names a layer with something that is not a name`);
    written.push(`${state.names}${cssText(name)}`);
  }
  return written.join(',');
}

/** `@keyframes name { from {…} 50% {…} }`, under the section's name for it. */
function keyframesText(rule: Rule, state: Scope): string {
  const name = trimmed(rule.prelude);
  const token = tokenOf(name[0]);
  if (name.length !== 1 || token?.[0] !== TokenType.Ident) return refuse(state, `@${rule.at} ${quoted(rule.prelude)} is not named with one identifier`) ?? '';
  const frames: string[] = [];
  for (const frame of rulesOf(rule.block!.value, false)) {
    const selectors = splitAt(frame.prelude, TokenType.Comma).map(trimmed);
    const valid =
      frame.at === undefined &&
      frame.block &&
      selectors.every(
        (selector) =>
          selector.length === 1 &&
          isTokenNode(selector[0]!) &&
          (selector[0].value[0] === TokenType.Percentage || ['from', 'to'].includes(identName(selector[0]) ?? '')),
      );
    if (!valid) return refuse(state, `@keyframes ${token[4].value} holds ${quoted(frame.prelude)}, which is not a keyframe`) ?? '';
    const body = declarationsText(frame.block!, state, `@keyframes ${token[4].value}`);
    if (body === undefined) return '';
    frames.push(`${selectors.map((selector) => cssText(selector)).join(',')}${body}`);
  }
  return `@${rule.at} ${state.values.keyframes.get(token[4].value)}{${frames.join('\n')}}`;
}
