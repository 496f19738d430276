import { mountStandalone } from '@portico/testing/standalone';
import { Section } from './exposes/section';

void mountStandalone(Section, 'Repayment calculator');
