import type { TextPack } from './text-pack';

/**
 * The host's texts around a section in English (India): its loading line, its alert
 * and the notices naming it. A module of its own so that a script showing
 * only these (the page script's alert when the host's code fails to load)
 * carries nothing else of the pack.
 */
export const sectionsEn: TextPack['sections'] = {
  loading: 'Loading {section}…',
  failed: 'The {section} section could not be loaded.',
  reasons: {
    timeout: 'It did not arrive in time; the connection or its server may be slow.',
    integrity: 'Its files are not the version this site approved, so they were not run.',
    manifest: 'Its description could not be fetched from its server, or was not valid.',
    entry: 'Its code could not be fetched or started.',
    chunk: 'Part of its code could not be fetched.',
    render: 'It stopped with an error while showing its content.',
  },
  tryAgain: 'Try again',
  override: 'Testing override: the {section} section comes from {url} for this visit only.',
  overrideLabel: 'Remote override',
  preview:
    'Release preview: the {section} section is release {release} (build {build}), for this visit only; visitors get the active release. The link expires {expires}.',
  previewLabel: 'Release preview',
  previewExpired: 'This release preview link has expired: you are seeing the live site.',
  previewInvalid: 'This release preview link is not valid: you are seeing the live site.',
};
