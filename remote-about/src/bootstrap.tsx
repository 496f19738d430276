import { mountStandalone } from '@portico/shared-config/standalone';
import { Section } from './exposes/section';

void mountStandalone(Section, 'About');
