import { act, render, type RenderOptions, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import type { SiteConfig } from '../config/config-schema';
import { PorticoProvider } from '../context/portico-provider';
import { en } from '../i18n/en';
import { id } from '../i18n/id';
import type { Language } from '../i18n/language';
import type { TextPack } from '../i18n/text-pack';
import { sampleConfig } from './sample-config';

/** Both packs, imported eagerly: tests may, a visitor's page may not. */
export const textPacks: Readonly<Record<Language, TextPack>> = { en, id };

export interface RenderWithPorticoOptions extends Omit<RenderOptions, 'wrapper'> {
  config?: SiteConfig;
  language?: Language;
}

/**
 * Testing Library's render, inside the providers every section expects. It is
 * async because React 19 settles `use(promise)` (how the host awaits a remote)
 * only inside an awaited act().
 */
export async function renderWithPortico(
  ui: ReactElement,
  { config = sampleConfig, language = 'en', ...options }: RenderWithPorticoOptions = {},
): Promise<RenderResult> {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PorticoProvider config={config} language={language} text={textPacks[language]}>
      {children}
    </PorticoProvider>
  );
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(ui, { wrapper, ...options });
  });
  return result!;
}
