import { Fragment, type ReactNode } from 'react';

/**
 * Like `fill`, for texts with an element inside (a link, say): `{name}`
 * becomes the given node, so each language can put it where its grammar
 * wants. Strings stay text, never markup.
 */
export function fillParts(template: string, values: Readonly<Record<string, ReactNode>>): ReactNode[] {
  return template
    .split(/(\{\w+\})/)
    .filter((part) => part !== '')
    .map((part, index) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return <Fragment key={index}>{name !== undefined && name in values ? values[name] : part}</Fragment>;
    });
}
