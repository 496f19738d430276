import { useState, type FormEvent } from 'react';
import { labelsProblems, marketsProblem } from '@portico/contract/section-entries';
import { ApiRefusal, CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import { useSignedIn } from '../../app/session-context';
import { useLandingNotice } from '../../app/landing-notice';
import { useSectionList } from '../../app/section-list-context';
import type { ListedSection } from '../../api/section-list';
import { useAction } from '../../api/use-action';
import { ConfirmButton } from '../../components/confirm-button';
import { OutcomeLine } from '../../components/outcome';
import { useConsoleLanguage } from '../../i18n/use-console-text';
import { ReleasePolicyForm } from './release-policy-form';
import { FIRST, originsOf, refusedField, SectionFields, type FieldKey, type Problems, type SectionDraft } from './section-fields';

export interface SectionSettingsProps {
  section: ListedSection;
}

type Change = z.input<typeof CONTROL_API.sections.change.body>;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((one, index) => one === b[index]);

/** What the draft changes of `before`: only those fields go in the PATCH, each checked by the shared rules first. */
function changeOf(before: SectionDraft, draft: SectionDraft): { change: Change; problems: Problems } {
  const change: Change = {};
  const problems: Problems = {};
  const labels = Object.fromEntries(Object.entries(draft.labels).filter(([language, label]) => before.labels[language as 'en' | 'id'] !== label));
  if (Object.keys(labels).length > 0) {
    change.labels = labels;
    for (const problem of labelsProblems(labels, true)) problems[problem.field as FieldKey] ??= problem.message;
  }
  if (!sameList(originsOf(before), originsOf(draft))) change.origins = originsOf(draft);
  if (before.interactive !== draft.interactive) change.interactive = draft.interactive;
  if (before.after !== draft.after) change.after = draft.after === FIRST ? null : draft.after;
  if (!sameList(before.markets, draft.markets)) {
    change.markets = draft.markets;
    const problem = marketsProblem(draft.markets);
    if (problem !== undefined) problems.markets = problem;
  }
  return { change, problems };
}

/**
 * A section's entry on its page: its labels, origins, markets, place and
 * whether it is hidden, shown and (for an integrator) changed with `PATCH
 * /api/sections/ID`; an added section's retirement, behind a confirmation
 * that says it is final. Each refusal's reason stands beside the field it
 * names, the draft kept.
 */
export function SectionSettings({ section }: SectionSettingsProps) {
  const { language, text } = useConsoleLanguage();
  const t = text.sectionForm;
  const { role } = useSignedIn();
  const { sections = [], reload } = useSectionList();
  const action = useAction(reload);
  const { leaveFor } = useLandingNotice();
  const place = sections.findIndex((one) => one.id === section.id);
  const before: SectionDraft = {
    labels: section.labels,
    origins: section.origins.join('\n'),
    interactive: section.interactive,
    after: place > 0 ? sections[place - 1]!.id : FIRST,
    markets: section.markets,
  };
  const name = section.labels[language];
  const [draft, setDraft] = useState(before);
  const [problems, setProblems] = useState<Problems>({});
  // A change read from the API (this console's save, the CLI, another console) starts a fresh draft; a refusal, which
  // changes nothing, keeps the one typed. Reset here, not by a key on the whole settings: a key drew the outcome lines
  // afresh too, and a save's outcome vanished once the console read its own change back.
  const basis = JSON.stringify(before);
  const [drafted, setDrafted] = useState(basis);
  if (drafted !== basis) {
    setDrafted(basis);
    setDraft(before);
    setProblems({});
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const { change, problems: found } = changeOf(before, draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(change).length === 0) {
      await action.run(
        async () => undefined,
        () => t.nothingChanged,
      );
      return;
    }
    await action.run(
      (session) => session.client.call(CONTROL_API.sections.change, { params: { section: section.id }, body: change }),
      () => fill(t.saved, { name }),
      (error) => {
        const field = refusedField(error);
        if (field && error instanceof ApiRefusal) setProblems({ [field]: error.message });
        return error instanceof ApiRefusal ? fill(t.changeRefused, { reason: error.message }) : undefined;
      },
    );
  };
  const setHidden = (hidden: boolean) =>
    void action.run(
      (session) => session.client.call(CONTROL_API.sections.change, { params: { section: section.id }, body: { hidden } }),
      () => fill(hidden ? t.hid : t.showed, { name }),
      (error) => (error instanceof ApiRefusal ? fill(t.changeRefused, { reason: error.message }) : undefined),
    );
  const retired = fill(t.retired, { name });
  const retire = () =>
    void action
      .run(
        (session) => session.client.call(CONTROL_API.sections.retire, { params: { section: section.id }, body: {} }),
        () => retired,
      )
      .then((answer) => {
        // Its page is gone with it: back to the overview, which no longer lists it, and the outcome said there.
        if (answer) leaveFor('/', retired);
      });

  const afterName = place > 0 ? sections[place - 1]!.labels[language] : undefined;
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t.settingsHeading}</h2>
      <dl className="facts">
        <dt>{t.id}</dt>
        <dd>{section.id}</dd>
        <dt>{t.place}</dt>
        {/* A section token sees its own section alone: its place is the API's, without the others around it. */}
        <dd>
          {role.integrator ? fill(t.placeOf, { position: String(place + 1), count: String(sections.length) }) : String(section.order + 1)}
          {role.integrator && afterName !== undefined && (
            <>
              {', '}
              {t.afterWord} <bdi>{afterName}</bdi>
            </>
          )}
        </dd>
        <dt>{t.markets}</dt>
        <dd>{section.markets.join(', ')}</dd>
        <dt>{t.visibility}</dt>
        <dd>{section.hidden ? t.isHidden : t.isShown}</dd>
        <dt>{t.origins}</dt>
        <dd>{section.origins.length > 0 ? section.origins.join(', ') : section.builtIn ? t.originsBuiltIn : text.common.none}</dd>
        <dt>{text.teams.policy}</dt>
        <dd>
          <code>{section.policy}</code>: {text.teams.policies[section.policy]}
        </dd>
      </dl>
      <OutcomeLine outcome={action.outcome} />
      {role.integrator && (
        <>
          <div className="row-actions">
            <button type="button" disabled={action.busy} onClick={() => setHidden(!section.hidden)}>
              {section.hidden ? t.show : t.hide}
            </button>
            {!section.builtIn && (
              <ConfirmButton label={t.retire} danger question={fill(t.retireConfirm, { name, id: section.id })} disabled={action.busy} onConfirm={retire} />
            )}
          </div>
          <form onSubmit={(event) => void save(event)} className="stacked" noValidate aria-label={fill(t.changeForm, { name })}>
            <SectionFields draft={draft} onChange={setDraft} problems={problems} others={sections.filter((one) => one.id !== section.id)} />
            <button type="submit" className="primary" disabled={action.busy}>
              {t.save}
            </button>
          </form>
          <ReleasePolicyForm section={section} />
        </>
      )}
    </section>
  );
}
