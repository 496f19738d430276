import { useState, type FormEvent } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { ApiRefusal, CONTROL_API, RELEASE_POLICIES, type ReleasePolicy } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { useSectionList } from '../../app/section-list-context';
import type { ListedSection } from '../../api/section-list';
import { useAction } from '../../api/use-action';
import { ConfirmButton } from '../../components/confirm-button';
import { OutcomeLine } from '../../components/outcome';
import { useConsoleLanguage } from '../../i18n/use-console-text';

export interface ReleasePolicyFormProps {
  section: ListedSection;
}

/** Whether `to` lets the section's own token do more alone than `from` (the levels are ordered, each including the ones before). */
const widens = (from: ReleasePolicy, to: ReleasePolicy): boolean => RELEASE_POLICIES.indexOf(to) > RELEASE_POLICIES.indexOf(from);

/**
 * The integrator's choice of how far the section's own token may take a
 * release alone (`PATCH /api/sections/ID` with `policy`, as `npm run
 * release -- policy` sends). Only a change that widens what the team may do
 * alone asks first: that is the one that lets a release reach visitors with
 * no integrator in the loop; narrowing takes a power away and is undone as
 * easily (docs/decisions/console-app.md).
 */
export function ReleasePolicyForm({ section }: ReleasePolicyFormProps) {
  const { language, text } = useConsoleLanguage();
  const t = text.teams;
  const { reload } = useSectionList();
  const action = useAction(reload);
  const [choice, setChoice] = useState<ReleasePolicy>(section.policy);
  // A policy set elsewhere (the CLI, another console) starts the choice afresh; the outcome line stays.
  const [shown, setShown] = useState(section.policy);
  if (shown !== section.policy) {
    setShown(section.policy);
    setChoice(section.policy);
  }
  const name = section.labels[language];

  const send = () => {
    if (choice === section.policy) {
      void action.run(
        async () => undefined,
        () => text.sectionForm.nothingChanged,
      );
      return;
    }
    void action.run(
      (session) => session.client.call(CONTROL_API.sections.change, { params: { section: section.id }, body: { policy: choice } }),
      (answer) => {
        const set = answer.policy ?? choice;
        return fill(t.policySaved, { name, policy: t.policyNames[set], words: t.policies[set] });
      },
      (error) => (error instanceof ApiRefusal ? fill(text.sectionForm.changeRefused, { reason: error.message }) : undefined),
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Enter in the group submits: a widening still goes through its confirmation, so Enter alone never widens.
    if (!widens(section.policy, choice)) send();
  };

  return (
    <form onSubmit={submit} className="stacked" noValidate aria-label={fill(t.policyForm, { name })}>
      <RadioGroup className="policy" value={choice} onChange={(value) => setChoice(value as ReleasePolicy)} isDisabled={action.busy}>
        <Label>{t.policy}</Label>
        {RELEASE_POLICIES.map((level) => (
          <Radio key={level} value={level}>
            <strong>{t.policyNames[level]}:</strong> {t.policies[level]}
          </Radio>
        ))}
      </RadioGroup>
      {widens(section.policy, choice) ? (
        <ConfirmButton label={t.policySave} question={fill(t.policyWidens, { name, words: t.policies[choice] })} disabled={action.busy} onConfirm={send} />
      ) : (
        <button type="submit" className="primary" disabled={action.busy}>
          {t.policySave}
        </button>
      )}
      <OutcomeLine outcome={action.outcome} />
    </form>
  );
}
