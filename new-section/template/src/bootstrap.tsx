import { mountStandalone } from '@portico/testing/standalone';
import { Section } from './exposes/section';

// `npm run dev -w @portico/remote-__SECTION_ID__`: this section alone, with a
// sample config; `?type=2` shows it in Indonesian.
void mountStandalone(Section, '__SECTION_TITLE__');
