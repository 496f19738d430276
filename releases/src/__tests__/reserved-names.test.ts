import { foldedName, reservedNameProblem, SERVER_ACTORS } from '../scopes';

// Token names that would pass for an actor the server (or a command run on
// the database) writes in the audit log, in every spelling that reads alike.

const LOOK_ALIKES: readonly (readonly [string, string])[] = [
  // The issue's: a separator or punctuation at the end.
  ['canary-judge-', 'canary-judge'],
  ['owner_', 'owner'],
  ['server.', 'server'],
  // Case and other separators.
  ['Canary_Judge', 'canary-judge'],
  ['CANARY.JUDGE', 'canary-judge'],
  ['canaryjudge', 'canary-judge'],
  ['canary--judge', 'canary-judge'],
  ['own-er', 'owner'],
  ['O.W.N.E.R', 'owner'],
  ['-server-', 'server'],
  ['Environment', 'environment'],
  ['environ_ment.', 'environment'],
  ['background-check', 'background-check'],
  ['BackgroundCheck', 'background-check'],
  ['background_check!', 'background-check'],
  // Compatibility forms, accents and invisible characters.
  ['ＯＷＮＥＲ', 'owner'],
  ['ｃａｎａｒｙ－ｊｕｄｇｅ', 'canary-judge'],
  ['ówner', 'owner'],
  ['se\u0301rver', 'server'],
  ['own\u200ber', 'owner'],
  ['ser ver', 'server'],
  ['ＳＥＲＶＥＲ.', 'server'],
  ['Ⓞwner', 'owner'],
];

it.each(LOOK_ALIKES)('refuses %j: it reads as %s', (name, actor) => {
  const problem = reservedNameProblem(name);
  expect(problem).toContain('reserved');
  expect(problem).toContain(`reads as ${actor}`);
  expect(problem).toContain(JSON.stringify(name));
});

it.each(['local:alice', 'LOCAL:root', 'local-root', 'Local_root', 'local.', 'local', 'ｌｏｃａｌ：root', 'ＬＯＣＡＬ-x'])(
  'refuses %j: it reads as a command run on the database',
  (name) => {
    expect(reservedNameProblem(name)).toContain('local:<user>');
  },
);

it.each(['judge-owner-ci', 'ci-home', 'owners', 'server-2', 'canary-judge-ci', 'locale-team', 'localisation', 'home-fix', 'environments'])(
  'takes %j, which only contains or extends a reserved name',
  (name) => {
    expect(reservedNameProblem(name)).toBeUndefined();
  },
);

it('folds every reserved actor to a distinct word of letters alone', () => {
  const folded = SERVER_ACTORS.map(foldedName);
  expect(folded).toEqual(['owner', 'environment', 'server', 'backgroundcheck', 'canaryjudge']);
  for (const actor of SERVER_ACTORS) expect(reservedNameProblem(actor)).toContain(`reads as ${actor}`);
});
