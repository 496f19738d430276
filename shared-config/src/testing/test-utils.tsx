import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import type { SiteConfig } from '../config/config-schema';
import { PorticoProvider } from '../context/portico-provider';
import type { Language } from '../i18n/language';
import { sampleConfig } from './sample-config';

export interface RenderWithPorticoOptions extends Omit<RenderOptions, 'wrapper'> {
  config?: SiteConfig;
  language?: Language;
}

/** Testing Library's render, inside the providers every section expects. */
export function renderWithPortico(
  ui: ReactElement,
  { config = sampleConfig, language = 'en', ...options }: RenderWithPorticoOptions = {},
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PorticoProvider config={config} language={language}>
      {children}
    </PorticoProvider>
  );
  return render(ui, { wrapper, ...options });
}
