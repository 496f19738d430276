import { loadPack, PorticoProvider, type ConfigProblem, type SiteConfig } from '@portico/shared-config';
import { type Language } from '@portico/contract/languages';
import { act, render, type RenderOptions, type RenderResult } from '@testing-library/react';
import { Suspense, type ReactElement, type ReactNode } from 'react';
import { sampleConfig } from './sample-config';

export interface RenderWithPorticoOptions extends Omit<RenderOptions, 'wrapper'> {
  config?: SiteConfig;
  /** What parseConfig found wrong with it (none by default). */
  problems?: ConfigProblem[];
  language?: Language;
}

/**
 * Testing Library's render, inside the providers every section expects, and
 * inside a Suspense boundary as the host puts each section. It is async
 * because React 19 settles `use(promise)` (how the host awaits a remote and a
 * section its texts) only inside an awaited act().
 */
export async function renderWithPortico(
  ui: ReactElement,
  { config = sampleConfig, problems, language = 'en', ...options }: RenderWithPorticoOptions = {},
): Promise<RenderResult> {
  const text = await loadPack(language);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PorticoProvider config={config} problems={problems} language={language} text={text}>
      <Suspense>{children}</Suspense>
    </PorticoProvider>
  );
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(ui, { wrapper, ...options });
  });
  return result!;
}

/** Every leaf of a text pack by its dotted path, array items by index. */
export function textLeaves(node: unknown, path = ''): [path: string, value: unknown][] {
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => textLeaves(value, path ? `${path}.${key}` : key));
  }
  return [[path, node]];
}

/** The `{name}` placeholders of a text, sorted. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}
