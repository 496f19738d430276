import { bigOutput, type HostileCdn } from '@portico/testing/hostile-builds';
import { SSR_LIMITS } from '../render-limits';

/** What a section at the HTML cap renders besides this filler: its own markup, well under it. */
const OWN_HTML_BYTES = 24 * 1024;

/**
 * Home and About published on `cdn` each rendering up to the HTML cap, in
 * random letters (which compress about as little as text can), Contact as
 * built: the remotes of a config.json whose page is as big as two sections
 * may make it.
 */
export function sectionsAtTheCap(cdn: HostileCdn): Record<'home' | 'about' | 'contact', string> {
  const atTheCap = bigOutput(SSR_LIMITS.sectionHtmlBytes - OWN_HTML_BYTES, 'random');
  return {
    home: cdn.publish('home-at-cap', 'remote-home', atTheCap),
    about: cdn.publish('about-at-cap', 'remote-about', atTheCap),
    contact: cdn.publish('contact', 'remote-contact'),
  };
}
