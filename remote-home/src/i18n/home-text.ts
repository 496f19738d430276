/** Every text of the home section, per language; both packs are typed by it. */
export interface HomeText {
  /** The figures of the offer, in this market's currency; formatted in the page's locale. */
  money: { currency: string; loanMin: number; loanMax: number; minIncome: number };
  heading: string;
  offer: string;
  eligibility: string;
  /**
   * The user-count claim. `null` where the specification gives the market
   * no such claim: a lender must not advertise a number nobody gave us.
   */
  users: string | null;
  stepsHeading: string;
  steps: readonly [StepText, StepText, StepText];
  bannerAlt: string;
}

interface StepText {
  title: string;
  text: string;
}
