import { useId, useState } from 'react';
import { CANARY_DEFAULTS, CONTROL_API, type listedReleaseSchema } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import type { useAction } from '../../api/use-action';
import { ConfirmButton } from '../../components/confirm-button';
import { useConsoleLanguage } from '../../i18n/use-console-text';

export interface CanaryStartFormProps {
  section: string;
  /** The section's name, in the console's language. */
  name: string;
  /** What the visitors outside the canary keep: the active release, or config.json's build. */
  active: string;
  /** Whether a release is active: without one, the canary is judged against config.json's build, and the form says so. */
  hasActive: boolean;
  startable: readonly z.infer<typeof listedReleaseSchema>[];
  action: ReturnType<typeof useAction>;
}

type Thresholds = Record<'minVisits' | 'maxFailureDelta' | 'maxSlowdown' | 'promoteAfter' | 'minNetworks', string>;

const EMPTY: Thresholds = { minVisits: '', maxFailureDelta: '', maxSlowdown: '', promoteAfter: '', minNetworks: '' };

/**
 * The thresholds as the API takes them: rates typed in points and percent,
 * sent as fractions (`2` points is `0.02`), each one left empty left out so
 * the API's default applies, as the CLI's flags do.
 */
function thresholdsBody(typed: Thresholds) {
  const number = (text: string, scale = 1) => (text.trim() === '' ? undefined : Number(text) / scale);
  return {
    minVisits: number(typed.minVisits),
    maxFailureDelta: number(typed.maxFailureDelta, 100),
    maxSlowdown: number(typed.maxSlowdown, 100),
    promoteAfterVisits: number(typed.promoteAfter),
    minNetworks: number(typed.minNetworks),
  };
}

/** Starts a canary with the share and the thresholds the CLI takes (`npm run release -- canary`), each default shown. */
export function CanaryStartForm({ section, name, active, hasActive, startable, action }: CanaryStartFormProps) {
  const { text } = useConsoleLanguage();
  const t = text.section;
  const tt = text.teams;
  const hintId = useId();
  const [release, setRelease] = useState('');
  const [percent, setPercent] = useState('10');
  const [typed, setTyped] = useState(EMPTY);
  const chosen = release || startable[0]?.id || '';
  const field = (key: keyof Thresholds, label: string, placeholder: string, step: string, hint?: string) => (
    <div className="threshold">
      <label htmlFor={`canary-${key}`}>{label}</label>
      <input
        id={`canary-${key}`}
        type="number"
        min={0}
        step={step}
        inputMode="decimal"
        placeholder={placeholder}
        aria-describedby={hint ? `${hintId}-${key}` : hintId}
        value={typed[key]}
        onChange={(event) => setTyped({ ...typed, [key]: event.target.value })}
      />
      {hint && (
        <p id={`${hintId}-${key}`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    <form onSubmit={(event) => event.preventDefault()} className="inline">
      {!hasActive && <p>{fill(tt.firstCanary, { active })}</p>}
      <label htmlFor="canary-release">{t.canaryRelease}</label>
      <select id="canary-release" value={chosen} onChange={(event) => setRelease(event.target.value)}>
        {startable.map((option) => (
          <option key={option.id} value={option.id}>
            {option.id}
          </option>
        ))}
      </select>
      <label htmlFor="canary-percent">{t.canaryPercent}</label>
      <input id="canary-percent" type="number" min={1} max={99} required value={percent} onChange={(event) => setPercent(event.target.value)} />
      <fieldset className="thresholds">
        <legend>{tt.thresholds}</legend>
        <p id={hintId} className="hint">
          {tt.thresholdsHint}
        </p>
        {field('minVisits', tt.minVisits, String(CANARY_DEFAULTS.minVisits), '1')}
        {field('maxFailureDelta', tt.maxFailureDelta, String(CANARY_DEFAULTS.maxFailureDelta * 100), '0.1')}
        {field('maxSlowdown', tt.maxSlowdown, String(CANARY_DEFAULTS.maxSlowdown * 100), '1')}
        {field('promoteAfter', tt.promoteAfter, '', '1', tt.promoteAfterHint)}
        {field('minNetworks', tt.minNetworks, String(CANARY_DEFAULTS.minNetworks), '1')}
      </fieldset>
      <ConfirmButton
        label={t.canaryStart}
        question={fill(t.canaryStartConfirm, { percent, section: name, release: chosen, active })}
        disabled={action.busy || !chosen}
        onConfirm={() =>
          void action.run(
            (session) =>
              session.client.call(CONTROL_API.canaries.start, {
                params: { section },
                body: { release: chosen, percent: Number(percent), ...thresholdsBody(typed) },
              }),
            () => fill(t.canaryStarted, { percent, release: chosen }),
          )
        }
      />
    </form>
  );
}
