import type { SiteConfig } from '../config/config-schema';
import { usePortico } from './use-portico';

export function useConfig(): SiteConfig {
  return usePortico().config;
}
