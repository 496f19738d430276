import type { Market } from '@portico/contract/languages';
import type { auditEntrySchema, DeliverableWords } from '@portico/control-contract';
import type { z } from 'zod';

type AuditAction = z.infer<typeof auditEntrySchema>['action'];

/**
 * Every text of the operator console, per language; both packs are typed by
 * it, so a key missing from one fails the build. `{name}` placeholders are
 * filled with plain text (fill), never markup.
 */
export interface ConsoleText {
  title: string;
  language: { label: string; en: string; id: string };
  signIn: {
    heading: string;
    intro: string;
    token: string;
    submit: string;
    working: string;
    refused: string;
    expired: string;
    signedOut: string;
  };
  nav: { label: string; overview: string; audit: string; tokens: string; inbox: string; alerts: string; signOut: string; signedInAs: string };
  states: { active: string; candidate: string; previous: string; available: string; broken: string };
  common: {
    loading: string;
    cancel: string;
    confirm: string;
    none: string;
    copy: string;
    copied: string;
    exported: string;
    previousPage: string;
    nextPage: string;
    page: string;
    unreachable: string;
    refused: string;
    /** An export that came back as something else than its file: {type} is what the server said it sent. */
    notTheFile: string;
    forbidden: string;
  };
  overview: {
    heading: string;
    sectionsHeading: string;
    noActive: string;
    build: string;
    since: string;
    by: string;
    canary: string;
    visits: string;
    failureRate: string;
    lcp: string;
    inp: string;
    cls: string;
    flags: string;
    flagBroken: string;
    flagSetAside: string;
    flagDecided: string;
    serversHeading: string;
    server: string;
    serves: string;
    lastSeen: string;
    noServers: string;
    noSections: string;
  };
  section: {
    releasesHeading: string;
    /** The integrator's grant of script in the visitor's browser, as the store holds it. */
    grantInteractive: string;
    grantStatic: string;
    id: string;
    state: string;
    version: string;
    created: string;
    createdBy: string;
    note: string;
    actions: string;
    noReleases: string;
    publishHeading: string;
    manifestUrl: string;
    publishNote: string;
    publish: string;
    published: string;
    publishRefused: string;
    checkPassed: string;
    checkFailed: string;
    preview: string;
    previewReady: string;
    previewExpires: string;
    previewLink: string;
    activate: string;
    activateConfirm: string;
    activated: string;
    rollback: string;
    rollbackConfirm: string;
    rollbackToConfig: string;
    rolledBack: string;
    canaryHeading: string;
    noCanary: string;
    canaryStart: string;
    canaryRelease: string;
    canaryPercent: string;
    canaryStartConfirm: string;
    canaryStarted: string;
    canaryRunning: string;
    promote: string;
    promoteConfirm: string;
    promoted: string;
    abort: string;
    abortConfirm: string;
    aborted: string;
    chartFailureRate: string;
    /** The charts' x axis in words: the window they stand for. */
    chartWindow: string;
    chartVisits: string;
    chartLcp: string;
    threshold: string;
    healthHeading: string;
    noVisits: string;
    chartsAsReported: string;
    /** A running canary's two releases as its judge counts them; `judgedReported`: `{counted}` and, differing, `{reported}`. */
    judgedHeading: string;
    judgedNote: string;
    judgedCaption: string;
    judgedVisits: string;
    judgedFailureRate: string;
    judgedLcp: string;
    judgedInp: string;
    judgedNetworks: string;
    judgedReported: string;
  };
  /**
   * A section team's steps (issue 49): the canary's thresholds as the CLI
   * takes them (empty: the API's default, shown as the placeholder), the
   * release policy, a publish of a build published before, checks not run.
   */
  teams: {
    thresholds: string;
    thresholdsHint: string;
    minVisits: string;
    maxFailureDelta: string;
    maxSlowdown: string;
    promoteAfter: string;
    promoteAfterHint: string;
    minNetworks: string;
    /** `{active}`: what the others keep, `config.json`'s build when no release is active. */
    firstCanary: string;
    policy: string;
    policies: { publish: string; canary: string; activate: string };
    /** Each level's short name, the choice's label. */
    policyNames: { publish: string; canary: string; activate: string };
    /** The policy form's name: `{name}` the section. */
    policyForm: string;
    policySave: string;
    /** The confirmation of a widening: `{words}` what its own token may then do alone. */
    policyWidens: string;
    /** `{policy}` the level's name, `{words}` what its own token may do. */
    policySaved: string;
    republished: string;
    republishedNote: string;
    checksNotRun: string;
  };
  /** Sections as data: "Add a section" and a section's entry on its page. `{name}` is a section's label. */
  sectionForm: {
    addHeading: string;
    addIntro: string;
    add: string;
    added: string;
    openAdded: string;
    addRefused: string;
    id: string;
    idHint: string;
    labelEn: string;
    labelId: string;
    origins: string;
    originsHint: string;
    originsBuiltIn: string;
    interactive: string;
    interactiveHint: string;
    after: string;
    first: string;
    markets: string;
    marketsHint: string;
    settingsHeading: string;
    changeForm: string;
    place: string;
    placeOf: string;
    afterWord: string;
    visibility: string;
    isShown: string;
    isHidden: string;
    save: string;
    saved: string;
    nothingChanged: string;
    changeRefused: string;
    hide: string;
    show: string;
    hid: string;
    showed: string;
    retire: string;
    retireConfirm: string;
    retired: string;
    flagHidden: string;
    flagMarkets: string;
  };
  audit: {
    heading: string;
    filters: string;
    section: string;
    actor: string;
    action: string;
    since: string;
    until: string;
    any: string;
    apply: string;
    exportCsv: string;
    at: string;
    release: string;
    detail: string;
    empty: string;
    /** Each action in words (the filter's options and the table's column). */
    actions: Record<AuditAction, string>;
    /** The alerts' settings as an entry records them (JSON on the wire), in words. */
    alertsSet: string;
    alertsTest: string;
    cleared: string;
    tokenCreated: string;
    tokenRevoked: string;
    /** An entry's facts (issue 49), each kind in words: `{release}`, `{from}` the entry's releases. */
    facts: {
      publish: string;
      preview: string;
      activate: string;
      activateFirst: string;
      activateAgain: string;
      rollback: string;
      rollbackToConfig: string;
      endedCanary: string;
      /** Since the rest of issue 49's kinds: a check's or a server's reason is filled in as written. */
      republish: string;
      republishNote: string;
      none: string;
      refused: string;
      refusedNoManifest: string;
      refusedOrigin: string;
      notRun: string;
      canary: string;
      canaryChanged: string;
      configUrl: string;
      thresholds: string;
      promoteAfter: string;
      promoteByHand: string;
      networksAny: string;
      networksAtLeast: string;
      promote: string;
      abort: string;
      judged: string;
      slower: string;
      sectionChange: string;
      nothingChanged: string;
      label: string;
      origins: string;
      markets: string;
      grant: string;
      grantKept: string;
      interactive: string;
      static: string;
      hidden: string;
      shown: string;
      policy: string;
      movedFirst: string;
      movedAfter: string;
      retire: string;
      revoked: string;
      /** A section added: {labels}, {place}, {grant}, {origins}, {markets}. */
      sectionAdd: string;
      placeFirst: string;
      placeLast: string;
      placeAfter: string;
      /** {count} publishes of {sections} held back from {from} to {to}: over {max} refused in {minutes} minutes. */
      publishHeld: string;
      broken: string;
      whole: string;
      setAside: string;
      setAsideAgain: string;
    };
    /** A note a person typed, shown as typed and marked so: no pack translates it. */
    typedNote: string;
  };
  tokens: {
    heading: string;
    name: string;
    scope: string;
    created: string;
    by: string;
    revoke: string;
    revokeConfirm: string;
    /** Said first when the token is the one this session signed in with. */
    revokeOwn: string;
    /** Said first when the token is the install's owner token. */
    revokeOwner: string;
    revoked: string;
    createHeading: string;
    create: string;
    created_: string;
    shownOnce: string;
    /** The new token, as "Copy {what}" names it. */
    copyWhat: string;
    empty: string;
    scopeReleases: string;
    scopeMessages: string;
    scopeMetrics: string;
    scopeSection: string;
  };
  inbox: {
    heading: string;
    search: string;
    received: string;
    name: string;
    telephone: string;
    message: string;
    delivery: string;
    open: string;
    close: string;
    exportCsv: string;
    delete: string;
    deleteConfirm: string;
    deleted: string;
    empty: string;
    noMatch: string;
    delivered: string;
    queued: string;
    failed: string;
    attempts: string;
    /** A waiting message's delivery when no channel is set. */
    notSent: string;
    /** Above the inbox when no channel is set: the messages go nowhere. */
    nowhere: string;
    from: string;
    languageMarket: string;
    markets: Record<Market, string>;
  };
  /** The delivery sentences are those of @portico/releases' DeliverableWords, the CLI's in English. */
  alerts: DeliverableWords & {
    heading: string;
    intro: string;
    webhookUrl: string;
    email: string;
    threshold: string;
    save: string;
    saved: string;
    /** What each channel can deliver, after the settings and after each save. */
    deliverableHeading: string;
    savedNothing: string;
    test: string;
    testNothing: string;
    testSent: string;
    testNotSent: string;
    channels: { webhook: string; mail: string };
  };
}
